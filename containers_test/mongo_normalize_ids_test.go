package containers

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestMongoNormalizeIDsKeepsConcurrentWrites: while _id moves from binary
// (what earlier versions wrote) to the string form, a writer $incs a
// counter and $sets a flag, by KSUIDField("_id").Eq, on the documents
// about to move, the one moving included; at the end every document is
// there once and holds every change the writer read back. Before, 2 to 5
// of about 75 acknowledged $incs were lost per run: the copy was made
// before the write, and the original deleted after it.
func TestMongoNormalizeIDsKeepsConcurrentWrites(t *testing.T) {
	needServers(t)
	t.Parallel()
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongo.Database(sanitize(t.Name())))
	const n = 600
	ids := insertLegacyIDs(t, ctx, coll, n)
	applied := make([]atomic.Int64, n)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(1, 7))
		f := bsoncodec.KSUIDField("_id")
		for {
			select {
			case <-done:
				return
			default:
			}
			// The next 8 documents still binary, in the order they move.
			cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$type", Value: "binData"}}}},
				options.Find().SetSort(bson.D{{Key: "n", Value: 1}}).SetLimit(8).SetProjection(bson.D{{Key: "n", Value: 1}}))
			if err != nil {
				t.Errorf("writer: %v", err)
				return
			}
			var next []struct {
				N int `bson:"n"`
			}
			if err := cur.All(ctx, &next); err != nil {
				t.Errorf("writer: %v", err)
				return
			}
			i := rng.IntN(n)
			if len(next) > 0 {
				i = next[rng.IntN(len(next))].N
			}
			res, err := coll.UpdateOne(ctx, f.Eq(ids[i]),
				bson.D{{Key: "$inc", Value: bson.D{{Key: "count", Value: 1}}}, {Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
			if err != nil {
				t.Errorf("writer: %v", err)
				return
			}
			if res.ModifiedCount != 1 {
				continue // between its delete and its insert: told so
			}
			// Read it back, in whichever form the document is now (it
			// may be between its delete and its insert for a moment).
			var got struct {
				Count int64 `bson:"count"`
			}
			for try := 0; ; try++ {
				err := coll.FindOne(ctx, f.Eq(ids[i])).Decode(&got)
				if err == nil {
					break
				}
				if !errors.Is(err, mongo.ErrNoDocuments) || try == 100 {
					t.Errorf("writer reading back %v: %v", ids[i], err)
					return
				}
				time.Sleep(time.Millisecond)
			}
			if got.Count != applied[i].Load()+1 {
				t.Errorf("writer: %v reads count %d after %d acknowledged $incs", ids[i], got.Count, applied[i].Load()+1)
				return
			}
			applied[i].Add(1)
			writes.Add(1)
		}
	}()
	moved, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{BatchSize: 20})
	close(done)
	wg.Wait()
	if err != nil || moved != n {
		t.Fatalf("moved %d, %v; want %d", moved, err, n)
	}
	if writes.Load() == 0 {
		t.Fatal("the writer had no write applied during the move")
	}
	t.Logf("%d writes applied during the move", writes.Load())
	checkAcknowledged(t, ctx, coll, ids, applied, bson.TypeString)
	if left, err := coll.Database().Collection(coll.Name()+bsoncodec.JournalSuffix).CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d documents (%v); want none", left, err)
	}
}

