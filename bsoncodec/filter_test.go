package bsoncodec_test

import (
	"encoding/json"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

const (
	extA = `{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}}`
	strA = `"0qjBBlJIfbVLKwnJn4xpLGDr00e"`
	extB = `{"$binary":{"base64":"BfXhAT30+50ykfFX0AJVw1WwOlI=","subType":"00"}}`
	strB = `"0qjBBuxNHdVhjq1T0ALXMT2LPP8"`
	// The edges of the KSUIDs, 20 zero and 20 0xFF bytes, and the text
	// pattern that keeps the string clauses to KSUIDs.
	extMin = `{"$binary":{"base64":"AAAAAAAAAAAAAAAAAAAAAAAAAAA=","subType":"00"}}`
	strMin = `"000000000000000000000000000"`
	extMax = `{"$binary":{"base64":"//////////////////////////8=","subType":"00"}}`
	strMax = `"aWgEPTl1tmebfsQzFP4bxwgy80V"`
	regex  = `"$regex":"^[0-9A-Za-z]{27}$"`
)

func TestKSUIDFieldFilters(t *testing.T) {
	a := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	b := ksuid.MustParse("0qjBBuxNHdVhjq1T0ALXMT2LPP8")
	f := bsoncodec.KSUIDField("o")
	for _, tc := range []struct {
		name   string
		filter bson.D
		want   string
	}{
		{"Eq", f.Eq(a), `{"o":{"$in":[` + extA + `,` + strA + `]}}`},
		{"Ne", f.Ne(a), `{"o":{"$nin":[` + extA + `,` + strA + `]}}`},
		{"In", f.In(a, b), `{"o":{"$in":[` + extA + `,` + strA + `,` + extB + `,` + strB + `]}}`},
		{"In of none", f.In(), `{"o":{"$in":[]}}`},
		{"Nin", f.Nin(a, b), `{"o":{"$nin":[` + extA + `,` + strA + `,` + extB + `,` + strB + `]}}`},
		{"Gt", f.Gt(a), `{"$or":[{"o":{"$gt":` + extA + `,"$lte":` + extMax + `}},{"o":{"$gt":` + strA + `,"$lte":` + strMax + `,` + regex + `}}]}`},
		{"Gte", f.Gte(a), `{"$or":[{"o":{"$gte":` + extA + `,"$lte":` + extMax + `}},{"o":{"$gte":` + strA + `,"$lte":` + strMax + `,` + regex + `}}]}`},
		{"Lt", f.Lt(a), `{"$or":[{"o":{"$lt":` + extA + `,"$gte":` + extMin + `}},{"o":{"$lt":` + strA + `,"$gte":` + strMin + `,` + regex + `}}]}`},
		{"Lte", f.Lte(a), `{"$or":[{"o":{"$lte":` + extA + `,"$gte":` + extMin + `}},{"o":{"$lte":` + strA + `,"$gte":` + strMin + `,` + regex + `}}]}`},
		{"Between", f.Between(a, b), `{"$or":[{"o":{"$gte":` + extA + `,"$lte":` + extB + `}},{"o":{"$gte":` + strA + `,"$lte":` + strB + `,` + regex + `}}]}`},
	} {
		js, err := bson.MarshalExtJSON(tc.filter, false, false)
		if err != nil || string(js) != tc.want {
			t.Errorf("%s = %s, %v\nwant %s", tc.name, js, err, tc.want)
		}
	}
}

func TestUpsertKSUIDMergesSetOnInsert(t *testing.T) {
	a := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, tc := range []struct {
		name   string
		update bson.D
		want   string
	}{
		{"none", bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}},
			`{"$inc":{"n":1},"$setOnInsert":{"_id":` + extA + `}}`},
		{"bson.D", bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "created", Value: 1}}}},
			`{"$setOnInsert":{"created":1,"_id":` + extA + `}}`},
		{"bson.M", bson.D{{Key: "$setOnInsert", Value: bson.M{"created": 1}}}, ""},
		{"struct", bson.D{{Key: "$setOnInsert", Value: struct {
			Created int `bson:"created"`
		}{1}}}, `{"$setOnInsert":{"created":1,"_id":` + extA + `}}`},
	} {
		orig, _ := bson.MarshalExtJSON(tc.update, false, false)
		_, update := bsoncodec.UpsertKSUID("_id", a, tc.update)
		js, err := bson.MarshalExtJSON(update, false, false)
		if tc.want == "" {
			var m struct {
				S bson.M `bson:"$setOnInsert"`
			}
			if err := bson.Unmarshal(must(bson.Marshal(update)), &m); err != nil || len(m.S) != 2 || m.S["created"] != int32(1) {
				t.Errorf("%s: %s, %v", tc.name, js, err)
			}
		} else if err != nil || string(js) != tc.want {
			t.Errorf("%s: %s, %v\nwant %s", tc.name, js, err, tc.want)
		}
		if after, _ := bson.MarshalExtJSON(tc.update, false, false); string(after) != string(orig) {
			t.Errorf("%s: the caller's update changed to %s", tc.name, after)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestInsertedIDs(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, v := range []any{bson.Binary{Data: id.Bytes()}, id.String(), id, ksuid.StringKSUID(id)} {
		if got, err := bsoncodec.InsertedKSUID(v); err != nil || got != id {
			t.Errorf("InsertedKSUID(%#v) = %v, %v", v, got, err)
		}
	}
	for _, tc := range []struct {
		v    any
		want error
	}{
		{bson.Binary{Subtype: 4, Data: id.Bytes()}, ksuid.ErrUnsupportedType},
		{bson.Binary{Data: id.Bytes()[:12]}, ksuid.ErrInvalidLength},
		{"0qjBBlJIfbVLK", ksuid.ErrInvalidLength},
		{bson.NewObjectID(), ksuid.ErrUnsupportedType},
		{nil, ksuid.ErrUnsupportedType},
		{make(chan int), ksuid.ErrUnsupportedType},
	} {
		if got, err := bsoncodec.InsertedKSUID(tc.v); !errors.Is(err, tc.want) || !got.IsZero() {
			t.Errorf("InsertedKSUID(%#v) = %v, %v; want %v", tc.v, got, err, tc.want)
		}
	}
	oid := objectid.MustParse("60c468e6101bf215dc9fa835")
	for _, v := range []any{bson.ObjectID(oid), oid} {
		if got, err := bsoncodec.InsertedObjectID(v); err != nil || got != oid {
			t.Errorf("InsertedObjectID(%#v) = %v, %v", v, got, err)
		}
	}
	if _, err := bsoncodec.InsertedObjectID(bson.Binary{Data: id.Bytes()}); !errors.Is(err, objectid.ErrUnsupportedType) {
		t.Errorf("InsertedObjectID(binary) = %v; want ErrUnsupportedType", err)
	}
}

// TestGenericDecodeOfBinary backs the README's warning: a document decoded
// into bson.M holds a binary KSUID as bson.Binary, which encoding/json
// writes as an object, and a StringKSUID as its string.
func TestGenericDecodeOfBinary(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	raw := must(bson.Marshal(struct {
		Binary ksuid.KSUID       `bson:"b"`
		String ksuid.StringKSUID `bson:"s"`
	}{id, ksuid.StringKSUID(id)}))
	var m bson.M
	if err := bson.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(m)
	if want := `{"b":{"Subtype":0,"Data":"BfXhAAECAwQFBgcICQoLDA0ODxA="},"s":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`; err != nil || string(js) != want {
		t.Errorf("json.Marshal(bson.M) = %s, %v; want %s", js, err, want)
	}
}
