package bsoncodec

import (
	"encoding/binary"
	"errors"
	"reflect"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec/internal/idkind"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// NewRegistry returns the driver's default registry with the ID types
// registered.
func NewRegistry() *bson.Registry {
	reg := bson.NewRegistry()
	Register(reg)
	return reg
}

// Register adds encoders and decoders for ksuid.KSUID, ksuid.NullKSUID,
// objectid.ObjectID, objectid.NullObjectID, uuidv7.UUID, uuidv7.NullUUID
// and pointers to them to reg. A UUID is BSON binary of subtype 4; for
// other packages' UUID types see RegisterUUID.
func Register(reg *bson.Registry) {
	for _, r := range []struct {
		t     reflect.Type
		codec codec
	}{
		{tKSUID, ksuidCodec{}},
		{tNullKSUID, nullKSUIDCodec{}},
		{tObjectID, objectIDCodec{}},
		{tNullObjectID, nullObjectIDCodec{}},
		{tUUID, uuidCodec{}},
		{tNullUUID, nullUUIDCodec{}},
	} {
		reg.RegisterTypeEncoder(r.t, r.codec)
		reg.RegisterTypeDecoder(r.t, r.codec)
		// Registered for the pointer types too: otherwise the driver
		// would reach the types' BSON methods through the pointer,
		// not these codecs.
		p := pointerCodec{elem: r.codec}
		reg.RegisterTypeEncoder(reflect.PointerTo(r.t), p)
		reg.RegisterTypeDecoder(reflect.PointerTo(r.t), p)
	}
}

type codec interface {
	bson.ValueEncoder
	bson.ValueDecoder
}

var (
	tKSUID        = idkind.KSUID.Type
	tNullKSUID    = idkind.KSUID.Null
	tObjectID     = idkind.ObjectID.Type
	tNullObjectID = idkind.ObjectID.Null
	tRawValue     = reflect.TypeFor[bson.RawValue]()
)

// set stores v in val, through a pointer when val is addressable (as
// decode targets are), which saves boxing v.
func set[T any](val reflect.Value, v T) {
	if val.CanAddr() {
		*val.Addr().Interface().(*T) = v
		return
	}
	val.Set(reflect.ValueOf(v))
}

// valueOf returns the ID held in val without copying it to the heap when
// val is addressable, as struct fields are.
func valueOf[T any](val reflect.Value) *T {
	if val.CanAddr() {
		return val.Addr().Interface().(*T)
	}
	v := val.Interface().(T)
	return &v
}

type ksuidCodec struct{}

func (ksuidCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tKSUID {
		return bson.ValueEncoderError{Name: "KSUIDEncodeValue", Types: []reflect.Type{tKSUID}, Received: val}
	}
	return writeKSUID(vw, valueOf[ksuid.KSUID](val))
}

// writeKSUID writes id as its 27-character text, the one stored form.
func writeKSUID(vw bson.ValueWriter, id *ksuid.KSUID) error {
	return vw.WriteString(id.String())
}

func (ksuidCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tKSUID {
		return bson.ValueDecoderError{Name: "KSUIDDecodeValue", Types: []reflect.Type{tKSUID}, Received: val}
	}
	id, err := readKSUID(dc, vr)
	if err != nil {
		return err
	}
	set(val, id)
	return nil
}

// readKSUID reads a KSUID by ksuid's own BSON rules, those of
// KSUID.UnmarshalBSONValue, so that the registry and the type's methods
// accept and refuse the same values with the same errors. Binary, what
// KSUIDs are stored as, is read without copying it to the heap.
func readKSUID(dc bson.DecodeContext, vr bson.ValueReader) (ksuid.KSUID, error) {
	var (
		id   ksuid.KSUID
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
		var buf [5 + ksuid.Size]byte
		typ, data = byte(bson.TypeBinary), appendBinaryValue(buf[:0], subtype, b)
	} else if typ, data, err = readRaw(dc, vr); err != nil {
		return id, err
	}
	err = id.UnmarshalBSONValue(typ, data)
	return id, err
}

// readRaw reads the next value as its BSON type and bytes, for the ID
// types' UnmarshalBSONValue, which hold the rules of what they accept.
func readRaw(dc bson.DecodeContext, vr bson.ValueReader) (byte, []byte, error) {
	if dc.Registry == nil {
		return 0, nil, errors.New("bsoncodec: DecodeContext without a Registry")
	}
	dec, err := dc.LookupDecoder(tRawValue)
	if err != nil {
		return 0, nil, err
	}
	var raw bson.RawValue
	if err := dec.DecodeValue(dc, vr, reflect.ValueOf(&raw).Elem()); err != nil {
		return 0, nil, err
	}
	return byte(raw.Type), raw.Value, nil
}

type nullKSUIDCodec struct{}

func (nullKSUIDCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tNullKSUID {
		return bson.ValueEncoderError{Name: "NullKSUIDEncodeValue", Types: []reflect.Type{tNullKSUID}, Received: val}
	}
	n := valueOf[ksuid.NullKSUID](val)
	if !n.Valid {
		return vw.WriteNull()
	}
	return writeKSUID(vw, &n.KSUID)
}

func (nullKSUIDCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tNullKSUID {
		return bson.ValueDecoderError{Name: "NullKSUIDDecodeValue", Types: []reflect.Type{tNullKSUID}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		set(val, ksuid.NullKSUID{})
		return vr.ReadNull()
	}
	id, err := readKSUID(dc, vr)
	if err != nil {
		return err
	}
	set(val, ksuid.NullKSUID{KSUID: id, Valid: true})
	return nil
}

type objectIDCodec struct{}

func (objectIDCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tObjectID {
		return bson.ValueEncoderError{Name: "ObjectIDEncodeValue", Types: []reflect.Type{tObjectID}, Received: val}
	}
	return vw.WriteObjectID(bson.ObjectID(*valueOf[objectid.ObjectID](val)))
}

func (objectIDCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tObjectID {
		return bson.ValueDecoderError{Name: "ObjectIDDecodeValue", Types: []reflect.Type{tObjectID}, Received: val}
	}
	id, err := readObjectID(dc, vr)
	if err != nil {
		return err
	}
	set(val, id)
	return nil
}

// readObjectID reads a BSON ObjectId directly, and anything else by
// objectid's own rules (ObjectID.UnmarshalBSONValue), which refuse it with
// the error the type's method gives.
func readObjectID(dc bson.DecodeContext, vr bson.ValueReader) (objectid.ObjectID, error) {
	if vr.Type() == bson.TypeObjectID {
		oid, err := vr.ReadObjectID()
		return objectid.ObjectID(oid), err
	}
	var id objectid.ObjectID
	typ, data, err := readRaw(dc, vr)
	if err == nil {
		err = id.UnmarshalBSONValue(typ, data)
	}
	return id, err
}

type nullObjectIDCodec struct{}

func (nullObjectIDCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tNullObjectID {
		return bson.ValueEncoderError{Name: "NullObjectIDEncodeValue", Types: []reflect.Type{tNullObjectID}, Received: val}
	}
	n := valueOf[objectid.NullObjectID](val)
	if !n.Valid {
		return vw.WriteNull()
	}
	return vw.WriteObjectID(bson.ObjectID(n.ObjectID))
}

func (nullObjectIDCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tNullObjectID {
		return bson.ValueDecoderError{Name: "NullObjectIDDecodeValue", Types: []reflect.Type{tNullObjectID}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		set(val, objectid.NullObjectID{})
		return vr.ReadNull()
	}
	id, err := readObjectID(dc, vr)
	if err != nil {
		return err
	}
	set(val, objectid.NullObjectID{ObjectID: id, Valid: true})
	return nil
}

// pointerCodec writes a nil pointer as BSON null and reads BSON null as a
// nil pointer; otherwise it hands the pointed-to value to elem.
type pointerCodec struct{ elem codec }

func (p pointerCodec) EncodeValue(ec bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Kind() != reflect.Pointer {
		return bson.ValueEncoderError{Name: "PointerEncodeValue", Kinds: []reflect.Kind{reflect.Pointer}, Received: val}
	}
	if val.IsNil() {
		return vw.WriteNull()
	}
	return p.elem.EncodeValue(ec, vw, val.Elem())
}

func (p pointerCodec) DecodeValue(dc bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Kind() != reflect.Pointer {
		return bson.ValueDecoderError{Name: "PointerDecodeValue", Kinds: []reflect.Kind{reflect.Pointer}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		val.Set(reflect.Zero(val.Type()))
		return vr.ReadNull()
	}
	// Decode into a fresh value, so that a failure leaves the pointer as
	// it was.
	fresh := reflect.New(val.Type().Elem())
	if err := p.elem.DecodeValue(dc, vr, fresh.Elem()); err != nil {
		return err
	}
	val.Set(fresh)
	return nil
}

// appendBinaryValue appends the bytes of a BSON binary value: int32
// length, subtype, then b. KSUID.UnmarshalBSONValue reads that framing.
func appendBinaryValue(dst []byte, subtype byte, b []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
	dst = append(dst, subtype)
	return append(dst, b...)
}
