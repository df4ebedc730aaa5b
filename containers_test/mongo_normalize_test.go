package containers

import (
	"context"
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
)

func TestMongoCountKSUIDForms(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	id := ksuid.New()
	docs := []any{
		bson.D{{Key: "k", Value: legacyKSUID(id)}}, bson.D{{Key: "k", Value: legacyKSUID(id)}}, bson.D{{Key: "k", Value: legacyKSUID(id)}},
		bson.D{{Key: "k", Value: id}}, bson.D{{Key: "k", Value: "not a ksuid"}},
		bson.D{{Key: "k", Value: nil}},
		bson.D{{Key: "other", Value: 1}},
		bson.D{{Key: "k", Value: int32(7)}}, bson.D{{Key: "k", Value: bson.A{id.String()}}},
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	got, err := bsoncodec.CountKSUIDForms(ctx, coll, "k")
	want := bsoncodec.KSUIDForms{Binary: 3, String: 2, Null: 1, Missing: 1, Other: 2}
	if err != nil || got != want || !got.Mixed() {
		t.Errorf("CountKSUIDForms = %+v, %v; want %+v, mixed", got, err, want)
	}
	// The README's warnings: Nin of no IDs matches every document, and
	// Ne matches the documents without the field.
	for _, c := range []struct {
		name   string
		filter bsoncodec.Filter
		want   int64
	}{
		{"Nin()", bsoncodec.KSUIDField("k").Nin(), int64(len(docs))},
		// Not the 3 binary, the string, nor the array holding the string.
		{"Ne(id)", bsoncodec.KSUIDField("k").Ne(id), int64(len(docs)) - 5},
	} {
		if n, err := coll.CountDocuments(ctx, c.filter); err != nil || n != c.want {
			t.Errorf("%s matched %d, %v; want %d", c.name, n, err, c.want)
		}
	}
}

// normalizeDocs inserts n documents {n: i, order_id: ids[i]}: every
// every-th as binary, as earlier versions wrote, the others as strings.
func normalizeDocs(t *testing.T, ctx context.Context, coll *mongo.Collection, n, every int) []ksuid.KSUID {
	t.Helper()
	ids := make([]ksuid.KSUID, n)
	base := time.Now().Add(-time.Duration(n) * time.Second)
	var batch []any
	for i := range ids {
		var err error
		if ids[i], err = ksuid.NewAt(base.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
		var v any = ids[i]
		if i%every == 0 {
			v = legacyKSUID(ids[i])
		}
		batch = append(batch, bson.D{{Key: "n", Value: i}, {Key: "order_id", Value: v}, {Key: "pad", Value: "payload"}})
		if len(batch) == 10000 || i == n-1 {
			if _, err := coll.InsertMany(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return ids
}

// checkNormalized reads every document back: each n once, its order_id in
// form want and equal to ids[n], the other field intact.
func checkNormalized(t *testing.T, ctx context.Context, coll *mongo.Collection, field string, ids []ksuid.KSUID, want bson.Type) {
	t.Helper()
	cur, err := coll.Find(ctx, bson.D{}, options.Find().SetBatchSize(10000))
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(ids))
	bad := 0
	for cur.Next(ctx) {
		i := int(cur.Current.Lookup("n").AsInt64())
		v := cur.Current.Lookup(field)
		var id ksuid.KSUID
		err := id.UnmarshalBSONValue(byte(v.Type), v.Value)
		if i < 0 || i >= len(ids) || seen[i] || v.Type != want || err != nil || id != ids[i] || cur.Current.Lookup("pad").StringValue() != "payload" {
			if bad++; bad < 5 {
				t.Errorf("document n=%d: %s %v as %v (%v); want %v as %v, once", i, field, id, v.Type, err, ids[i], want)
			}
			continue
		}
		seen[i] = true
	}
	if err := cur.Err(); err != nil {
		t.Fatal(err)
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("document n=%d lost", i)
		}
	}
}

// TestMongoNormalize100k: in 100,000 documents, the ones in binary are
// made strings; the first run is cancelled midway, as a crash would stop
// it, the second finishes, a third finds nothing to do, and every document
// is there once with its own ID.
//
// Only 1 in 25,000 documents is binary: FerretDB 1.24, the stand-in
// server, reads the whole collection for each update whose filter is more
// than an _id, seconds at 100,000 documents, so more would not fit in make
// test. TestMongoNormalizeHalf rewrites half of a smaller collection.
func TestMongoNormalize100k(t *testing.T) {
	testNormalize(t, 100_000, 25_000, 2)
}

// TestMongoNormalizeHalf rewrites 500 of 1,000 documents, with the same
// interruption.
func TestMongoNormalizeHalf(t *testing.T) {
	testNormalize(t, 1000, 2, 50)
}

func testNormalize(t *testing.T, size, every, batchSize int) {
	needServers(t)
	// In parallel with the other slow MongoDB tests, in a database of its
	// own: FerretDB keeps one SQLite file per database, so their writes
	// do not wait for each other.
	t.Parallel()
	ctx := testContext(t)
	n := int64(size)
	binary := n / int64(every)
	coll := mongoCollection(t, ctx, servers.mongo.Database(sanitize(t.Name())))
	ids := normalizeDocs(t, ctx, coll, size, every)

	stopCtx, stop := context.WithCancel(ctx)
	first, err := bsoncodec.NormalizeKSUIDs(stopCtx, coll, "order_id", bsoncodec.NormalizeOptions{
		BatchSize: batchSize,
		Progress: func(done int64) {
			if done >= binary/4 {
				stop()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || first < binary/4 || first >= binary {
		t.Fatalf("the interrupted run rewrote %d, %v; want at least %d and context.Canceled", first, err, binary/4)
	}
	if c, err := bsoncodec.CountKSUIDForms(ctx, coll, "order_id"); err != nil || c.Binary != binary-first || c.String != n-binary+first || !c.Mixed() {
		t.Fatalf("after the interruption: %+v, %v; want %d binary left", c, err, binary-first)
	}

	start := time.Now()
	second, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "order_id", bsoncodec.NormalizeOptions{BatchSize: batchSize})
	took := time.Since(start)
	if err != nil || first+second != binary {
		t.Fatalf("the second run rewrote %d, %v; want %d", second, err, binary-first)
	}
	fmt.Printf("MongoDB normalization of %d documents: %d rewritten in %v (%.1f documents/s), after %d in a run cancelled midway\n",
		n, second, took.Round(time.Millisecond), float64(second)/took.Seconds(), first)
	// Every document read back, in string form: no count needed.
	checkNormalized(t, ctx, coll, "order_id", ids, bson.TypeString)
	if again, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "order_id", bsoncodec.NormalizeOptions{}); again != 0 || err != nil {
		t.Errorf("a third run rewrote %d, %v; want 0", again, err)
	}
}

// TestMongoNormalizeIDs moves _id from binary to the string: interrupted
// and resumed, with a copy left by a crash between insert and delete, a
// document held in both forms with different contents (left, and named),
// and a binary that is no KSUID (left, and named).
func TestMongoNormalizeIDs(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	const n = 1000
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	ids := make([]ksuid.KSUID, n)
	var docs []any
	for i := range ids {
		ids[i] = ksuid.New()
		var v any = ids[i]
		if i%2 == 1 {
			v = legacyKSUID(ids[i])
		}
		docs = append(docs, bson.D{{Key: "_id", Value: v}, {Key: "n", Value: i}, {Key: "pad", Value: "payload"}})
	}
	crashed, conflict := ids[1], ids[3]
	notKSUID := bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: []byte("not a ksuid")}
	docs = append(docs,
		// The copy a run left when it stopped before deleting the old.
		bson.D{{Key: "_id", Value: crashed}, {Key: "n", Value: 1}, {Key: "pad", Value: "payload"}},
		// Another document for the same ID, in the other form.
		bson.D{{Key: "_id", Value: conflict}, {Key: "n", Value: -1}, {Key: "pad", Value: "other"}},
		bson.D{{Key: "_id", Value: notKSUID}, {Key: "n", Value: -2}})
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}

	stopCtx, stop := context.WithCancel(ctx)
	first, err := bsoncodec.NormalizeKSUIDs(stopCtx, coll, "_id", bsoncodec.NormalizeOptions{
		BatchSize: 100,
		Progress:  func(done int64) { stop() },
	})
	if !errors.Is(err, context.Canceled) || first == 0 || first >= n/2 {
		t.Fatalf("the interrupted run rewrote %d, %v", first, err)
	}
	second, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{BatchSize: 100})
	if !errors.Is(err, bsoncodec.ErrNotKSUID) || !errors.Is(err, ksuid.ErrInvalidLength) || first+second != n/2-1 {
		t.Fatalf("the second run rewrote %d, %v; want %d and an error naming the value that is no KSUID", second, err, n/2-1-first)
	}
	if got, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{}); got != 0 || !errors.Is(err, bsoncodec.ErrNotKSUID) {
		t.Errorf("a third run rewrote %d, %v", got, err)
	}
	// The conflict is reported once the bad value is fixed.
	if _, err := coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: notKSUID}}); err != nil {
		t.Fatal(err)
	}
	if got, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{}); got != 0 || err == nil || !strings.Contains(err.Error(), conflict.String()) {
		t.Errorf("with the conflict left: %d, %v; want an error naming %v", got, err, conflict)
	}
	c, err := bsoncodec.CountKSUIDForms(ctx, coll, "_id")
	if want := (bsoncodec.KSUIDForms{String: n, Binary: 1}); err != nil || c != want {
		t.Errorf("after: %+v, %v; want %+v (the conflict's binary left)", c, err, want)
	}
	// One read of all.
	cur, err := coll.Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var stored []struct {
		ID  bson.RawValue `bson:"_id"`
		N   int           `bson:"n"`
		Pad string        `bson:"pad"`
	}
	if err := cur.All(ctx, &stored); err != nil {
		t.Fatal(err)
	}
	found := map[ksuid.KSUID]int{}
	for _, d := range stored {
		var id ksuid.KSUID
		if err := id.UnmarshalBSONValue(byte(d.ID.Type), d.ID.Value); err != nil {
			t.Fatalf("_id %v: %v", d.ID, err)
		}
		if d.ID.Type == bson.TypeBinary && id != conflict || d.Pad != "payload" && d.N != -1 {
			t.Errorf("document %+v", d)
		}
		found[id]++
		if d.ID.Type == bson.TypeString && d.N >= 0 && ids[d.N] != id {
			t.Errorf("document %d holds %v, want %v", d.N, id, ids[d.N])
		}
	}
	for _, id := range ids {
		if want := map[bool]int{true: 2, false: 1}[id == conflict]; found[id] != want {
			t.Errorf("%v: %d documents, want %d", id, found[id], want)
		}
	}
}

