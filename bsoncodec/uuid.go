package bsoncodec

import (
	"errors"
	"fmt"
	"reflect"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec/internal/idkind"
	"github.com/sortid/sortid/uuidv7"
)

var (
	tUUID     = idkind.UUIDv7.Type
	tNullUUID = idkind.UUIDv7.Null
)

// uuidCodec writes a uuidv7.UUID as BSON binary of subtype 4 and reads it
// by uuidv7's own rules (UUID.UnmarshalBSONValue).
type uuidCodec struct{}

func (uuidCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tUUID {
		return bson.ValueEncoderError{Name: "UUIDEncodeValue", Types: []reflect.Type{tUUID}, Received: val}
	}
	return vw.WriteBinaryWithSubtype(valueOf[uuidv7.UUID](val)[:], bson.TypeBinaryUUID)
}

func (uuidCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tUUID {
		return bson.ValueDecoderError{Name: "UUIDDecodeValue", Types: []reflect.Type{tUUID}, Received: val}
	}
	id, err := readUUID(dc, vr)
	if err != nil {
		return err
	}
	set(val, id)
	return nil
}

func readUUID(dc bson.DecodeContext, vr bson.ValueReader) (uuidv7.UUID, error) {
	var (
		id   uuidv7.UUID
		typ  byte
		data []byte
		err  error
	)
	if vr.Type() == bson.TypeBinary {
		var b []byte
		var subtype byte
		if b, subtype, err = vr.ReadBinary(); err != nil {
			return id, err
		}
		var buf [5 + uuidv7.Size]byte
		typ, data = byte(bson.TypeBinary), appendBinaryValue(buf[:0], subtype, b)
	} else if typ, data, err = readRaw(dc, vr); err != nil {
		return id, err
	}
	err = id.UnmarshalBSONValue(typ, data)
	return id, err
}

type nullUUIDCodec struct{}

func (nullUUIDCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tNullUUID {
		return bson.ValueEncoderError{Name: "NullUUIDEncodeValue", Types: []reflect.Type{tNullUUID}, Received: val}
	}
	n := valueOf[uuidv7.NullUUID](val)
	if !n.Valid {
		return vw.WriteNull()
	}
	return vw.WriteBinaryWithSubtype(n.UUID[:], bson.TypeBinaryUUID)
}

func (nullUUIDCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tNullUUID {
		return bson.ValueDecoderError{Name: "NullUUIDDecodeValue", Types: []reflect.Type{tNullUUID}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		set(val, uuidv7.NullUUID{})
		return vr.ReadNull()
	}
	id, err := readUUID(dc, vr)
	if err != nil {
		return err
	}
	set(val, uuidv7.NullUUID{UUID: id, Valid: true})
	return nil
}

// RegisterUUID adds to reg an encoder and a decoder for T, another
// package's UUID type that is a [16]byte (Go 1.27's uuid.UUID,
// github.com/google/uuid's UUID), and for *T: BSON binary of subtype 4,
// as for uuidv7.UUID. Without it the driver writes such a type as an
// array of 16 numbers, which neither sorts nor matches a UUID.
//
//	bsoncodec.RegisterUUID[uuid.UUID](reg)
//
// It reads binary of subtype 4 and 16 bytes, of any UUID version; any
// other value is an error that names it, and leaves the field unchanged.
func RegisterUUID[T ~[16]byte](reg *bson.Registry) {
	c := foreignUUIDCodec[T]{}
	t := reflect.TypeFor[T]()
	reg.RegisterTypeEncoder(t, c)
	reg.RegisterTypeDecoder(t, c)
	p := pointerCodec{elem: c}
	reg.RegisterTypeEncoder(reflect.PointerTo(t), p)
	reg.RegisterTypeDecoder(reflect.PointerTo(t), p)
}

// ErrNotUUID is wrapped by the error for a BSON value that a type of
// RegisterUUID cannot hold.
var ErrNotUUID = errors.New("bsoncodec: not a UUID")

type foreignUUIDCodec[T ~[16]byte] struct{}

func (foreignUUIDCodec[T]) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != reflect.TypeFor[T]() {
		return bson.ValueEncoderError{Name: "UUIDEncodeValue", Types: []reflect.Type{reflect.TypeFor[T]()}, Received: val}
	}
	b := [16]byte(*valueOf[T](val))
	return vw.WriteBinaryWithSubtype(b[:], bson.TypeBinaryUUID)
}

func (foreignUUIDCodec[T]) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	t := reflect.TypeFor[T]()
	if !val.CanSet() || val.Type() != t {
		return bson.ValueDecoderError{Name: "UUIDDecodeValue", Types: []reflect.Type{t}, Received: val}
	}
	if vr.Type() != bson.TypeBinary {
		return fmt.Errorf("bsoncodec: cannot decode BSON %s into %s: want binary of subtype 4: %w", vr.Type(), t, ErrNotUUID)
	}
	b, subtype, err := vr.ReadBinary()
	if err != nil {
		return err
	}
	if subtype != bson.TypeBinaryUUID || len(b) != 16 {
		return fmt.Errorf("bsoncodec: cannot decode BSON binary of subtype %d and %d bytes into %s: want subtype 4 and 16 bytes: %w", subtype, len(b), t, ErrNotUUID)
	}
	set(val, T(b))
	return nil
}
