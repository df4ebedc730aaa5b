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
	// The string clause, the stored form, first; binary, the history,
	// second.
	for _, tc := range []struct {
		name   string
		filter bsoncodec.Filter
		want   string
	}{
		{"Eq", f.Eq(a), `{"o":{"$in":[` + strA + `,` + extA + `]}}`},
		{"Ne", f.Ne(a), `{"o":{"$nin":[` + strA + `,` + extA + `]}}`},
		{"In", f.In(a, b), `{"o":{"$in":[` + strA + `,` + extA + `,` + strB + `,` + extB + `]}}`},
		{"In of none", f.In(), `{"o":{"$in":[]}}`},
		{"Nin", f.Nin(a, b), `{"o":{"$nin":[` + strA + `,` + extA + `,` + strB + `,` + extB + `]}}`},
		{"Gt", f.Gt(a), `{"$or":[{"o":{"$gt":` + strA + `,"$lte":` + strMax + `,` + regex + `}},{"o":{"$gt":` + extA + `,"$lte":` + extMax + `}}]}`},
		{"Gte", f.Gte(a), `{"$or":[{"o":{"$gte":` + strA + `,"$lte":` + strMax + `,` + regex + `}},{"o":{"$gte":` + extA + `,"$lte":` + extMax + `}}]}`},
		{"Lt", f.Lt(a), `{"$or":[{"o":{"$gte":` + strMin + `,"$lt":` + strA + `,` + regex + `}},{"o":{"$gte":` + extMin + `,"$lt":` + extA + `}}]}`},
		{"Lte", f.Lte(a), `{"$or":[{"o":{"$gte":` + strMin + `,"$lte":` + strA + `,` + regex + `}},{"o":{"$gte":` + extMin + `,"$lte":` + extA + `}}]}`},
		{"Between", f.Between(a, b), `{"$or":[{"o":{"$gte":` + strA + `,"$lte":` + strB + `,` + regex + `}},{"o":{"$gte":` + extA + `,"$lte":` + extB + `}}]}`},
	} {
		js, err := bson.MarshalExtJSON(tc.filter, false, false)
		if err != nil || string(js) != tc.want {
			t.Errorf("%s = %s, %v\nwant %s", tc.name, js, err, tc.want)
		}
	}
}

func TestObjectIDFieldFilters(t *testing.T) {
	a := objectid.MustParse("60c468e6101bf215dc9fa835")
	b := objectid.MustParse("60c468e7101bf215dc9fa836")
	f := bsoncodec.ObjectIDField("o")
	const (
		oidA, hexA, upA = `{"$oid":"60c468e6101bf215dc9fa835"}`, `"60c468e6101bf215dc9fa835"`, `"60C468E6101BF215DC9FA835"`
		oidB, hexB, upB = `{"$oid":"60c468e7101bf215dc9fa836"}`, `"60c468e7101bf215dc9fa836"`, `"60C468E7101BF215DC9FA836"`
		oidMax          = `{"$oid":"ffffffffffffffffffffffff"}`
		hexMax, upMax   = `"ffffffffffffffffffffffff"`, `"FFFFFFFFFFFFFFFFFFFFFFFF"`
		oidMin          = `{"$oid":"000000000000000000000000"}`
		hexMin          = `"000000000000000000000000"`
		lower, upper    = `"$regex":"^[0-9a-f]{24}$"`, `"$regex":"^[0-9A-F]{24}$"`
	)
	for _, tc := range []struct {
		name   string
		filter bsoncodec.Filter
		want   string
	}{
		{"Eq", f.Eq(a), `{"o":{"$in":[` + oidA + `,` + hexA + `,` + upA + `]}}`},
		{"Nin", f.Nin(a, b), `{"o":{"$nin":[` + oidA + `,` + hexA + `,` + upA + `,` + oidB + `,` + hexB + `,` + upB + `]}}`},
		{"Gt", f.Gt(a), `{"$or":[{"o":{"$gt":` + oidA + `,"$lte":` + oidMax + `}},{"o":{"$gt":` + hexA + `,"$lte":` + hexMax + `,` + lower + `}},` +
			`{"o":{"$gt":` + upA + `,"$lte":` + upMax + `,` + upper + `}}]}`},
		{"Lt", f.Lt(a), `{"$or":[{"o":{"$gte":` + oidMin + `,"$lt":` + oidA + `}},{"o":{"$gte":` + hexMin + `,"$lt":` + hexA + `,` + lower + `}},` +
			`{"o":{"$gte":` + hexMin + `,"$lt":` + upA + `,` + upper + `}}]}`},
		{"Between", f.Between(a, b), `{"$or":[{"o":{"$gte":` + oidA + `,"$lte":` + oidB + `}},{"o":{"$gte":` + hexA + `,"$lte":` + hexB + `,` + lower + `}},` +
			`{"o":{"$gte":` + upA + `,"$lte":` + upB + `,` + upper + `}}]}`},
	} {
		js, err := bson.MarshalExtJSON(tc.filter, false, false)
		if err != nil || string(js) != tc.want {
			t.Errorf("%s = %s, %v\nwant %s", tc.name, js, err, tc.want)
		}
	}
}

