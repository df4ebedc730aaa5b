package bench

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/wait"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
)

var (
	mongoOnce   sync.Once
	mongoClient *mongo.Client
	mongoErr    error
)

// benchMongo returns a client with bsoncodec's registry, on the server
// named by SORTID_BENCH_MONGO_URI or in a container from
// SORTID_TEST_MONGO_IMAGE (default mongo:8) started once.
func benchMongo(b *testing.B) *mongo.Client {
	mongoOnce.Do(func() {
		ctx := context.Background()
		uri := os.Getenv("SORTID_BENCH_MONGO_URI")
		if uri == "" {
			tclog.SetDefault(tclog.NewNoopLogger())
			image := os.Getenv("SORTID_TEST_MONGO_IMAGE")
			if image == "" {
				image = "mongo:8"
			}
			c, err := testcontainers.Run(ctx, image, testcontainers.WithExposedPorts("27017/tcp"),
				testcontainers.WithWaitStrategy(wait.ForListeningPort("27017/tcp").SkipInternalCheck()))
			if c != nil {
				containers = append(containers, c)
			}
			if err != nil {
				mongoErr = err
				return
			}
			endpoint, err := c.PortEndpoint(ctx, "27017/tcp", "mongodb")
			if err != nil {
				mongoErr = err
				return
			}
			uri = endpoint + "/?directConnection=true"
		}
		mongoClient, mongoErr = mongo.Connect(options.Client().ApplyURI(uri).SetRegistry(bsoncodec.NewRegistry()))
		if mongoErr == nil {
			mongoErr = mongoClient.Ping(ctx, nil)
		}
	})
	if mongoErr != nil {
		b.Fatalf("no MongoDB for the benchmark (set SORTID_BENCH_MONGO_URI, or run make bench-mongo): %v", mongoErr)
	}
	return mongoClient
}

// mongoEvents fills a collection with n events, 100 per order, order_id
// stored as the string (one form), with an index on order_id. It returns the
// orders' IDs, oldest first, one hour apart.
func mongoEvents(b *testing.B, coll *mongo.Collection, n int) []ksuid.KSUID {
	ctx := context.Background()
	if err := coll.Drop(ctx); err != nil {
		b.Fatal(err)
	}
	base := time.Now().Add(-time.Duration(n/100) * time.Hour)
	orders := make([]ksuid.KSUID, n/100)
	for i := range orders {
		var err error
		if orders[i], err = ksuid.NewAt(base.Add(time.Duration(i) * time.Hour)); err != nil {
			b.Fatal(err)
		}
	}
	var batch []any
	for i := range n {
		batch = append(batch, bson.D{{Key: "order_id", Value: orders[i%len(orders)]}, {Key: "n", Value: i}})
		if len(batch) == 10000 || i == n-1 {
			if _, err := coll.InsertMany(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "order_id", Value: 1}}}); err != nil {
		b.Fatal(err)
	}
	return orders
}

