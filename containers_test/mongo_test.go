package containers

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// insertIDs inserts one document {_id: v} per value.
func insertIDs[T any](t *testing.T, ctx context.Context, coll *mongo.Collection, values []T) {
	t.Helper()
	docs := make([]any, len(values))
	for i, v := range values {
		docs[i] = bson.D{{Key: "_id", Value: v}}
	}
	res, err := coll.InsertMany(ctx, docs)
	if err != nil || len(res.InsertedIDs) != len(values) {
		t.Fatalf("InsertMany: %v", err)
	}
}

// findIDs returns the _id of every document matching filter, sorted by
// _id ascending, decoded by decode.
func findIDs[T any](t *testing.T, ctx context.Context, coll *mongo.Collection, filter any, decode func(bson.RawValue) (T, error)) []T {
	t.Helper()
	cur, err := coll.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close(ctx)
	var out []T
	for cur.Next(ctx) {
		v, err := decode(cur.Current.Lookup("_id"))
		if err != nil {
			t.Fatalf("decoding %v: %v", cur.Current, err)
		}
		out = append(out, v)
	}
	if err := cur.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func decodeObjectID(v bson.RawValue) (objectid.ObjectID, error) {
	oid, ok := v.ObjectIDOK()
	if !ok {
		return objectid.ObjectID{}, errBSONType(v)
	}
	return objectid.ObjectID(oid), nil
}

func decodeKSUIDBinary(v bson.RawValue) (ksuid.KSUID, error) {
	subtype, data, ok := v.BinaryOK()
	if !ok || subtype != 0 {
		return ksuid.KSUID{}, errBSONType(v)
	}
	return ksuid.FromBytes(data)
}

func decodeKSUIDString(v bson.RawValue) (ksuid.KSUID, error) {
	s, ok := v.StringValueOK()
	if !ok {
		return ksuid.KSUID{}, errBSONType(v)
	}
	return ksuid.Parse(s)
}

type bsonTypeError struct{ v bson.RawValue }

func (e bsonTypeError) Error() string { return "unexpected BSON " + e.v.Type.String() }

func errBSONType(v bson.RawValue) error { return bsonTypeError{v} }

func rangeFilter(lo, hi any) bson.D {
	return bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lte", Value: hi}}}}
}

func TestMongoObjectIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := objectIDsOverTime(t)
	values := make([]bson.ObjectID, len(ids))
	var inside []objectid.ObjectID
	for i, id := range ids {
		values[i] = bson.ObjectID(id)
		if inWindow(id.Time()) {
			inside = append(inside, id)
		}
	}
	coll := mongoCollection(t, ctx)
	insertIDs(t, ctx, coll, values)
	assertObjectIDOrder(t, findIDs(t, ctx, coll, bson.D{}, decodeObjectID), ids)

	lo, _ := objectid.MinAt(windowFrom)
	hi, _ := objectid.MaxAt(windowTo)
	window := findIDs(t, ctx, coll, rangeFilter(bson.ObjectID(lo), bson.ObjectID(hi)), decodeObjectID)
	assertObjectIDOrder(t, window, inside)
}

func TestMongoKSUIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := ksuidsOverTime(t)
	var inside []ksuid.KSUID
	for _, id := range ids {
		if inWindow(id.Time()) {
			inside = append(inside, id)
		}
	}
	lo, _ := ksuid.MinAt(windowFrom)
	hi, _ := ksuid.MaxAt(windowTo)
	binary := func(id ksuid.KSUID) bson.Binary { return bson.Binary{Subtype: 0, Data: id.Bytes()} }

	t.Run("binary", func(t *testing.T) {
		coll := mongoCollection(t, ctx)
		values := make([]bson.Binary, len(ids))
		for i, id := range ids {
			values[i] = binary(id)
		}
		insertIDs(t, ctx, coll, values)
		assertKSUIDOrder(t, findIDs(t, ctx, coll, bson.D{}, decodeKSUIDBinary), ids)
		assertKSUIDOrder(t, findIDs(t, ctx, coll, rangeFilter(binary(lo), binary(hi)), decodeKSUIDBinary), inside)
	})
	t.Run("string", func(t *testing.T) {
		coll := mongoCollection(t, ctx)
		insertIDs(t, ctx, coll, texts(ids))
		assertKSUIDOrder(t, findIDs(t, ctx, coll, bson.D{}, decodeKSUIDString), ids)
		assertKSUIDOrder(t, findIDs(t, ctx, coll, rangeFilter(lo.String(), hi.String()), decodeKSUIDString), inside)
	})
}
