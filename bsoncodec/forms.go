package bsoncodec

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// KSUIDForms counts a collection's documents by the BSON type of one
// field: a check, before a deploy or in a test, that the field holds one
// form.
type KSUIDForms struct {
	String  int64 // BSON string: the form every KSUID is stored in
	Binary  int64 // BSON binary: what earlier versions of this package wrote
	Null    int64
	Missing int64 // documents without the field
	Other   int64 // any other type, arrays included
	// Collation describes a collation other than simple on the collection
	// or on an index of the field ("" where there is none). Under it
	// strings compare by locale and case: KSUIDs' text loses its time
	// order, and at strength 1 or 2 two KSUIDs that differ only in case
	// are equal.
	Collation string
}

// Mixed reports whether the field holds KSUIDs in both forms, the state in
// which a filter with a typed value misses the binary ones.
func (c KSUIDForms) Mixed() bool { return c.Binary > 0 && c.String > 0 }

// ObjectIDForms counts a collection's documents by the BSON type of one
// field that holds ObjectIDs.
type ObjectIDForms struct {
	ObjectID int64 // BSON ObjectId: the form objectid.ObjectID stores
	String   int64 // BSON string: hex another service stored
	Null     int64
	Missing  int64
	Other    int64
}

// Mixed reports whether the field holds ObjectIDs in both forms.
func (c ObjectIDForms) Mixed() bool { return c.ObjectID > 0 && c.String > 0 }

// countTypes counts coll's documents by the BSON type of field ($type's
// names: "string", "binData", "missing", …), in one aggregation over the
// whole collection, and returns the total too.
func countTypes(ctx context.Context, coll *mongo.Collection, field string) (counts map[string]int64, total int64, err error) {
	cur, err := coll.Aggregate(ctx, mongo.Pipeline{{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: bson.D{{Key: "$type", Value: "$" + field}}},
		{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
	}}}})
	if err != nil {
		return nil, 0, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	var groups []struct {
		Type string `bson:"_id"`
		N    int64  `bson:"n"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return nil, 0, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	counts = map[string]int64{}
	for _, g := range groups {
		counts[g.Type] += g.N
		total += g.N
	}
	return counts, total, nil
}

// CountKSUIDForms counts coll's documents by the BSON type of field, in
// one aggregation over the whole collection, and reports a collation
// other than simple on the collection or an index of the field. It checks
// types, not contents: NormalizeKSUIDs reports values of the right type
// that are not KSUIDs.
func CountKSUIDForms(ctx context.Context, coll *mongo.Collection, field KSUIDField) (KSUIDForms, error) {
	counts, total, err := countTypes(ctx, coll, string(field))
	if err != nil {
		return KSUIDForms{}, err
	}
	c := KSUIDForms{String: counts["string"], Binary: counts["binData"], Null: counts["null"], Missing: counts["missing"]}
	c.Other = total - c.String - c.Binary - c.Null - c.Missing
	c.Collation, err = collationOf(ctx, coll, string(field))
	return c, err
}

// CountObjectIDForms counts coll's documents by the BSON type of field, in
// one aggregation over the whole collection.
func CountObjectIDForms(ctx context.Context, coll *mongo.Collection, field ObjectIDField) (ObjectIDForms, error) {
	counts, total, err := countTypes(ctx, coll, string(field))
	if err != nil {
		return ObjectIDForms{}, err
	}
	c := ObjectIDForms{ObjectID: counts["objectId"], String: counts["string"], Null: counts["null"], Missing: counts["missing"]}
	c.Other = total - c.ObjectID - c.String - c.Null - c.Missing
	return c, nil
}

// ErrCollation is wrapped by NormalizeKSUIDs's error for a collection, or
// an index of the field, whose collation is not simple: KSUIDs as strings
// would lose their order there.
var ErrCollation = errors.New("bsoncodec: collation is not simple")

// collationOf describes the first collation other than simple on coll or
// on an index whose key holds field; "" where there is none.
func collationOf(ctx context.Context, coll *mongo.Collection, field string) (string, error) {
	specs, err := coll.Database().ListCollectionSpecifications(ctx, bson.D{{Key: "name", Value: coll.Name()}})
	if err != nil {
		return "", fmt.Errorf("bsoncodec: reading the options of %s: %w", coll.Name(), err)
	}
	var options bson.Raw
	if len(specs) == 1 {
		options = specs[0].Options
	}
	cur, err := coll.Indexes().List(ctx)
	if err != nil {
		return "", fmt.Errorf("bsoncodec: listing the indexes of %s: %w", coll.Name(), err)
	}
	var indexes []bson.Raw
	if err := cur.All(ctx, &indexes); err != nil {
		return "", fmt.Errorf("bsoncodec: listing the indexes of %s: %w", coll.Name(), err)
	}
	return nonSimpleCollation(coll.Name(), options, indexes, field), nil
}

// nonSimpleCollation describes the first collation other than simple in a
// collection's options (as listCollections gives them) or in one of its
// indexes (as listIndexes gives them) whose key holds field.
func nonSimpleCollation(name string, options bson.Raw, indexes []bson.Raw, field string) string {
	describe := func(c bson.RawValue) (string, bool) {
		doc, ok := c.DocumentOK()
		if !ok {
			return "", false
		}
		if locale, _ := doc.Lookup("locale").StringValueOK(); locale == "" || locale == "simple" {
			return "", false
		}
		return doc.String(), true
	}
	if options != nil {
		if d, ok := describe(options.Lookup("collation")); ok {
			return "collection " + name + ": " + d
		}
	}
	for _, ix := range indexes {
		key, ok := ix.Lookup("key").DocumentOK()
		if !ok || key.Lookup(field).Type == 0 {
			continue
		}
		if d, ok := describe(ix.Lookup("collation")); ok {
			indexName, _ := ix.Lookup("name").StringValueOK()
			return "index " + indexName + " of " + name + ": " + d
		}
	}
	return ""
}
