// Package idkind describes sortid's three ID types once, for the
// integrations (gormplugin, sqltype, bsoncodec): the Go types, sizes,
// text lengths, the PostgreSQL type that holds each, how to parse the
// text form and how to get the bytes out of any value of the types. A
// helper that must tell the types apart asks for the Kind of a value or
// a Go type and reads it, instead of deciding by "is it a KSUID"; a new
// ID type is one more entry in All.
//
// Unlike internal/idtype, which the ID packages import, this package
// imports the ID packages, so they must never import it.
package idkind

import (
	"reflect"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// A Kind is one ID type.
type Kind struct {
	Name    string       // "ksuid", "objectid", "uuidv7"
	Type    reflect.Type // ksuid.KSUID
	Null    reflect.Type // ksuid.NullKSUID
	Size    int          // bytes of the binary form
	TextLen int          // characters of the text form

	// PGType is the PostgreSQL type that holds the ID: the domain (or
	// the extension's type) of that name, or uuid.
	PGType string

	// BSONSubtype is the binary subtype of the ID's BSON binary form.
	BSONSubtype byte

	// ParseText returns the bytes of the ID whose text form is s, or the
	// ID package's parse error.
	ParseText func(s string) ([]byte, error)

	// FormatText returns the text form of the ID with bytes b (Size of
	// them).
	FormatText func(b []byte) string
}

var (
	// KSUID is ksuid.KSUID.
	KSUID = &Kind{
		Name: "ksuid", Type: reflect.TypeFor[ksuid.KSUID](), Null: reflect.TypeFor[ksuid.NullKSUID](),
		Size: ksuid.Size, TextLen: ksuid.EncodedLen, PGType: "ksuid", BSONSubtype: 0,
		ParseText:  func(s string) ([]byte, error) { id, err := ksuid.Parse(s); return id[:], err },
		FormatText: func(b []byte) string { return ksuid.KSUID(b).String() },
	}
	// ObjectID is objectid.ObjectID.
	ObjectID = &Kind{
		Name: "objectid", Type: reflect.TypeFor[objectid.ObjectID](), Null: reflect.TypeFor[objectid.NullObjectID](),
		Size: objectid.Size, TextLen: objectid.EncodedLen, PGType: "objectid",
		ParseText:  func(s string) ([]byte, error) { id, err := objectid.Parse(s); return id[:], err },
		FormatText: func(b []byte) string { return objectid.ObjectID(b).String() },
	}
	// UUIDv7 is uuidv7.UUID; Go 1.27's uuid.UUID and google/uuid's UUID
	// are of this kind too (see Of).
	UUIDv7 = &Kind{
		Name: "uuidv7", Type: reflect.TypeFor[uuidv7.UUID](), Null: reflect.TypeFor[uuidv7.NullUUID](),
		Size: uuidv7.Size, TextLen: uuidv7.EncodedLen, PGType: "uuid", BSONSubtype: 4,
		ParseText:  parseAnyUUID,
		FormatText: func(b []byte) string { return uuidv7.UUID(b).String() },
	}

	// All lists the kinds.
	All = []*Kind{KSUID, ObjectID, UUIDv7}
)

// otherUUIDPackages are the import paths of the UUID types of other
// packages that are of kind UUIDv7: each a [16]byte named UUID. They are
// recognised by name, so that sortid builds on Go 1.26 and imports
// neither.
var otherUUIDPackages = map[string]bool{"uuid": true, "github.com/google/uuid": true}

// IsOtherUUID reports whether t is Go 1.27's uuid.UUID or google/uuid's
// UUID.
func IsOtherUUID(t reflect.Type) bool {
	return t.Kind() == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8 &&
		t.Name() == "UUID" && otherUUIDPackages[t.PkgPath()]
}

// Of returns the kind of t, an ID type or its Null type (pointers
// removed), and whether t is the Null type; nil for any other type.
func Of(t reflect.Type) (k *Kind, null bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, k := range All {
		switch t {
		case k.Type:
			return k, false
		case k.Null:
			return k, true
		}
	}
	if IsOtherUUID(t) {
		return UUIDv7, false
	}
	return nil, false
}

// Value is what ValueOf finds in a Go value.
type Value struct {
	Kind  *Kind
	Bytes []byte // the ID's bytes, a copy; nil for NULL
}

// ValueOf returns the kind and bytes of v when v is an ID: a value of an
// ID type, a pointer to one (nil is NULL), a Null type, or Go 1.27's or
// google/uuid's UUID (or a pointer to one). ok is false for anything
// else.
func ValueOf(v any) (val Value, ok bool) {
	var buf [MaxSize]byte
	if k, n, null, ok := Load(buf[:], v); ok {
		if null {
			return Value{k, nil}, true
		}
		return Value{k, append([]byte(nil), buf[:n]...)}, true
	}
	switch v.(type) {
	case nil, string, []byte, int, int64, bool:
		return Value{}, false // the common values, before reflection
	}
	rv := reflect.ValueOf(v)
	switch {
	case IsOtherUUID(rv.Type()):
		return Value{UUIDv7, arrayBytes(rv)}, true
	case rv.Kind() == reflect.Pointer && IsOtherUUID(rv.Type().Elem()):
		if rv.IsNil() {
			return Value{UUIDv7, nil}, true
		}
		return Value{UUIDv7, arrayBytes(rv.Elem())}, true
	}
	return Value{}, false
}

// MaxSize is the largest Size of the kinds.
const MaxSize = ksuid.Size

// Load copies the bytes of v, a value of one of sortid's ID types, a
// pointer to one or a Null type, into dst (MaxSize bytes at least), and
// returns its kind, how many bytes it copied, and whether v is NULL (a
// nil pointer, a Null type that is not valid). ok is false for any other
// value. It allocates nothing, for the drivers' encode paths.
func Load(dst []byte, v any) (k *Kind, n int, null, ok bool) {
	switch id := v.(type) {
	case ksuid.KSUID:
		return KSUID, copy(dst, id[:]), false, true
	case *ksuid.KSUID:
		if id == nil {
			return KSUID, 0, true, true
		}
		return KSUID, copy(dst, id[:]), false, true
	case ksuid.NullKSUID:
		return KSUID, copy(dst, id.KSUID[:]), !id.Valid, true
	case objectid.ObjectID:
		return ObjectID, copy(dst, id[:]), false, true
	case *objectid.ObjectID:
		if id == nil {
			return ObjectID, 0, true, true
		}
		return ObjectID, copy(dst, id[:]), false, true
	case objectid.NullObjectID:
		return ObjectID, copy(dst, id.ObjectID[:]), !id.Valid, true
	case uuidv7.UUID:
		return UUIDv7, copy(dst, id[:]), false, true
	case *uuidv7.UUID:
		if id == nil {
			return UUIDv7, 0, true, true
		}
		return UUIDv7, copy(dst, id[:]), false, true
	case uuidv7.NullUUID:
		return UUIDv7, copy(dst, id.UUID[:]), !id.Valid, true
	}
	return nil, 0, false, false
}

func arrayBytes(rv reflect.Value) []byte {
	b := make([]byte, rv.Len())
	reflect.Copy(reflect.ValueOf(b), rv)
	return b
}

// parseAnyUUID parses the text form of a UUID of any version (the other
// UUID types hold any version), 8-4-4-4-12 hex digits; a version 7 one
// goes through uuidv7.Parse, whose errors the others share.
func parseAnyUUID(s string) ([]byte, error) {
	id, err := uuidv7.Parse(s)
	if err == nil {
		return id[:], nil
	}
	if len(s) == uuidv7.EncodedLen {
		if b, ok := hexUUID(s); ok {
			return b, nil // a well-formed UUID of another version
		}
	}
	return nil, err
}

func hexUUID(s string) ([]byte, bool) {
	b := make([]byte, 16)
	j := 0
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return nil, false
			}
			continue
		}
		hi, ok := unhex(s[i])
		if !ok || i+1 >= len(s) {
			return nil, false
		}
		lo, ok := unhex(s[i+1])
		if !ok {
			return nil, false
		}
		b[j] = hi<<4 | lo
		j++
		i++
	}
	return b, j == 16
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
