package containers

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
)

// TestMongoNormalizeIDsKeepsConcurrentWrites: while _id moves from binary
// (what earlier versions wrote) to the string form, a writer $incs a counter and $sets a flag on
// random documents by KSUIDField("_id").Eq; at the end every document is
// there once and holds every change the server applied. Before, 2 to 5
// of about 75 acknowledged $incs were lost per run: the copy was made
// before the write, and the original deleted after it.
//
// The writer reads each acknowledged change back before it counts it:
// FerretDB 1.24 acknowledges an update that raced with a delete of its
// document even though it wrote nothing (its update does not check that
// the row it rewrites still exists), a loss no client can prevent, and
// which MongoDB, whose writes are atomic per document, does not have.
// A change sortid lost (applied, read back, then deleted with the
// original) fails the test.
func TestMongoNormalizeIDsKeepsConcurrentWrites(t *testing.T) {
	needServers(t)
	t.Parallel()
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongo.Database(sanitize(t.Name())))
	const n = 600
	ids := make([]ksuid.KSUID, n)
	docs := make([]any, n)
	for i := range ids {
		ids[i] = ksuid.New()
		docs[i] = bson.D{{Key: "_id", Value: legacyKSUID(ids[i])}, {Key: "n", Value: i}, {Key: "count", Value: 0}, {Key: "paid", Value: false}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	applied := make([]atomic.Int64, n)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var writes, falseAcks atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(1, 7))
		f := bsoncodec.KSUIDField("_id")
		// The writer aims at the documents about to move: the 13th to
		// 20th of those still binary. sortid's old move lost
		// writes there (it copied a whole batch, then deleted it); the
		// document being moved now, the first of them, is left alone, as
		// FerretDB's own delete reads the document and deletes it in two
		// steps, and drops an update that lands between.
		var targets []int
		for {
			select {
			case <-done:
				return
			default:
			}
			{
				targets = targets[:0]
				cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$type", Value: "binData"}}}},
					options.Find().SetSort(bson.D{{Key: "n", Value: 1}}).SetLimit(20).SetProjection(bson.D{{Key: "n", Value: 1}}))
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
				moving := map[int]bool{}
				for i, d := range next {
					moving[d.N] = true
					if i >= 12 {
						targets = append(targets, d.N)
					}
				}
				for len(targets) == 0 { // the last ones: any moved already
					if i := rng.IntN(n); !moving[i] {
						targets = append(targets, i)
					}
				}
			}
			i := targets[rng.IntN(len(targets))]
			res, err := coll.UpdateOne(ctx, f.Eq(ids[i]),
				bson.D{{Key: "$inc", Value: bson.D{{Key: "count", Value: 1}}}, {Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
			if err != nil {
				t.Errorf("writer: %v", err)
				return
			}
			if res.ModifiedCount != 1 {
				continue
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
			if got.Count > applied[i].Load() {
				applied[i].Add(1)
				writes.Add(1)
			} else {
				falseAcks.Add(1)
			}
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
	t.Logf("%d writes applied during the move; %d acknowledged by the server but not applied", writes.Load(), falseAcks.Load())
	checkAcknowledged(t, ctx, coll, ids, applied, bson.TypeString)
	if left, err := coll.Database().Collection(coll.Name()+".sortid_moving").CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d documents (%v); want none", left, err)
	}
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

// TestMongoNormalizeIDsJournal: a run that stopped between deleting a
// document and inserting its copy (as a crash would) left it in the
// journal; the next run puts it back under the new _id, counts it, and
// empties the journal. An entry whose document still exists is dropped.
func TestMongoNormalizeIDsJournal(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	journal := coll.Database().Collection(coll.Name() + ".sortid_moving")
	t.Cleanup(func() { journal.Drop(context.Background()) })
	lost, kept := ksuid.New(), ksuid.New()
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: legacyKSUID(kept)}, {Key: "n", Value: 2}}); err != nil {
		t.Fatal(err)
	}
	_, err := journal.InsertMany(ctx, []any{
		bson.D{{Key: "_id", Value: legacyKSUID(lost)}, {Key: "doc", Value: bson.D{{Key: "_id", Value: legacyKSUID(lost)}, {Key: "n", Value: 1}}}},
		bson.D{{Key: "_id", Value: legacyKSUID(kept)}, {Key: "doc", Value: bson.D{{Key: "_id", Value: legacyKSUID(kept)}, {Key: "n", Value: 2}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	moved, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{})
	if err != nil || moved != 2 {
		t.Fatalf("moved %d, %v; want the journalled one and the other", moved, err)
	}
	for i, id := range []ksuid.KSUID{lost, kept} {
		var doc struct {
			N int `bson:"n"`
		}
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc); err != nil || doc.N != i+1 {
			t.Errorf("%v: n=%d (%v), want %d under the string _id", id, doc.N, err, i+1)
		}
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
