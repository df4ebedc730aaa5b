package bsoncodec

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestKindOf: Check takes a value for an ID only in a form sortid or
// another tool stores it, with a plausible time; names, hashes, UUIDs and
// uppercase hex are not IDs.
func TestKindOf(t *testing.T) {
	now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	k := ksuid.MustParse("2HxUxTmv4vd6vhTtOMydU7SgNKp") // 2022
	o := objectid.MustParse("65f1a2b3c4d5e6f708192a3b") // 2024
	value := func(v any) bson.RawValue {
		t.Helper()
		typ, data, err := bson.MarshalValue(v)
		if err != nil {
			t.Fatal(err)
		}
		return bson.RawValue{Type: typ, Value: data}
	}
	late, _ := ksuid.NewAt(now.AddDate(2, 0, 0))
	for _, c := range []struct {
		name string
		v    bson.RawValue
		want idKind
	}{
		{"KSUID string", value(k.String()), kindKSUID},
		{"KSUID binary", value(bson.Binary{Subtype: 0, Data: k.Bytes()}), kindKSUID},
		{"ObjectId", value(bson.ObjectID(o)), kindObjectID},
		{"ObjectID hex", value(o.String()), kindObjectID},
		{"ObjectID uppercase hex", value("65F1A2B3C4D5E6F708192A3B"), kindNone},
		{"the largest KSUID, in 2150", value("aWgEPTl1tmebfsQzFP4bxwgy80V"), kindNone},
		{"a KSUID two years ahead", value(late.String()), kindNone},
		{"27 characters of a name", value("Ada Lovelace and friends!!!"), kindNone},
		{"20 bytes of a hash, in 2150", value(bson.Binary{Data: []byte("\xff\xfe\x01\x02abcdefghijklmnop")}), kindNone},
		{"KSUID bytes as UUID subtype", value(bson.Binary{Subtype: 4, Data: k.Bytes()}), kindNone},
		{"a number", value(int64(42)), kindNone},
	} {
		if got := kindOf(c.v, now); got != c.want {
			t.Errorf("%s: %d; want %d", c.name, got, c.want)
		}
	}
}
