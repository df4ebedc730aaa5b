package containers

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

type idDoc[T any] struct {
	ID T `bson:"_id"`
}

// insertIDs inserts one document {_id: id} per ID.
func insertIDs[T any](t *testing.T, ctx context.Context, coll *mongo.Collection, ids []T) {
	t.Helper()
	docs := make([]idDoc[T], len(ids))
	for i, id := range ids {
		docs[i] = idDoc[T]{id}
	}
	res, err := coll.InsertMany(ctx, docs)
	if err != nil || len(res.InsertedIDs) != len(ids) {
		t.Fatalf("InsertMany: %v", err)
	}
}

// findIDs returns the _id of every document matching filter, sorted by
// _id ascending.
func findIDs[T any](t *testing.T, ctx context.Context, coll *mongo.Collection, filter any) []T {
	t.Helper()
	cur, err := coll.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []idDoc[T]
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	ids := make([]T, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return ids
}

// between is the filter {_id: {$gte: lo, $lte: hi}}, with the ID types
// themselves as values.
func between(lo, hi any) bson.D {
	return bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lte", Value: hi}}}}
}

func TestMongoObjectIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := objectIDsOverTime(t)
	inside := idsInWindow(ids)
	coll := mongoCollection(t, ctx, servers.mongoDB)
	insertIDs(t, ctx, coll, ids)

	// The server sees ordinary ObjectIds.
	var raw bson.Raw
	if err := coll.FindOne(ctx, bson.D{}).Decode(&raw); err != nil || raw.Lookup("_id").Type != bson.TypeObjectID {
		t.Fatalf("stored _id is %v (%v), want an ObjectId", raw.Lookup("_id").Type, err)
	}
	assertOrder(t, findIDs[objectid.ObjectID](t, ctx, coll, bson.D{}), ids)

	lo, _ := objectid.MinAt(windowFrom)
	hi, _ := objectid.MaxAt(windowTo)
	assertOrder(t, findIDs[objectid.ObjectID](t, ctx, coll, between(lo, hi)), inside)
}

func TestMongoKSUIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := ksuidsOverTime(t)
	inside := idsInWindow(ids)
	lo, _ := ksuid.MinAt(windowFrom)
	hi, _ := ksuid.MaxAt(windowTo)

	for _, tc := range []struct {
		name   string
		db     *mongo.Database
		stored bson.Type
	}{
		{"string", servers.mongoDB, bson.TypeString},
		{"binary, as earlier versions wrote", servers.mongoBinaryDB, bson.TypeBinary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			coll := mongoCollection(t, ctx, tc.db)
			insertIDs(t, ctx, coll, ids)
			var raw bson.Raw
			if err := coll.FindOne(ctx, bson.D{}).Decode(&raw); err != nil || raw.Lookup("_id").Type != tc.stored {
				t.Fatalf("stored _id is %v (%v), want %v", raw.Lookup("_id").Type, err, tc.stored)
			}
			assertOrder(t, findIDs[ksuid.KSUID](t, ctx, coll, bson.D{}), ids)
			assertOrder(t, findIDs[ksuid.KSUID](t, ctx, coll, between(lo, hi)), inside)
		})
	}
}

// TestMongoStringKSUIDsUnderLocaleCollation is the counter-case of the
// string subtest above, which claims time order under the default (simple)
// collation: under a locale's collation the same strings misorder.
func TestMongoStringKSUIDsUnderLocaleCollation(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoDB)
	insertIDs(t, ctx, coll, []ksuid.KSUID{newerCaseKSUID, olderCaseKSUID})
	cur, err := coll.Find(ctx, bson.D{}, options.Find().
		SetSort(bson.D{{Key: "_id", Value: 1}}).
		SetCollation(&options.Collation{Locale: "en"}))
	// The test server implements collations (MongoDB, and FerretDB 2 on
	// DocumentDB with its collations on): an error fails the test.
	if err != nil {
		t.Fatal(err)
	}
	var docs []idDoc[ksuid.KSUID]
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].ID != newerCaseKSUID {
		t.Errorf(`sorted under {locale: "en"}: %v; expected the newer %v first (time order broken)`, docs, newerCaseKSUID)
	}
}

// TestMongoMixedHistory reads one collection that holds KSUIDs written
// as binary (by earlier versions) and as strings, with either client.
func TestMongoMixedHistory(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	a, b := ksuid.New(), ksuid.New()
	name := sanitize(t.Name())
	coll := mongoCollection(t, ctx, servers.mongoBinaryDB)
	insertIDs(t, ctx, coll, []ksuid.KSUID{a})
	insertIDs(t, ctx, servers.mongoDB.Collection(name), []ksuid.KSUID{b})
	for _, db := range []*mongo.Database{servers.mongoDB, servers.mongoBinaryDB} {
		got := findIDs[ksuid.KSUID](t, ctx, db.Collection(name), bson.D{})
		// BSON orders strings before binary, whatever the values.
		if len(got) != 2 || got[0] != b || got[1] != a {
			t.Errorf("read %v, want [%v %v]", got, b, a)
		}
	}
}

// TestMongoEqBothForms: in a collection whose history holds binary KSUIDs
// beside the strings written now, a lookup by the KSUID value finds the
// strings and misses the binary ones (the silent miss of mixed history),
// and bsoncodec.KSUIDField.Eq finds every one, with either client.
func TestMongoEqBothForms(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	binaryID, stringID := ksuid.New(), ksuid.New()
	name := sanitize(t.Name())
	insertIDs(t, ctx, mongoCollection(t, ctx, servers.mongoBinaryDB), []ksuid.KSUID{binaryID})
	insertIDs(t, ctx, servers.mongoDB.Collection(name), []ksuid.KSUID{stringID})
	count := func(db *mongo.Database, filter any) int64 {
		t.Helper()
		n, err := db.Collection(name).CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name string
		db   *mongo.Database
	}{
		{"client of today", servers.mongoDB},
		{"the plain driver", servers.mongoPlainDB},
	} {
		if n := count(c.db, bson.D{{Key: "_id", Value: stringID}}); n != 1 {
			t.Errorf("%s: {_id: id} of a string found %d documents, want 1", c.name, n)
		}
		if n := count(c.db, bson.D{{Key: "_id", Value: binaryID}}); n != 0 {
			t.Errorf("%s: {_id: id} of a binary found %d documents; the counter-case expects the miss KSUIDField.Eq is for", c.name, n)
		}
		for _, id := range []ksuid.KSUID{binaryID, stringID} {
			got := findIDs[ksuid.KSUID](t, ctx, c.db.Collection(name), bsoncodec.KSUIDField("_id").Eq(id))
			if len(got) != 1 || got[0] != id {
				t.Errorf("%s: KSUIDField.Eq(%v) found %v, want exactly it", c.name, id, got)
			}
		}
	}
}