// TestMongoUpsertByEqInsertsAnotherKey backs the README's warning that an
// upsert needs UpsertKSUID: with KSUIDField.Eq alone the server inserts a
// document under a new ObjectId, which the same filter then cannot find.
// UpsertKSUID inserts the key, in the declared form.
func TestMongoUpsertByEqInsertsAnotherKey(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoDB)
	id := ksuid.New()
	f := bsoncodec.KSUIDField("_id")
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}}
	res, err := coll.UpdateOne(ctx, f.Eq(id), set, options.UpdateOne().SetUpsert(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, isOID := res.UpsertedID.(bson.ObjectID); !isOID {
		t.Errorf("upsert by Eq inserted _id %#v; the README says a new ObjectId", res.UpsertedID)
	}
	if n, err := coll.CountDocuments(ctx, f.Eq(id)); err != nil || n != 0 {
		t.Errorf("Eq finds %d, %v after its own upsert; the README says none", n, err)
	}

	filter, update := bsoncodec.UpsertKSUID("_id", ksuid.StringKSUID(id), set)
	if res, err = coll.UpdateOne(ctx, filter, update, options.UpdateOne().SetUpsert(true)); err != nil {
		t.Fatal(err)
	}
	if got, err := bsoncodec.InsertedKSUID(res.UpsertedID); err != nil || got != id || res.UpsertedID != id.String() {
		t.Errorf("UpsertKSUID inserted _id %#v (%v), want the string %v", res.UpsertedID, err, id)
	}
	if res, err = coll.UpdateOne(ctx, filter, update, options.UpdateOne().SetUpsert(true)); err != nil || res.MatchedCount != 1 || res.UpsertedCount != 0 {
		t.Errorf("the second UpsertKSUID: %+v, %v; want it to match the first", res, err)
	}
}
