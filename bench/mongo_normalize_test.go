package bench

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/sortid/sortid/bench/internal/prevnormalize"
	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// benchDocs is the number of documents per load: SORTID_BENCH_MONGO_DOCS,
// or def.
func benchDocs(b *testing.B, def int) int {
	if s := os.Getenv("SORTID_BENCH_MONGO_DOCS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("SORTID_BENCH_MONGO_DOCS=%q: %v", s, err)
		}
		return n
	}
	return def
}

// paired is the median and range of one side's rate, the other's, and
// their ratio, over rounds measured in turn.
type paired struct{ a, b, ratio []float64 }

func (p *paired) add(a, b float64) {
	p.a, p.b, p.ratio = append(p.a, a), append(p.b, b), append(p.ratio, a/b)
}

func (p *paired) report(b *testing.B, aName, bName string) {
	median := func(xs []float64) float64 { s := slices.Clone(xs); slices.Sort(s); return s[len(s)/2] }
	b.ReportMetric(median(p.a), aName+"-docs/s")
	b.ReportMetric(median(p.b), bName+"-docs/s")
	b.ReportMetric(median(p.ratio), "ratio-median")
	b.ReportMetric(slices.Min(p.ratio), "ratio-min")
	b.ReportMetric(slices.Max(p.ratio), "ratio-max")
}