// TestMongoNormalizeLeaseExpires: a run that stopped for good (its
// goroutine blocked before a delete, as a crash would leave it) keeps a
// second run out, with an error naming it, until its lease expires; then
// the next run takes over, puts back nothing twice and finishes.
func TestMongoNormalizeLeaseExpires(t *testing.T) {
	needServers(t)
	t.Parallel()
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	c := crashCases()[0]
	insertCrashDocs(t, ctx, coll, c)
	w := newWatched(t, 0, 0, nil)
	w.stopBefore = func(e *event.CommandStartedEvent) bool {
		return e.CommandName == "findAndModify" && strings.HasPrefix(coll.Name(), e.Command.Index(0).Value().StringValue())
	}
	opts := bsoncodec.NormalizeOptions{BatchSize: 3, Lease: 2 * time.Second}
	start := time.Now()
	w.start(ctx, c, coll.Name(), opts)
	<-w.stopped
	n, err := c.run(ctx, coll, opts)
	if !errors.Is(err, bsoncodec.ErrRunning) || !strings.Contains(err.Error(), "pid") || n != 0 {
		t.Fatalf("a run beside a live lease: %d, %v; want ErrRunning naming the holder", n, err)
	}
	for {
		n, err = c.run(ctx, coll, opts)
		if !errors.Is(err, bsoncodec.ErrRunning) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if waited := time.Since(start); err != nil || n != crashDocs || waited < opts.Lease {
		t.Fatalf("after %v: %d, %v; want all %d after the lease's %v", waited, n, err, crashDocs, opts.Lease)
	}
	checkCrashed(t, ctx, coll, &crashWriter{t: t, coll: coll, c: c})
}

// TestMongoNormalizeRunsAtOnce: eight runs started together on one
// collection: each either does its share or stops with ErrRunning, and
// together they move every document once.
func TestMongoNormalizeRunsAtOnce(t *testing.T) {
	needServers(t)
	t.Parallel()
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	const n = 300
	ids := insertLegacyIDs(t, ctx, coll, n)
	var wg sync.WaitGroup
	var moved, refused atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{BatchSize: 20})
			switch {
			case errors.Is(err, bsoncodec.ErrRunning):
				refused.Add(1)
			case err != nil:
				t.Errorf("a run: %d, %v", k, err)
			}
			moved.Add(k)
		}()
	}
	wg.Wait()
	if moved.Load() != n || refused.Load() == 0 {
		t.Errorf("moved %d, %d runs refused; want %d moved and some refused", moved.Load(), refused.Load(), n)
	}
	checkAcknowledged(t, ctx, coll, ids, make([]atomic.Int64, n), bson.TypeString)
}

// insertLegacyIDs inserts n documents {_id, n, count: 0, paid: false}
// with _id a new KSUID as earlier versions stored it (binary), and returns
// the KSUIDs in the order of n.
func insertLegacyIDs(t *testing.T, ctx context.Context, coll *mongo.Collection, n int) []ksuid.KSUID {
	t.Helper()
	ids := make([]ksuid.KSUID, n)
	docs := make([]any, n)
	for i := range ids {
		ids[i] = ksuid.New()
		docs[i] = bson.D{{Key: "_id", Value: legacyKSUID(ids[i])}, {Key: "n", Value: i}, {Key: "count", Value: 0}, {Key: "paid", Value: false}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	return ids
}

// checkAcknowledged reads every document: each n once, _id in form want
// and equal to ids[n], count equal to the writes acknowledged for it, and
// paid set where there was one.
func checkAcknowledged(t *testing.T, ctx context.Context, coll *mongo.Collection, ids []ksuid.KSUID, acked []atomic.Int64, want bson.Type) {
	t.Helper()
	cur, err := coll.Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var stored []struct {
		ID    bson.RawValue `bson:"_id"`
		N     int           `bson:"n"`
		Count int64         `bson:"count"`
		Paid  bool          `bson:"paid"`
	}
	if err := cur.All(ctx, &stored); err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(ids))
	lost := 0
	for _, d := range stored {
		var id ksuid.KSUID
		if err := id.UnmarshalBSONValue(byte(d.ID.Type), d.ID.Value); err != nil || d.ID.Type != want || id != ids[d.N] || seen[d.N] {
			t.Errorf("document %d: _id %v (%v), seen before %v", d.N, d.ID, err, seen[d.N])
			continue
		}
		seen[d.N] = true
		if d.Count != acked[d.N].Load() || d.Paid != (d.Count > 0) {
			lost++
			if lost <= 5 {
				t.Errorf("document %d: count %d, paid %v; %d $incs were acknowledged", d.N, d.Count, d.Paid, acked[d.N].Load())
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("document %d is gone", i)
		}
	}
	if lost > 0 {
		t.Errorf("%d documents lost acknowledged writes", lost)
	}
}

// TestMongoNormalizeIDsOtherUniqueIndex: a collection with a unique index
// besides _id normalizes; before, every move failed with "mongo: no
// documents in result", taking the index's duplicate for the _id's.
func TestMongoNormalizeIDsOtherUniqueIndex(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "email", Value: 1}}, Options: options.Index().SetUnique(true)}); err != nil {
		t.Fatal(err)
	}
	ids := make([]ksuid.KSUID, 50)
	var docs []any
	for i := range ids {
		ids[i] = ksuid.New()
		docs = append(docs, bson.D{{Key: "_id", Value: legacyKSUID(ids[i])}, {Key: "n", Value: i}, {Key: "email", Value: ids[i].String() + "@x"}})
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	moved, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{BatchSize: 10})
	if err != nil || moved != 50 {
		t.Fatalf("moved %d, %v; want 50", moved, err)
	}
	if c, err := bsoncodec.CountKSUIDForms(ctx, coll, "_id"); err != nil || c != (bsoncodec.KSUIDForms{String: 50}) {
		t.Errorf("after: %+v, %v", c, err)
	}
}

