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

// NullScan is sql.Scanner for a Null type: NULL clears it, anything else
// is scanned as the ID's Scan does. It scans into the field itself, with
// no copy that would escape to the heap: the ID's Scan leaves it as it
// was on error, and valid is set only on success.
func NullScan[ID any, P interface {
	*ID
	Scan(any) error
}](id *ID, valid *bool, src any) error {
	if src == nil {
		var zero ID
		*id, *valid = zero, false
		return nil
	}
	if err := P(id).Scan(src); err != nil {
		return err
	}
	*valid = true
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
	if IsJSONNull(data) {
		var zero ID
		*id, *valid = zero, false
		return nil
	}
	if err := P(id).UnmarshalJSON(data); err != nil {
		return err // the ID's UnmarshalJSON leaves it as it was
	}
	*valid = true
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
	if typ == BSONNull {
		var zero ID
		*id, *valid = zero, false
		return nil
	}
	if err := P(id).UnmarshalBSONValue(typ, data); err != nil {
		return err // the ID's UnmarshalBSONValue leaves it as it was
	}
	*valid = true
	return nil
}