// BenchmarkMongoFilters compares, on 100,000 events with an index on
// order_id, the filters that match both stored forms of a KSUID
// (bsoncodec.KSUIDField) with the filters of the typed value, which match
// one: equality (100 events) and a window of ten hours (1,000 events). It
// logs what the server's explain says of each, once.
func BenchmarkMongoFilters(b *testing.B) {
	client := benchMongo(b)
	coll := client.Database("bench").Collection("events")
	orders := mongoEvents(b, coll, 100_000)
	defer coll.Drop(context.Background())
	a := orders[len(orders)/2]
	lo, _ := ksuid.MinAt(orders[100].Time())
	hi, _ := ksuid.MaxAt(orders[109].Time())
	f := bsoncodec.KSUIDField("order_id")
	for _, c := range []struct {
		name   string
		filter bson.D
		want   int
	}{
		{"eq/typed", bson.D{{Key: "order_id", Value: a}}, 100},
		{"eq/both-forms", f.Eq(a).D(), 100},
		{"window/typed", bson.D{{Key: "order_id", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lte", Value: hi}}}}, 1000},
		{"window/both-forms", f.Between(lo, hi).D(), 1000},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			logExplain(b, coll, c.filter)
			for b.Loop() {
				cur, err := coll.Find(ctx, c.filter)
				if err != nil {
					b.Fatal(err)
				}
				var docs []bson.Raw
				if err := cur.All(ctx, &docs); err != nil {
					b.Fatal(err)
				}
				if len(docs) != c.want {
					b.Fatalf("%d documents, want %d", len(docs), c.want)
				}
			}
		})
	}
}

var explained sync.Map

// logExplain prints, once per benchmark name, the parts of the explain of
// a find with filter that say whether an index serves it: MongoDB's
// winning plan stages, FerretDB's pushdown flags and SQLite plan.
func logExplain(b *testing.B, coll *mongo.Collection, filter bson.D) {
	if _, done := explained.LoadOrStore(b.Name(), true); done {
		return
	}
	var res bson.Raw
	err := coll.Database().RunCommand(context.Background(), bson.D{
		{Key: "explain", Value: bson.D{{Key: "find", Value: coll.Name()}, {Key: "filter", Value: filter}}},
		{Key: "verbosity", Value: "queryPlanner"},
	}).Decode(&res)
	if err != nil {
		fmt.Printf("explain %s: %v\n", b.Name(), err)
		return
	}
	var parts []string
	for _, k := range []string{"filterPushdown", "sortPushdown", "limitPushdown"} {
		if v, err := res.LookupErr(k); err == nil {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	if wp, err := res.LookupErr("queryPlanner", "winningPlan"); err == nil {
		parts = append(parts, "stages="+strings.Join(stages(wp), ">"))
	} else if qp, err := res.LookupErr("queryPlanner"); err == nil {
		js := qp.String()
		if len(js) > 300 {
			js = js[:300] + "…"
		}
		parts = append(parts, "queryPlanner="+js)
	}
	fmt.Printf("explain %s: %s\n", b.Name(), strings.Join(parts, " "))
}

// stages lists the stage names of a MongoDB plan, outermost first; the
// branches of an OR in brackets.
func stages(plan bson.RawValue) []string {
	doc, ok := plan.DocumentOK()
	if !ok {
		return nil
	}
	var out []string
	if s, ok := doc.Lookup("stage").StringValueOK(); ok {
		if idx, ok := doc.Lookup("indexName").StringValueOK(); ok {
			s += "(" + idx + ")"
		}
		out = append(out, s)
	}
	for _, k := range []string{"inputStage", "queryPlan"} {
		if in, err := doc.LookupErr(k); err == nil {
			out = append(out, stages(in)...)
		}
	}
	if ins, ok := doc.Lookup("inputStages").ArrayOK(); ok {
		vals, _ := ins.Values()
		var branch []string
		for _, in := range vals {
			branch = append(branch, strings.Join(stages(in), ">"))
		}
		out = append(out, "["+strings.Join(branch, " | ")+"]")
	}
	return out
}

// BenchmarkMongoNormalize rewrites the binary KSUIDs of a collection to
// strings with bsoncodec.NormalizeKSUIDs, and reports documents/s: half of
// 1,000 documents, and 10 of 100,000 (FerretDB 1.24 reads the whole
// collection for each conditional update, so more would take hours).
func BenchmarkMongoNormalize(b *testing.B) {
	client := benchMongo(b)
	coll := client.Database("bench").Collection("normalize")
	defer coll.Drop(context.Background())
	for _, c := range []struct {
		name      string
		size, bin int
	}{
		{"1k-docs/500-binary", 1000, 500},
		{"100k-docs/10-binary", 100_000, 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			var rewritten int64
			var took time.Duration
			for b.Loop() {
				b.StopTimer()
				if err := coll.Drop(ctx); err != nil {
					b.Fatal(err)
				}
				every := c.size / c.bin
				var batch []any
				for i := range c.size {
					id := ksuid.New()
					var v any = id
					if i%every == 0 {
						v = bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}
					}
					batch = append(batch, bson.D{{Key: "order_id", Value: v}, {Key: "n", Value: i}})
					if len(batch) == 10000 || i == c.size-1 {
						if _, err := coll.InsertMany(ctx, batch); err != nil {
							b.Fatal(err)
						}
						batch = batch[:0]
					}
				}
				b.StartTimer()
				start := time.Now()
				n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "order_id", bsoncodec.NormalizeOptions{})
				took += time.Since(start)
				if err != nil || n != int64(c.bin) {
					b.Fatalf("rewrote %d, %v; want %d", n, err, c.bin)
				}
				rewritten += n
			}
			b.ReportMetric(float64(rewritten)/took.Seconds(), "docs/s")
		})
	}
}