// TestMongoNormalizeIDsJournal: a run that stopped left three journal
// entries: one deleted and not inserted (the next run puts it back under
// the new _id, counts it and names it), one not deleted (dropped; the
// document is moved as any other), one inserted and updated since
// (dropped; the newer document stays). The journal is empty after.
func TestMongoNormalizeIDsJournal(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	journal := coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix)
	t.Cleanup(func() { journal.Drop(context.Background()) })
	lost, kept, moved := ksuid.New(), ksuid.New(), ksuid.New()
	_, err := coll.InsertMany(ctx, []any{
		bson.D{{Key: "_id", Value: legacyKSUID(kept)}, {Key: "n", Value: 2}},
		bson.D{{Key: "_id", Value: moved.String()}, {Key: "n", Value: 3}, {Key: "count", Value: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	entry := func(id ksuid.KSUID, fields ...bson.E) bson.D {
		return bson.D{{Key: "_id", Value: legacyKSUID(id)}, {Key: "to", Value: id.String()},
			{Key: "doc", Value: append(bson.D{{Key: "_id", Value: legacyKSUID(id)}}, fields...)}, {Key: "holder", Value: "a run that died"}}
	}
	_, err = journal.InsertMany(ctx, []any{
		entry(lost, bson.E{Key: "n", Value: 1}),
		entry(kept, bson.E{Key: "n", Value: 2}),
		entry(moved, bson.E{Key: "n", Value: 3}, bson.E{Key: "count", Value: 0}),
	})
	if err != nil {
		t.Fatal(err)
	}
	var restored []bson.RawValue
	n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{
		Restored: func(id bson.RawValue) { restored = append(restored, id) },
	})
	if err != nil || n != 2 {
		t.Fatalf("moved %d, %v; want the journalled one and the other", n, err)
	}
	if len(restored) != 1 || restored[0].StringValue() != lost.String() {
		t.Errorf("restored %v; want %v alone", restored, lost)
	}
	for i, id := range []ksuid.KSUID{lost, kept, moved} {
		var doc struct {
			N     int `bson:"n"`
			Count int `bson:"count"`
		}
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id.String()}}).Decode(&doc); err != nil || doc.N != i+1 || doc.Count != i/2 {
			t.Errorf("%v: %+v (%v), want n %d under the string _id", id, doc, err, i+1)
		}
	}
	if total, err := coll.CountDocuments(ctx, bson.D{}); err != nil || total != 3 {
		t.Errorf("%d documents (%v); want 3", total, err)
	}
	if left, err := journal.CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d (%v)", left, err)
	}
}

// legacyKSUID is id as earlier versions of sortid stored it: 20 bytes of
// binary, subtype 0.
func legacyKSUID(id ksuid.KSUID) bson.Binary {
	return bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}
}

