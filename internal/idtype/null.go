package idtype

import "database/sql/driver"

// The Null types (NullKSUID, NullObjectID) are an ID and a Valid flag,
// with the field named after the type. Their methods hand the two fields
// to these functions, which hold the one rule: not valid is NULL (SQL
// NULL, JSON null, BSON null), and decoding leaves the value unchanged
// on error.

// NullValue is driver.Valuer for a Null type.
func NullValue[ID driver.Valuer](id ID, valid bool) (driver.Value, error) {
	if !valid {
		return nil, nil
	}
	return id.Value()
}

// NullBytesValue is BytesValue for a Null type: nil when not valid.
func NullBytesValue[ID interface{ BytesValue() ([]byte, error) }](id ID, valid bool) ([]byte, error) {
	if !valid {
		return nil, nil
	}
	return id.BytesValue()
}

// NullScan is sql.Scanner for a Null type: NULL clears it, anything else
// is scanned as the ID's Scan does.
func NullScan[ID any, P interface {
	*ID
	Scan(any) error
}](id *ID, valid *bool, src any) error {
	var v ID
	if src != nil {
		if err := P(&v).Scan(src); err != nil {
			return err
		}
	}
	*id, *valid = v, src != nil
	return nil
}

// NullMarshalJSON writes null when not valid, else the text form as a
// JSON string.
func NullMarshalJSON[ID interface {
	AppendText([]byte) ([]byte, error)
}](id ID, valid bool) ([]byte, error) {
	if !valid {
		return []byte("null"), nil
	}
	b, _ := id.AppendText(append(make([]byte, 0, 40), '"'))
	return append(b, '"'), nil
}

// NullUnmarshalJSON reads null as not valid, anything else as the ID's
// UnmarshalJSON does.
func NullUnmarshalJSON[ID any, P interface {
	*ID
	UnmarshalJSON([]byte) error
}](id *ID, valid *bool, data []byte) error {
	var v ID
	null := IsJSONNull(data)
	if !null {
		if err := P(&v).UnmarshalJSON(data); err != nil {
			return err
		}
	}
	*id, *valid = v, !null
	return nil
}

// NullMarshalBSONValue writes BSON null when not valid, else the ID as
// its MarshalBSONValue does.
func NullMarshalBSONValue[ID interface {
	MarshalBSONValue() (byte, []byte, error)
}](id ID, valid bool) (byte, []byte, error) {
	if !valid {
		return BSONNull, nil, nil
	}
	return id.MarshalBSONValue()
}

// NullUnmarshalBSONValue reads BSON null as not valid, anything else as
// the ID's UnmarshalBSONValue does.
func NullUnmarshalBSONValue[ID any, P interface {
	*ID
	UnmarshalBSONValue(byte, []byte) error
}](id *ID, valid *bool, typ byte, data []byte) error {
	var v ID
	if typ != BSONNull {
		if err := P(&v).UnmarshalBSONValue(typ, data); err != nil {
			return err
		}
	}
	*id, *valid = v, typ != BSONNull
	return nil
}
