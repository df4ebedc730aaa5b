package bsoncodec

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// nonSimpleCollation reads the documents MongoDB's listCollections and
// listIndexes return (FerretDB 2.7 accepts a collection's collation but
// does not list it, so the integration tests cannot show this on their
// server).
func TestNonSimpleCollation(t *testing.T) {
	raw := func(d bson.D) bson.Raw { return bson.Raw(must(bson.Marshal(d))) }
	en2 := bson.D{{Key: "locale", Value: "en"}, {Key: "strength", Value: 2}}
	simple := bson.D{{Key: "locale", Value: "simple"}}
	index := func(name, field string, collation bson.D) bson.Raw {
		d := bson.D{{Key: "v", Value: 2}, {Key: "key", Value: bson.D{{Key: field, Value: 1}}}, {Key: "name", Value: name}}
		if collation != nil {
			d = append(d, bson.E{Key: "collation", Value: collation})
		}
		return raw(d)
	}
	for _, tc := range []struct {
		name    string
		options bson.Raw
		indexes []bson.Raw
		want    string // a part of the description; "" for none
	}{
		{"none", raw(bson.D{}), []bson.Raw{index("_id_", "_id", nil)}, ""},
		{"simple collection", raw(bson.D{{Key: "collation", Value: simple}}), nil, ""},
		{"collection en strength 2", raw(bson.D{{Key: "collation", Value: en2}}), nil, `collection events: {"locale": "en","strength": {"$numberInt":"2"}}`},
		{"index of the field", raw(bson.D{}), []bson.Raw{index("_id_", "_id", nil), index("order_ci", "order_id", en2)}, "index order_ci of events"},
		{"index of another field", raw(bson.D{}), []bson.Raw{index("name_ci", "name", en2)}, ""},
		{"simple index", raw(bson.D{}), []bson.Raw{index("order", "order_id", simple)}, ""},
	} {
		got := nonSimpleCollation("events", tc.options, tc.indexes, "order_id")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