// BenchmarkMongoIDInserts loads documents {_id, n} with _id a KSUID's
// string, and the same count with _id an ObjectId, through InsertMany in
// batches of 10,000, in 5 rounds (which goes first alternates); it
// reports both rates' medians and the ratio's median and range, and logs
// each load's collStats (data and _id index bytes).
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench MongoIDInserts -benchtime 1x -timeout 90m -v
func BenchmarkMongoIDInserts(b *testing.B) {
	client := benchMongo(b)
	ctx := context.Background()
	n := benchDocs(b, 1_000_000)
	load := func(form string) float64 {
		coll := client.Database("bench").Collection("ids_" + form)
		if err := coll.Drop(ctx); err != nil {
			b.Fatal(err)
		}
		defer coll.Drop(ctx)
		batch := make([]any, 0, 10_000)
		start := time.Now()
		for i := range n {
			var id any = ksuid.New().String()
			if form == "objectid" {
				id = objectid.New()
			}
			batch = append(batch, bson.D{{Key: "_id", Value: id}, {Key: "n", Value: i}})
			if len(batch) == cap(batch) || i == n-1 {
				if _, err := coll.InsertMany(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		took := time.Since(start)
		var stats struct {
			Size           int64            `bson:"size"`
			TotalIndexSize int64            `bson:"totalIndexSize"`
			IndexSizes     map[string]int64 `bson:"indexSizes"`
		}
		if err := client.Database("bench").RunCommand(ctx, bson.D{{Key: "collStats", Value: coll.Name()}}).Decode(&stats); err != nil {
			b.Fatal(err)
		}
		count, err := coll.CountDocuments(ctx, bson.D{})
		if err != nil || count != int64(n) {
			b.Fatalf("%s: %d documents (%v); want %d", form, count, err, n)
		}
		b.Logf("%s: %d documents in %v (%.0f/s); collStats size %d, totalIndexSize %d, indexSizes %v",
			form, count, took.Round(time.Millisecond), float64(n)/took.Seconds(), stats.Size, stats.TotalIndexSize, stats.IndexSizes)
		return float64(n) / took.Seconds()
	}
	for b.Loop() {
		var p paired
		for round := range 5 {
			var k, o float64
			if round%2 == 0 {
				k, o = load("ksuid"), load("objectid")
			} else {
				o, k = load("objectid"), load("ksuid")
			}
			p.add(k, o)
		}
		p.report(b, "ksuid", "objectid")
	}
}

// BenchmarkMongoNormalizeLease rewrites binary KSUIDs to strings, on a
// field and on _id, with bsoncodec.NormalizeKSUIDs (the lease and the
// conditional delete) and with the version before them
// (internal/prevnormalize), on the same documents loaded afresh for each,
// in 5 rounds (which goes first alternates), with and without a writer
// $inc-ing random documents beside it. It reports both rates' medians and
// the ratio new/previous with its range; the writer's rate is logged. The
// field runs on SORTID_BENCH_MONGO_DOCS documents (100,000 by default),
// _id on a tenth of them: a move is two round trips per document.
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench MongoNormalizeLease -benchtime 1x -timeout 120m -v
func BenchmarkMongoNormalizeLease(b *testing.B) {
	client := benchMongo(b)
	ctx := context.Background()
	fieldDocs := benchDocs(b, 100_000)
	db := client.Database("bench")
	ids := make([]ksuid.KSUID, fieldDocs)
	for i := range ids {
		ids[i] = ksuid.New()
	}
	load := func(coll *mongo.Collection, field string, n int) {
		if err := coll.Drop(ctx); err != nil {
			b.Fatal(err)
		}
		batch := make([]any, 0, 10_000)
		for i, id := range ids[:n] {
			bin := bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}
			doc := bson.D{{Key: "_id", Value: bin}, {Key: "n", Value: i}, {Key: "count", Value: 0}}
			if field != "_id" {
				doc = bson.D{{Key: "n", Value: i}, {Key: "count", Value: 0}, {Key: field, Value: bin}}
			}
			batch = append(batch, doc)
			if len(batch) == cap(batch) || i == n-1 {
				if _, err := coll.InsertMany(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
	}
	type normalizer func(context.Context, *mongo.Collection, string) (int64, error)
	current := func(ctx context.Context, coll *mongo.Collection, field string) (int64, error) {
		return bsoncodec.NormalizeKSUIDs(ctx, coll, bsoncodec.KSUIDField(field), bsoncodec.NormalizeOptions{})
	}
	previous := func(ctx context.Context, coll *mongo.Collection, field string) (int64, error) {
		return prevnormalize.NormalizeKSUIDs(ctx, coll, field, prevnormalize.NormalizeOptions{})
	}
	run := func(name string, norm normalizer, field string, writer bool) float64 {
		coll := db.Collection("normalize_" + name)
		n := fieldDocs
		if field == "_id" {
			n /= 10
		}
		load(coll, field, n)
		defer coll.Drop(ctx)
		var writes atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		if writer {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
				for {
					select {
					case <-stop:
						return
					default:
					}
					i := rng.IntN(n)
					filter := any(bson.D{{Key: "n", Value: i}})
					if field == "_id" {
						filter = bsoncodec.KSUIDField("_id").Eq(ids[i])
					}
					if _, err := coll.UpdateOne(ctx, filter, bson.D{{Key: "$inc", Value: bson.D{{Key: "count", Value: 1}}}}); err != nil {
						b.Error(err)
						return
					}
					writes.Add(1)
				}
			}()
		}
		start := time.Now()
		moved, err := norm(ctx, coll, field)
		took := time.Since(start)
		close(stop)
		wg.Wait()
		if err != nil || moved != int64(n) {
			b.Fatalf("%s: rewrote %d, %v; want %d", name, moved, err, n)
		}
		b.Logf("%s: %d in %v (%.0f/s), writer %d writes (%.0f/s)", name, n, took.Round(time.Millisecond),
			float64(n)/took.Seconds(), writes.Load(), float64(writes.Load())/took.Seconds())
		return float64(n) / took.Seconds()
	}
	for _, field := range []string{"order_id", "_id"} {
		for _, writer := range []bool{false, true} {
			name := "field"
			if field == "_id" {
				name = "_id"
			}
			if writer {
				name += "/writer"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					var p paired
					for round := range 5 {
						var cur, prev float64
						if round%2 == 0 {
							cur, prev = run("current", current, field, writer), run("previous", previous, field, writer)
						} else {
							prev, cur = run("previous", previous, field, writer), run("current", current, field, writer)
						}
						p.add(cur, prev)
					}
					p.report(b, "current", "previous")
				}
			})
		}
	}
}
