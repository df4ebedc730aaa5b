package bsoncodec

import (
	"reflect"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// An Option configures Register and NewRegistry.
type Option func(*config)

type config struct {
	ksuidAsString bool
}

// KSUIDAsString makes the registry write KSUIDs as their 27-character
// text form (a BSON string) instead of 20 bytes of binary. The text sorts
// by time only under MongoDB's default binary comparison: a collection or
// index collation that is not "simple" breaks it.
func KSUIDAsString() Option {
	return func(c *config) { c.ksuidAsString = true }
}

// NewRegistry returns the driver's default registry with the ID types
// registered.
func NewRegistry(opts ...Option) *bson.Registry {
	reg := bson.NewRegistry()
	Register(reg, opts...)
	return reg
}

// Register adds encoders and decoders for ksuid.KSUID, ksuid.NullKSUID,
// objectid.ObjectID, objectid.NullObjectID and pointers to them to reg.
func Register(reg *bson.Registry, opts ...Option) {
	var c config
	for _, opt := range opts {
		opt(&c)
	}
	k := ksuidCodec{asString: c.ksuidAsString}
	for _, r := range []struct {
		t     reflect.Type
		codec codec
	}{
		{tKSUID, k},
		{tNullKSUID, nullKSUIDCodec{k}},
		{tObjectID, objectIDCodec{}},
		{tNullObjectID, nullObjectIDCodec{}},
	} {
		reg.RegisterTypeEncoder(r.t, r.codec)
		reg.RegisterTypeDecoder(r.t, r.codec)
		// Registered for the pointer types too: otherwise the driver
		// would reach the types' BSON methods through the pointer and
		// skip the options.
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
	tKSUID        = reflect.TypeFor[ksuid.KSUID]()
	tNullKSUID    = reflect.TypeFor[ksuid.NullKSUID]()
	tObjectID     = reflect.TypeFor[objectid.ObjectID]()
	tNullObjectID = reflect.TypeFor[objectid.NullObjectID]()
)

// ObjectIDToBSON returns id as the driver's bson.ObjectID; both are 12
// bytes, so nothing is copied but the value itself.
func ObjectIDToBSON(id objectid.ObjectID) bson.ObjectID { return bson.ObjectID(id) }

// ObjectIDFromBSON returns the driver's bson.ObjectID as an
// objectid.ObjectID.
func ObjectIDFromBSON(id bson.ObjectID) objectid.ObjectID { return objectid.ObjectID(id) }

// ToBSON is ObjectIDToBSON.
//
// Deprecated: the name does not say it converts ObjectIDs only; use
// ObjectIDToBSON.
func ToBSON(id objectid.ObjectID) bson.ObjectID { return ObjectIDToBSON(id) }

// FromBSON is ObjectIDFromBSON.
//
// Deprecated: the name does not say it converts ObjectIDs only; use
// ObjectIDFromBSON.
func FromBSON(id bson.ObjectID) objectid.ObjectID { return ObjectIDFromBSON(id) }

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

type ksuidCodec struct{ asString bool }

func (c ksuidCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tKSUID {
		return bson.ValueEncoderError{Name: "KSUIDEncodeValue", Types: []reflect.Type{tKSUID}, Received: val}
	}
	return c.write(vw, valueOf[ksuid.KSUID](val))
}

func (c ksuidCodec) write(vw bson.ValueWriter, id *ksuid.KSUID) error {
	if c.asString {
		return vw.WriteString(id.String())
	}
	return vw.WriteBinaryWithSubtype(id[:], bson.TypeBinaryGeneric)
}

func (c ksuidCodec) DecodeValue(_ bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tKSUID {
		return bson.ValueDecoderError{Name: "KSUIDDecodeValue", Types: []reflect.Type{tKSUID}, Received: val}
	}
	id, err := readKSUID(vr)
	if err != nil {
		return err
	}
	set(val, id)
	return nil
}

// readKSUID reads binary of subtype 0 and 20 bytes, or the text form.
func readKSUID(vr bson.ValueReader) (ksuid.KSUID, error) {
	switch t := vr.Type(); t {
	case bson.TypeBinary:
		b, subtype, err := vr.ReadBinary()
		if err != nil {
			return ksuid.KSUID{}, err
		}
		if subtype != bson.TypeBinaryGeneric {
			return ksuid.KSUID{}, decodeError("BSON binary of subtype "+strconv.Itoa(int(subtype)), "ksuid.KSUID", "want subtype 0", ksuid.ErrUnsupportedType)
		}
		if len(b) != ksuid.Size {
			return ksuid.KSUID{}, decodeError("BSON binary of "+strconv.Itoa(len(b))+" bytes", "ksuid.KSUID", "want 20", ksuid.ErrInvalidLength)
		}
		return ksuid.KSUID(b), nil
	case bson.TypeString:
		s, err := vr.ReadString()
		if err != nil {
			return ksuid.KSUID{}, err
		}
		id, err := ksuid.Parse(s)
		if err != nil {
			return ksuid.KSUID{}, decodeError("BSON string", "ksuid.KSUID", strings.TrimPrefix(err.Error(), "ksuid: "), err)
		}
		return id, nil
	case bson.TypeNull:
		return ksuid.KSUID{}, decodeError("BSON null", "ksuid.KSUID", "use ksuid.NullKSUID or *ksuid.KSUID", ksuid.ErrNull)
	default:
		return ksuid.KSUID{}, decodeError("BSON "+t.String(), "ksuid.KSUID", "want binary or string", ksuid.ErrUnsupportedType)
	}
}

type nullKSUIDCodec struct{ k ksuidCodec }

func (c nullKSUIDCodec) EncodeValue(_ bson.EncodeContext, vw bson.ValueWriter, val reflect.Value) error {
	if val.Type() != tNullKSUID {
		return bson.ValueEncoderError{Name: "NullKSUIDEncodeValue", Types: []reflect.Type{tNullKSUID}, Received: val}
	}
	n := valueOf[ksuid.NullKSUID](val)
	if !n.Valid {
		return vw.WriteNull()
	}
	return c.k.write(vw, &n.KSUID)
}

func (c nullKSUIDCodec) DecodeValue(_ bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tNullKSUID {
		return bson.ValueDecoderError{Name: "NullKSUIDDecodeValue", Types: []reflect.Type{tNullKSUID}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		set(val, ksuid.NullKSUID{})
		return vr.ReadNull()
	}
	id, err := readKSUID(vr)
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

func (objectIDCodec) DecodeValue(_ bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tObjectID {
		return bson.ValueDecoderError{Name: "ObjectIDDecodeValue", Types: []reflect.Type{tObjectID}, Received: val}
	}
	id, err := readObjectID(vr)
	if err != nil {
		return err
	}
	set(val, id)
	return nil
}

func readObjectID(vr bson.ValueReader) (objectid.ObjectID, error) {
	switch t := vr.Type(); t {
	case bson.TypeObjectID:
		oid, err := vr.ReadObjectID()
		return objectid.ObjectID(oid), err
	case bson.TypeNull:
		return objectid.ObjectID{}, decodeError("BSON null", "objectid.ObjectID", "use objectid.NullObjectID or *objectid.ObjectID", objectid.ErrNull)
	default:
		return objectid.ObjectID{}, decodeError("BSON "+t.String(), "objectid.ObjectID", "want ObjectId", objectid.ErrUnsupportedType)
	}
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

func (nullObjectIDCodec) DecodeValue(_ bson.DecodeContext, vr bson.ValueReader, val reflect.Value) error {
	if !val.CanSet() || val.Type() != tNullObjectID {
		return bson.ValueDecoderError{Name: "NullObjectIDDecodeValue", Types: []reflect.Type{tNullObjectID}, Received: val}
	}
	if vr.Type() == bson.TypeNull {
		set(val, objectid.NullObjectID{})
		return vr.ReadNull()
	}
	id, err := readObjectID(vr)
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

// decodeErr reports a BSON value that does not hold the Go type; it wraps
// the ksuid or objectid sentinel for errors.Is.
type decodeErr struct {
	msg   string
	cause error
}

func (e *decodeErr) Error() string { return e.msg }
func (e *decodeErr) Unwrap() error { return e.cause }

func decodeError(what, into, detail string, cause error) error {
	return &decodeErr{msg: "bsoncodec: cannot decode " + what + " into " + into + ": " + detail, cause: cause}
}