// BenchmarkMongoForms loads 1,000,000 events {order_id, n}, with an
// index on order_id, in each form a KSUID field can hold: the string
// every writer stores, and the binary of earlier versions, through
// InsertMany in batches of 10,000. Each round loads both, one after the
// other (which goes first alternates); it reports the median insert rate
// of each and the ratio's median and range over 5 rounds, and logs the
// collection's data and index bytes as collStats gives them.
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench MongoForms -benchtime 1x -timeout 60m -v
func BenchmarkMongoForms(b *testing.B) {
	client := benchMongo(b)
	ctx := context.Background()
	const n = 1_000_000
	orders := make([]ksuid.KSUID, n/100)
	for i := range orders {
		orders[i] = ksuid.New()
	}
	load := func(form string) float64 {
		coll := client.Database("bench").Collection("forms_" + form)
		if err := coll.Drop(ctx); err != nil {
			b.Fatal(err)
		}
		defer coll.Drop(ctx)
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "order_id", Value: 1}}}); err != nil {
			b.Fatal(err)
		}
		batch := make([]any, 0, 10_000)
		start := time.Now()
		for i := range n {
			id := orders[i%len(orders)]
			var v any = id
			if form == "binary" {
				v = bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}
			}
			batch = append(batch, bson.D{{Key: "order_id", Value: v}, {Key: "n", Value: i}})
			if len(batch) == cap(batch) {
				if _, err := coll.InsertMany(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		took := time.Since(start)
		var stats struct {
			Size           int64 `bson:"size"`
			StorageSize    int64 `bson:"storageSize"`
			TotalIndexSize int64 `bson:"totalIndexSize"`
			Count          int64 `bson:"count"`
		}
		if err := client.Database("bench").RunCommand(ctx, bson.D{{Key: "collStats", Value: coll.Name()}}).Decode(&stats); err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: %d documents in %v; collStats size %d, storageSize %d, totalIndexSize %d",
			form, stats.Count, took.Round(time.Millisecond), stats.Size, stats.StorageSize, stats.TotalIndexSize)
		return float64(n) / took.Seconds()
	}
	for b.Loop() {
		var strs, bins, ratios []float64
		for round := range 5 {
			var s, bin float64
			if round%2 == 0 {
				s, bin = load("string"), load("binary")
			} else {
				bin, s = load("binary"), load("string")
			}
			strs, bins, ratios = append(strs, s), append(bins, bin), append(ratios, s/bin)
		}
		median := func(xs []float64) float64 { s := slices.Clone(xs); slices.Sort(s); return s[len(s)/2] }
		b.ReportMetric(median(strs), "string-docs/s")
		b.ReportMetric(median(bins), "binary-docs/s")
		b.ReportMetric(median(ratios), "ratio-median")
		b.ReportMetric(slices.Min(ratios), "ratio-min")
		b.ReportMetric(slices.Max(ratios), "ratio-max")
	}
}