// TestMongoNormalizeJournalBeforeTheLease: an entry of the journal's
// format before the lease ({_id, doc}, no new _id, no holder) whose
// document was deleted is read and finished: the next run puts the
// document back under the new _id. Before, it was refused as "not one of
// sortid's", and normalizing _id stayed blocked.
func TestMongoNormalizeJournalBeforeTheLease(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	journal := coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix)
	t.Cleanup(func() { journal.Drop(context.Background()) })
	lost, oid := ksuid.New(), objectid.New()
	_, err := journal.InsertMany(ctx, []any{
		bson.D{{Key: "_id", Value: legacyKSUID(lost)}, {Key: "doc", Value: bson.D{{Key: "_id", Value: legacyKSUID(lost)}, {Key: "n", Value: 1}}}},
		bson.D{{Key: "_id", Value: oid.String()}, {Key: "doc", Value: bson.D{{Key: "_id", Value: oid.String()}, {Key: "n", Value: 2}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{})
	if err != nil || n != 2 {
		t.Fatalf("moved %d, %v; want the two journalled documents put back", n, err)
	}
	var k struct{ N int }
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: lost.String()}}).Decode(&k); err != nil || k.N != 1 {
		t.Errorf("the KSUID's document under its string _id: %+v (%v)", k, err)
	}
	var o struct{ N int }
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: bson.ObjectID(oid)}}).Decode(&o); err != nil || o.N != 2 {
		t.Errorf("the ObjectID's document under its ObjectId _id: %+v (%v)", o, err)
	}
	if left, err := journal.CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d (%v)", left, err)
	}
}

// TestMongoNormalizeFieldWaitsForIDMoves: NormalizeKSUIDs of a field
// while a stopped normalization of _id left a document between its delete
// and its insert (only in the journal, the field binary there) puts the
// document back first and rewrites its field too; while such a run holds
// its lease, the field's run stops with ErrRunning. Before, the field's
// run reported success and the document came back with a binary field.
func TestMongoNormalizeFieldWaitsForIDMoves(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongo.Database("sortid"))
	journal := coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix)
	t.Cleanup(func() { journal.Drop(context.Background()) })
	moving, ref := ksuid.New(), ksuid.New()
	doc := bson.D{{Key: "_id", Value: legacyKSUID(moving)}, {Key: "ref", Value: legacyKSUID(ref)}}
	if _, err := journal.InsertOne(ctx, bson.D{{Key: "_id", Value: legacyKSUID(moving)}, {Key: "to", Value: moving.String()},
		{Key: "doc", Value: doc}, {Key: "holder", Value: "a run that died"}}); err != nil {
		t.Fatal(err)
	}

	// A live run of _id: its lease, taken by a run stopped before its
	// first batch.
	w := newWatched(t, 0, 0, nil)
	w.stopBefore = func(e *event.CommandStartedEvent) bool {
		return isBatchFind(e, coll.Name()) || isJournalFind(e, coll.Name())
	}
	w.start(ctx, crashCases()[0], coll.Name(), bsoncodec.NormalizeOptions{})
	<-w.stopped
	if n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "ref", bsoncodec.NormalizeOptions{}); !errors.Is(err, bsoncodec.ErrRunning) {
		t.Errorf("the field's run beside a live run of _id: %d, %v; want ErrRunning", n, err)
	}
	expireLease(t, ctx, coll)

	n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "ref", bsoncodec.NormalizeOptions{})
	if err != nil || n != 1 {
		t.Fatalf("the field's run: %d, %v; want the put-back document's field rewritten", n, err)
	}
	var got bson.Raw
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: moving.String()}}).Decode(&got); err != nil {
		t.Fatalf("the moving document: %v", err)
	}
	if s, ok := got.Lookup("ref").StringValueOK(); !ok || s != ref.String() {
		t.Errorf("its ref is %v; want the string %s", got.Lookup("ref"), ref)
	}
	if left, err := journal.CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d (%v)", left, err)
	}
}

// isJournalFind reports whether e reads the journal of collection coll.
func isJournalFind(e *event.CommandStartedEvent, coll string) bool {
	target, _ := e.Command.Index(0).Value().StringValueOK()
	return e.CommandName == "find" && target == coll+bsoncodec.JournalSuffix
}
