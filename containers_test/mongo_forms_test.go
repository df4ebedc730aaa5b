package containers

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestMongoEventsTrial is the events trial: a Node service writes order
// IDs as strings, a Go service declares ksuid.StringKSUID, another Go
// service ksuid.KSUID through bsoncodec's registry, bson.Marshal or the
// driver's default registry; the Go code filters with the ksuid.KSUID
// values it holds. Before, these counts were 0, 0, 17 (of 17: a
// DeleteMany would have emptied the collection), 0 and a second document
// for the upsert.
func TestMongoEventsTrial(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	events := mongoCollection(t, ctx, servers.mongoPlainDB)
	orders := servers.mongoPlainDB.Collection(events.Name() + "_orders")
	t.Cleanup(func() { orders.Drop(ctx) })
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := must(ksuid.NewAt(base))
	b := must(ksuid.NewAt(base.Add(time.Minute)))
	c := must(ksuid.NewAt(base.Add(2 * time.Minute)))
	type stringEvent struct {
		OrderID ksuid.StringKSUID `bson:"order_id"`
		N       int               `bson:"n"`
	}
	type event struct {
		OrderID ksuid.KSUID `bson:"order_id"`
		N       int         `bson:"n"`
	}
	writers := []func(order ksuid.KSUID, n int) error{
		func(order ksuid.KSUID, n int) error { // the Node service
			_, err := events.InsertOne(ctx, bson.D{{Key: "order_id", Value: order.String()}, {Key: "n", Value: n}})
			return err
		},
		func(order ksuid.KSUID, n int) error {
			_, err := servers.mongoDB.Collection(events.Name()).InsertOne(ctx, stringEvent{ksuid.StringKSUID(order), n})
			return err
		},
		func(order ksuid.KSUID, n int) error {
			_, err := servers.mongoDB.Collection(events.Name()).InsertOne(ctx, event{order, n})
			return err
		},
		func(order ksuid.KSUID, n int) error {
			raw, err := bson.Marshal(event{order, n})
			if err == nil {
				_, err = events.InsertOne(ctx, bson.Raw(raw))
			}
			return err
		},
		func(order ksuid.KSUID, n int) error {
			_, err := events.InsertOne(ctx, bson.M{"order_id": order, "n": n})
			return err
		},
	}
	n := 0
	for _, o := range []struct {
		id    ksuid.KSUID
		count int
	}{{a, 7}, {b, 7}, {c, 3}} {
		for range o.count {
			if err := writers[n%len(writers)](o.id, n); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	if forms, err := bsoncodec.CountKSUIDForms(ctx, events, "order_id"); err != nil || forms != (bsoncodec.KSUIDForms{String: 17}) {
		t.Errorf("forms: %+v (%v), want 17 strings", forms, err)
	}
	lo, hi := must(ksuid.MinAt(a.Time())), must(ksuid.MaxAt(c.Time()))
	for _, db := range []*mongo.Database{servers.mongoDB, servers.mongoPlainDB} {
		coll := db.Collection(events.Name())
		for _, q := range []struct {
			name   string
			filter any
			want   int64
		}{
			{"{order_id: A}", bson.D{{Key: "order_id", Value: a}}, 7},
			{"$in [A, B]", bson.D{{Key: "order_id", Value: bson.D{{Key: "$in", Value: []ksuid.KSUID{a, b}}}}}, 14},
			{"$nin [A, B]", bson.D{{Key: "order_id", Value: bson.D{{Key: "$nin", Value: bson.A{a, b}}}}}, 3},
			{"window", bson.M{"order_id": bson.M{"$gte": lo, "$lte": hi}}, 17},
			{"a pointer and a Null", bson.D{{Key: "order_id", Value: bson.D{{Key: "$in", Value: bson.A{&b, ksuid.NullKSUID{KSUID: c, Valid: true}}}}}}, 10},
		} {
			if got, err := coll.CountDocuments(ctx, q.filter); err != nil || got != q.want {
				t.Errorf("%s: %d (%v), want %d", q.name, got, err, q.want)
			}
		}
		if _, err := coll.CountDocuments(ctx, bson.M{"order_id": bsoncodec.KSUIDField("order_id").Eq(a)}); !errors.Is(err, bsoncodec.ErrFilterAsValue) {
			t.Errorf("a KSUIDField filter as a field's value: %v, want ErrFilterAsValue", err)
		}
	}
	// The upsert of an order the Node service wrote finds it.
	if _, err := orders.InsertOne(ctx, bson.D{{Key: "_id", Value: a.String()}, {Key: "total", Value: 5}}); err != nil {
		t.Fatal(err)
	}
	res, err := servers.mongoDB.Collection(orders.Name()).UpdateOne(ctx, bson.D{{Key: "_id", Value: a}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}}, options.UpdateOne().SetUpsert(true))
	if err != nil || res.MatchedCount != 1 || res.UpsertedCount != 0 {
		t.Errorf("upsert {_id: A}: %+v (%v), want the Node service's document", res, err)
	}
	if n, err := orders.CountDocuments(ctx, bson.D{}); err != nil || n != 1 {
		t.Errorf("%d orders (%v), want 1", n, err)
	}
}

// TestMongoObjectIDForms: ObjectIDs another service stored as hex
// strings (lowercase, and one uppercase) beside ObjectIds: counted, found
// by both-forms filters (a Nin that missed the uppercase one would have
// deleted it), and normalized to ObjectIds in a field and in _id, after
// which the typed value finds every one.
func TestMongoObjectIDForms(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	ids := make([]objectid.ObjectID, 12)
	var docs []any
	for i := range ids {
		ids[i] = must(objectid.NewAt(base.Add(time.Duration(i) * time.Second)))
		var v any = ids[i]
		switch {
		case i == 11:
			v = strings.ToUpper(ids[i].String())
		case i%2 == 1:
			v = ids[i].String()
		}
		docs = append(docs, bson.D{{Key: "_id", Value: v}, {Key: "ref", Value: v}, {Key: "n", Value: i}})
	}
	docs = append(docs, bson.D{{Key: "_id", Value: "not-an-objectid"}, {Key: "ref", Value: "not-an-objectid"}, {Key: "n", Value: -1}})
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if c, err := bsoncodec.CountObjectIDForms(ctx, coll, "ref"); err != nil || c != (bsoncodec.ObjectIDForms{ObjectID: 6, String: 7}) || !c.Mixed() {
		t.Errorf("forms: %+v (%v)", c, err)
	}
	f := bsoncodec.ObjectIDField("ref")
	count := func(filter any) int64 {
		t.Helper()
		n, err := coll.CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, q := range []struct {
		name   string
		filter bsoncodec.Filter
		want   int64
	}{
		{"Eq of an ObjectId", f.Eq(ids[2]), 1},
		{"Eq of a string", f.Eq(ids[3]), 1},
		{"In", f.In(ids[0], ids[1], ids[2]), 3},
		{"Eq of an uppercase string", f.Eq(ids[11]), 1},
		{"Nin", f.Nin(ids[0], ids[1], ids[11]), 10},
		{"Between", f.Between(must(objectid.MinAt(ids[2].Time())), must(objectid.MaxAt(ids[6].Time()))), 5},
		{"Gte", f.Gte(ids[8]), 4},
	} {
		if got := count(q.filter); got != q.want {
			t.Errorf("%s: %d, want %d", q.name, got, q.want)
		}
	}
	if got := count(bson.D{{Key: "ref", Value: ids[3]}}); got != 0 {
		t.Errorf("the typed value found the hex string (%d): the counter-case expects the miss", got)
	}
	for _, field := range []bsoncodec.ObjectIDField{"ref", "_id"} {
		n, err := bsoncodec.NormalizeObjectIDs(ctx, coll, field, bsoncodec.NormalizeOptions{BatchSize: 2})
		if n != 6 || !errors.Is(err, bsoncodec.ErrNotObjectID) || !errors.Is(err, objectid.ErrInvalidLength) {
			t.Errorf("NormalizeObjectIDs(%s): %d, %v; want 6 and the value that is no ObjectID named", field, n, err)
		}
	}
	for i, id := range ids {
		var doc struct {
			Ref bson.RawValue `bson:"ref"`
			N   int           `bson:"n"`
		}
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "ref", Value: id}}).Decode(&doc); err != nil || doc.N != i || doc.Ref.Type != bson.TypeObjectID {
			t.Errorf("%v after normalizing: %+v (%v)", id, doc, err)
		}
	}
}