// A filter used as a field's value, the shape of an old helper's call,
// matched nothing; now it is an error, in a map, a document or an array.
// As a whole filter, through And or D, it is a document.
func TestFilterAsValueIsAnError(t *testing.T) {
	a := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	f := bsoncodec.KSUIDField("order_id")
	for name, doc := range map[string]any{
		"bson.M":   bson.M{"order_id": f.Eq(a)},
		"bson.D":   bson.D{{Key: "order_id", Value: f.Eq(a)}},
		"$and":     bson.D{{Key: "$and", Value: bson.A{f.Eq(a)}}},
		"ObjectID": bson.M{"o": bsoncodec.ObjectIDField("o").Eq(objectid.New())},
		// And returns a Filter too: inside $match it is the same error
		// (docs/mongodb.md says to write And(...).D() there).
		"$match And": bson.D{{Key: "$match", Value: bsoncodec.And(f.Eq(a))}},
		"$and And":   bson.D{{Key: "$and", Value: bson.A{bsoncodec.And(f.Eq(a))}}},
	} {
		if _, err := bson.Marshal(doc); !errors.Is(err, bsoncodec.ErrFilterAsValue) {
			t.Errorf("%s: %v, want ErrFilterAsValue", name, err)
		}
	}
	for name, doc := range map[string]any{
		"whole":  f.Eq(a),
		"And":    bsoncodec.And(f.Eq(a), bsoncodec.Filter{{Key: "n", Value: 1}}),
		"D":      bson.D{{Key: "$match", Value: f.Eq(a).D()}},
		"$and D": bson.D{{Key: "$and", Value: bson.A{f.Eq(a).D()}}},
		"And D":  bson.D{{Key: "$match", Value: bsoncodec.And(f.Eq(a)).D()}},
	} {
		if _, err := bson.Marshal(doc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	js, _ := bson.MarshalExtJSON(bsoncodec.And(f.Eq(a), bsoncodec.Filter{{Key: "n", Value: 1}}), false, false)
	if want := `{"$and":[{"order_id":{"$in":[` + strA + `,` + extA + `]}},{"n":1}]}`; string(js) != want {
		t.Errorf("And = %s, want %s", js, want)
	}
	js, _ = bson.MarshalExtJSON(bson.D{{Key: "$match", Value: bsoncodec.And(f.Eq(a), bsoncodec.Filter{{Key: "n", Value: 1}}).D()}}, false, false)
	if want := `{"$match":{"$and":[{"order_id":{"$in":[` + strA + `,` + extA + `]}},{"n":1}]}}`; string(js) != want {
		t.Errorf("$match And(...).D() = %s, want %s", js, want)
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
			`{"$inc":{"n":1},"$setOnInsert":{"_id":` + strA + `}}`},
		{"bson.D", bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "created", Value: 1}}}},
			`{"$setOnInsert":{"created":1,"_id":` + strA + `}}`},
		{"bson.M", bson.D{{Key: "$setOnInsert", Value: bson.M{"created": 1}}}, ""},
		{"struct", bson.D{{Key: "$setOnInsert", Value: struct {
			Created int `bson:"created"`
		}{1}}}, `{"$setOnInsert":{"created":1,"_id":` + strA + `}}`},
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

// TestGenericDecodeOfKSUIDs: a document decoded into bson.M holds a
// KSUID as its text, which encoding/json writes as the ID; a binary KSUID
// that older code wrote stays bson.Binary, an object in JSON.
func TestGenericDecodeOfKSUIDs(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	raw := must(bson.Marshal(bson.D{
		{Key: "k", Value: id},
		{Key: "s", Value: ksuid.StringKSUID(id)},
		{Key: "old", Value: bson.Binary{Subtype: 0, Data: id.Bytes()}},
	}))
	var m bson.M
	if err := bson.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(m)
	if want := `{"k":"0qjBBlJIfbVLKwnJn4xpLGDr00e","old":{"Subtype":0,"Data":"BfXhAAECAwQFBgcICQoLDA0ODxA="},"s":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`; err != nil || string(js) != want {
		t.Errorf("json.Marshal(bson.M) = %s, %v; want %s", js, err, want)
	}
}
