package idkind

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

var (
	k = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	o = objectid.MustParse("60c468e6101bf215dc9fa835")
	u = uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
)

// UUID stands for Go 1.27's uuid.UUID and google/uuid's: a
// [16]byte named UUID of another package is recognised by its path,
// which a test type cannot have; IsOtherUUID is checked on its own.
type UUID [16]byte

// TestValueOf: every form of every ID type gives its kind and bytes (nil
// for NULL), and other values none.
func TestValueOf(t *testing.T) {
	for _, tc := range []struct {
		v    any
		kind *Kind
		want []byte
	}{
		{k, KSUID, k[:]}, {&k, KSUID, k[:]}, {(*ksuid.KSUID)(nil), KSUID, nil},
		{ksuid.NullKSUID{KSUID: k, Valid: true}, KSUID, k[:]}, {ksuid.NullKSUID{KSUID: k}, KSUID, nil},
		{o, ObjectID, o[:]}, {&o, ObjectID, o[:]}, {objectid.NullObjectID{ObjectID: o, Valid: true}, ObjectID, o[:]},
		{u, UUIDv7, u[:]}, {&u, UUIDv7, u[:]}, {uuidv7.NullUUID{}, UUIDv7, nil},
	} {
		got, ok := ValueOf(tc.v)
		if !ok || got.Kind != tc.kind || !bytes.Equal(got.Bytes, tc.want) || (tc.want == nil) != (got.Bytes == nil) {
			t.Errorf("ValueOf(%#v) = %v %x, %v; want %s %x", tc.v, got.Kind, got.Bytes, ok, tc.kind.Name, tc.want)
		}
		var buf [MaxSize]byte
		kind, n, null, ok := Load(buf[:], tc.v)
		if !ok || kind != tc.kind || null != (tc.want == nil) || !null && !bytes.Equal(buf[:n], tc.want) {
			t.Errorf("Load(%#v) = %v %x %v %v", tc.v, kind, buf[:n], null, ok)
		}
	}
	for _, v := range []any{nil, "0qjBBlJIfbVLKwnJn4xpLGDr00e", k[:], 1, UUID(u), [16]byte(u), ksuid.StringKSUID(k)} {
		if got, ok := ValueOf(v); ok {
			t.Errorf("ValueOf(%#v) = %v; want no ID", v, got)
		}
	}
}

// TestOf: the Go types, their Null types and pointers map to their kinds.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		t    reflect.Type
		kind *Kind
		null bool
	}{
		{reflect.TypeFor[ksuid.KSUID](), KSUID, false}, {reflect.TypeFor[*ksuid.NullKSUID](), KSUID, true},
		{reflect.TypeFor[**objectid.ObjectID](), ObjectID, false}, {reflect.TypeFor[uuidv7.NullUUID](), UUIDv7, true},
		{reflect.TypeFor[string](), nil, false}, {reflect.TypeFor[UUID](), nil, false},
	} {
		if k, null := Of(tc.t); k != tc.kind || null != tc.null {
			t.Errorf("Of(%v) = %v, %v; want %v, %v", tc.t, k, null, tc.kind, tc.null)
		}
	}
}

// TestText: each kind's text round-trips, and a bad text is its
// package's error; UUIDv7's parser also takes UUIDs of other versions,
// which the other UUID types hold.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		kind *Kind
		text string
		bad  string
		err  error
	}{
		{KSUID, k.String(), "0qjBBlJIfbVLKwnJn4xpLGDr00", ksuid.ErrInvalidLength},
		{ObjectID, o.String(), "60c468e6101bf215dc9fa83g", objectid.ErrInvalidCharacter},
		{UUIDv7, u.String(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398", uuidv7.ErrInvalidLength},
		{UUIDv7, "017f22e2-79b0-4cc3-98c4-dc0c0c07398f", "017f22e2x79b0-4cc3-98c4-dc0c0c07398f", uuidv7.ErrInvalidCharacter},
	} {
		b, err := tc.kind.ParseText(tc.text)
		if err != nil || len(b) != tc.kind.Size || tc.kind.FormatText(b) != tc.text {
			t.Errorf("%s: %q parsed to %x (%v), formatted %q", tc.kind.Name, tc.text, b, err, tc.kind.FormatText(b))
		}
		if _, err := tc.kind.ParseText(tc.bad); !errors.Is(err, tc.err) {
			t.Errorf("%s: ParseText(%q) = %v; want %v", tc.kind.Name, tc.bad, err, tc.err)
		}
	}
}