// TestMongoCollationIsReported: KSUIDs as strings keep time order only
// under the simple collation. CountKSUIDForms reports a collection or an
// index of the field with another, and NormalizeKSUIDs refuses it. Where
// the server keeps no collation (FerretDB 1.24 ignores them), the test
// says so: TestNonSimpleCollation in bsoncodec reads MongoDB's documents.
func TestMongoCollationIsReported(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := servers.mongoPlainDB
	name := sanitize(t.Name())
	db.Collection(name).Drop(ctx)
	t.Cleanup(func() { db.Collection(name).Drop(ctx) })
	err := db.CreateCollection(ctx, name, options.CreateCollection().SetCollation(&options.Collation{Locale: "en", Strength: 2}))
	if err != nil {
		t.Logf("%s refuses a collection with a collation: %v", servers.mongoVersion, err)
		if err := db.CreateCollection(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	coll := db.Collection(name)
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "k", Value: bson.Binary{Subtype: 0, Data: ksuid.New().Bytes()}}}); err != nil {
		t.Fatal(err)
	}
	specs, err := db.ListCollectionSpecifications(ctx, bson.D{{Key: "name", Value: name}})
	if err != nil || len(specs) != 1 {
		t.Fatalf("listCollections: %v (%v)", specs, err)
	}
	kept := specs[0].Options.Lookup("collation").Type != 0
	forms, err := bsoncodec.CountKSUIDForms(ctx, coll, "k")
	if err != nil {
		t.Fatal(err)
	}
	_, normErr := bsoncodec.NormalizeKSUIDs(ctx, coll, "k", bsoncodec.NormalizeOptions{})
	if !kept {
		t.Logf("%s keeps no collation (options %v): nothing to report here; forms %+v, normalize %v",
			servers.mongoVersion, specs[0].Options, forms, normErr)
		if forms.Collation != "" || normErr != nil {
			t.Errorf("a collation reported where the server keeps none: %q, %v", forms.Collation, normErr)
		}
		return
	}
	if forms.Collation == "" || !errors.Is(normErr, bsoncodec.ErrCollation) {
		t.Errorf("collation of %s: forms %+v, normalize %v; want it reported and refused", name, forms, normErr)
	}
	fmt.Println("collation reported:", forms.Collation)
}
