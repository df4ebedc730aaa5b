package containers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
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

// The tests here stop a normalizer right before each command it sends,
// as a crash there would: its goroutine blocks in the driver's
// command-started event, before the command is written, and never goes on,
// so the server sees exactly the commands sent before that one. Before a
// chosen command a writer $incs and $sets every document, counting only
// the writes it read back; a second run starts at the same point. Then the
// stopped run's lease is made to expire (TestMongoNormalizeLeaseExpires
// waits for a real one) and a third run finishes the work. Asserted at
// the end: every document there once, its ID in the stored form, every
// write the writer read back still there, the journal and the lease gone.

// idCase is one normalization: an ID type and a field.
type idCase struct {
	name  string
	field string
	// doc is document i with its ID in the form to rewrite.
	doc func(i int) bson.D
	// filter finds document i whichever form its ID is in.
	filter func(i int) any
	// stored reports whether document d holds ID i in the stored form.
	stored func(d bson.Raw, i int) bool
	// run normalizes coll.
	run func(ctx context.Context, coll *mongo.Collection, opts bsoncodec.NormalizeOptions) (int64, error)
}

const crashDocs = 4 // with a batch of 3: two batches, the second short

func crashCases() []idCase {
	ks := make([]ksuid.KSUID, crashDocs)
	oids := make([]objectid.ObjectID, crashDocs)
	for i := range ks {
		ks[i] = ksuid.New()
		oids[i] = objectid.New()
	}
	byN := func(i int) any { return bson.D{{Key: "n", Value: i}} }
	isKSUID := func(field string) func(bson.Raw, int) bool {
		return func(d bson.Raw, i int) bool {
			s, ok := d.Lookup(field).StringValueOK()
			return ok && s == ks[i].String()
		}
	}
	isObjectID := func(field string) func(bson.Raw, int) bool {
		return func(d bson.Raw, i int) bool {
			v, ok := d.Lookup(field).ObjectIDOK()
			return ok && v == bson.ObjectID(oids[i])
		}
	}
	fields := func(i int) bson.D {
		return bson.D{{Key: "n", Value: i}, {Key: "count", Value: 0}, {Key: "paid", Value: false}}
	}
	return []idCase{{
		name: "KSUID _id", field: "_id",
		doc:    func(i int) bson.D { return append(bson.D{{Key: "_id", Value: legacyKSUID(ks[i])}}, fields(i)...) },
		filter: func(i int) any { return bsoncodec.KSUIDField("_id").Eq(ks[i]) },
		stored: isKSUID("_id"),
		run: func(ctx context.Context, coll *mongo.Collection, opts bsoncodec.NormalizeOptions) (int64, error) {
			return bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", opts)
		},
	}, {
		name: "ObjectID _id", field: "_id",
		doc:    func(i int) bson.D { return append(bson.D{{Key: "_id", Value: oids[i].String()}}, fields(i)...) },
		filter: func(i int) any { return bsoncodec.ObjectIDField("_id").Eq(oids[i]) },
		stored: isObjectID("_id"),
		run: func(ctx context.Context, coll *mongo.Collection, opts bsoncodec.NormalizeOptions) (int64, error) {
			return bsoncodec.NormalizeObjectIDs(ctx, coll, "_id", opts)
		},
	}, {
		name: "KSUID field", field: "order_id",
		doc:    func(i int) bson.D { return append(fields(i), bson.E{Key: "order_id", Value: legacyKSUID(ks[i])}) },
		filter: byN,
		stored: isKSUID("order_id"),
		run: func(ctx context.Context, coll *mongo.Collection, opts bsoncodec.NormalizeOptions) (int64, error) {
			return bsoncodec.NormalizeKSUIDs(ctx, coll, "order_id", opts)
		},
	}, {
		name: "ObjectID field", field: "session",
		doc:    func(i int) bson.D { return append(fields(i), bson.E{Key: "session", Value: oids[i].String()}) },
		filter: byN,
		stored: isObjectID("session"),
		run: func(ctx context.Context, coll *mongo.Collection, opts bsoncodec.NormalizeOptions) (int64, error) {
			return bsoncodec.NormalizeObjectIDs(ctx, coll, "session", opts)
		},
	}}
}

// watched is a normalizer run on a client of its own whose commands are
// counted: before command writeAt (1-based) it calls write; before command
// stopAt it stops for good.
type watched struct {
	client  *mongo.Client
	writeAt int
	write   func()
	stopAt  int
	// stopBefore, where not nil, stops the run before the first command
	// for which it returns true.
	stopBefore func(*event.CommandStartedEvent) bool
	stopped    chan struct{}
	// pauseBefore, where not nil, pauses the run before the first command
	// for which it returns true, closing paused, until resume is closed:
	// a process stopped (SIGSTOP, a frozen VM) and continued.
	pauseBefore func(*event.CommandStartedEvent) bool
	paused      chan struct{}
	resume      chan struct{}
	mu          sync.Mutex
	commands    []string
	closing     bool // Disconnect's own commands are not the run's
}

func newWatched(t *testing.T, writeAt, stopAt int, write func()) *watched {
	t.Helper()
	w := &watched{writeAt: writeAt, stopAt: stopAt, write: write, stopped: make(chan struct{}),
		paused: make(chan struct{}), resume: make(chan struct{})}
	monitor := &event.CommandMonitor{Started: w.started}
	client, err := mongo.Connect(options.Client().ApplyURI(servers.mongoURI).SetMonitor(monitor).SetMaxPoolSize(1))
	if err != nil {
		t.Fatal(err)
	}
	w.client = client
	t.Cleanup(func() {
		select {
		case <-w.stopped: // its connection is held by the stopped run
		default:
			w.mu.Lock()
			w.closing = true
			w.mu.Unlock()
			client.Disconnect(context.Background())
		}
	})
	return w
}

func (w *watched) started(_ context.Context, e *event.CommandStartedEvent) {
	target, _ := e.Command.Index(0).Value().StringValueOK()
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		return
	}
	name := e.CommandName + " " + target
	w.commands = append(w.commands, name)
	i := len(w.commands)
	pause := w.pauseBefore != nil && w.pauseBefore(e)
	if pause {
		w.pauseBefore = nil
	}
	w.mu.Unlock()
	if pause {
		close(w.paused)
		<-w.resume
	}
	if i == w.writeAt && w.write != nil {
		w.write()
	}
	if i == w.stopAt || w.stopBefore != nil && w.stopBefore(e) {
		close(w.stopped)
		select {} // the crash: nothing more is sent
	}
}

func (w *watched) names() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.commands...)
}

// runResult is what a run returned.
type runResult struct {
	n   int64
	err error
}

// start runs c on w's client in the background.
func (w *watched) start(ctx context.Context, c idCase, collName string, opts bsoncodec.NormalizeOptions) chan runResult {
	done := make(chan runResult, 1)
	go func() {
		n, err := c.run(ctx, w.client.Database("sortid").Collection(collName), opts)
		done <- runResult{n, err}
	}()
	return done
}

// crashWriter $incs and $sets each document through filter and counts a
// write only once it has read it back.
type crashWriter struct {
	t     *testing.T
	coll  *mongo.Collection
	c     idCase
	acked [crashDocs]int64
}

func (cw *crashWriter) writeAll(ctx context.Context) {
	for i := range crashDocs {
		res, err := cw.coll.UpdateOne(ctx, cw.c.filter(i),
			bson.D{{Key: "$inc", Value: bson.D{{Key: "count", Value: 1}}}, {Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
		if err != nil {
			cw.t.Errorf("writer: %v", err)
			return
		}
		if res.ModifiedCount != 1 {
			continue // between its delete and its insert: told so
		}
		var got struct {
			Count int64 `bson:"count"`
		}
		if err := cw.coll.FindOne(ctx, cw.c.filter(i)).Decode(&got); err != nil {
			cw.t.Errorf("writer reading back document %d: %v", i, err)
			return
		}
		if got.Count != cw.acked[i]+1 {
			cw.t.Errorf("writer: document %d reads count %d after %d acknowledged $incs", i, got.Count, cw.acked[i]+1)
			return
		}
		cw.acked[i]++
	}
}

// checkCrashed reads coll: every document once, its ID stored, every
// acknowledged write there; the journal empty; no lease left.
func checkCrashed(t *testing.T, ctx context.Context, coll *mongo.Collection, cw *crashWriter) {
	t.Helper()
	cur, err := coll.Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.Raw
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	var seen [crashDocs]int
	for _, d := range docs {
		n, ok := d.Lookup("n").AsInt64OK()
		if !ok || n < 0 || int(n) >= crashDocs {
			t.Errorf("a document that is none of the test's: %v", d)
			continue
		}
		seen[n]++
		if !cw.c.stored(d, int(n)) {
			t.Errorf("document %d: %s is not its ID in the stored form: %v", n, cw.c.field, d)
		}
		count, _ := d.Lookup("count").AsInt64OK()
		paid, _ := d.Lookup("paid").BooleanOK()
		if count != cw.acked[n] || paid != (cw.acked[n] > 0) {
			t.Errorf("document %d: count %d, paid %v; the writer read back %d $incs", n, count, paid, cw.acked[n])
		}
	}
	for i, k := range seen {
		if k != 1 {
			t.Errorf("document %d is there %d times", i, k)
		}
	}
	journal := coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix)
	if left, err := journal.CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d entries (%v)", left, err)
	}
	leases := coll.Database().Collection(bsoncodec.LeaseCollection)
	if left, err := leases.CountDocuments(ctx, bson.D{{Key: "_id.collection", Value: coll.Name()}}); err != nil || left != 0 {
		t.Errorf("%d leases left on %s (%v)", left, coll.Name(), err)
	}
}

// expireLease makes the lease on coll expire now, as waiting would.
func expireLease(t *testing.T, ctx context.Context, coll *mongo.Collection) {
	t.Helper()
	_, err := coll.Database().Collection(bsoncodec.LeaseCollection).UpdateMany(ctx,
		bson.D{{Key: "_id.collection", Value: coll.Name()}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "expires", Value: time.Now().Add(-time.Hour)}}}})
	if err != nil {
		t.Fatal(err)
	}
}

// crashVariant is where the run stops, counted from the command the
// writer writes before (-1: it does not stop), and what second run starts
// there too.
type crashVariant struct {
	after  int
	second secondRun
}

type secondRun int

const (
	noSecond     secondRun = iota
	secondFull             // a second run, to its end
	secondRecove           // a second run that stops before its first batch
)

// TestMongoNormalizeCrashAtEveryCommand: for each ID type and field, and
// for each command the normalizer sends, the writer writes right before it
// (and in some variants a second run starts there); the normalizer stops
// for good right before that command, the next, or the one after, or does
// not stop; a third run finishes. Every variant runs on KSUIDs on _id;
// ObjectIDs on _id share its code and run the two-run ones; a field,
// rewritten in place, runs the first and the last. Before the journal held
// the document as deleted and the lease, a write before a delete and a
// stop before the insert lost the write, and a second run's recovery
// cleared a live run's journal, so a stop before the insert lost the
// document.
func TestMongoNormalizeCrashAtEveryCommand(t *testing.T) {
	needServers(t)
	variants := map[string][]crashVariant{
		"KSUID _id": {{0, noSecond}, {1, noSecond}, {2, noSecond}, {-1, noSecond},
			{1, secondFull}, {-1, secondFull}, {1, secondRecove}, {2, secondRecove}},
		"ObjectID _id": {{1, noSecond}, {-1, secondFull}, {1, secondRecove}},
	}
	for _, c := range crashCases() {
		vs, ok := variants[c.name]
		if !ok {
			vs = []crashVariant{{0, noSecond}, {-1, secondFull}}
		}
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			// The commands of a run with nothing beside it.
			coll := mongoCollection(t, ctx, servers.mongoPlainDB)
			insertCrashDocs(t, ctx, coll, c)
			w := newWatched(t, 0, 0, nil)
			if r := <-w.start(ctx, c, coll.Name(), crashOptions()); r.err != nil || r.n != crashDocs {
				t.Fatalf("a run alone: %d, %v", r.n, r.err)
			}
			commands := w.names()
			t.Logf("%d commands: %s", len(commands), strings.Join(commands, ", "))
			for at := 1; at <= len(commands); at++ {
				for _, v := range vs {
					name := fmt.Sprintf("before_%d_%s/", at, strings.ReplaceAll(commands[at-1], " ", "_"))
					if v.after < 0 {
						name += "no_stop"
					} else {
						name += fmt.Sprintf("stop_%d", v.after)
					}
					name += [...]string{"", "_second_run", "_second_run_stopped"}[v.second]
					t.Run(name, func(t *testing.T) { crashAt(t, c, coll, at, v) })
				}
			}
		})
	}
}

func crashOptions() bsoncodec.NormalizeOptions {
	return bsoncodec.NormalizeOptions{BatchSize: 3, Lease: time.Minute}
}

func insertCrashDocs(t *testing.T, ctx context.Context, coll *mongo.Collection, c idCase) {
	t.Helper()
	docs := make([]any, crashDocs)
	for i := range docs {
		docs[i] = c.doc(i)
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

// crashAt runs one case: the writer (and where v.second a second run)
// before command at, the run stopped before command at+v.after (not at
// all where v.after < 0), then a run that finishes.
//
// Each case empties coll, its journal and its lease rather than making a
// collection of its own: creating one is DDL on DocumentDB, and costs
// more than the case. A run stopped in an earlier case sends nothing
// more.
func crashAt(t *testing.T, c idCase, coll *mongo.Collection, at int, v crashVariant) {
	ctx := testContext(t)
	for _, empty := range []struct {
		coll   *mongo.Collection
		filter bson.D
	}{
		{coll, bson.D{}},
		{coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix), bson.D{}},
		{coll.Database().Collection(bsoncodec.LeaseCollection), bson.D{{Key: "_id.collection", Value: coll.Name()}}},
	} {
		if _, err := empty.coll.DeleteMany(ctx, empty.filter); err != nil {
			t.Fatal(err)
		}
	}
	insertCrashDocs(t, ctx, coll, c)
	cw := &crashWriter{t: t, coll: coll, c: c}
	var second runResult
	stopAt := at + v.after
	if v.after < 0 {
		stopAt = 0
	}
	secondStopped, held := false, false
	w := newWatched(t, at, stopAt, func() {
		cw.writeAll(ctx)
		held = leaseLive(t, ctx, coll)
		switch v.second {
		case secondFull:
			second.n, second.err = c.run(ctx, coll, crashOptions())
		case secondRecove:
			w2 := newWatched(t, 0, 0, nil)
			w2.stopBefore = func(e *event.CommandStartedEvent) bool { return isBatchFind(e, coll.Name()) }
			select {
			case second = <-w2.start(ctx, c, coll.Name(), crashOptions()):
			case <-w2.stopped:
				secondStopped = true
			}
		}
	})
	done := w.start(ctx, c, coll.Name(), crashOptions())
	var first runResult
	stopped := false
	select {
	case <-w.stopped:
		stopped = true
	case first = <-done:
	}
	commands := w.names()
	switch {
	case v.second == noSecond:
	case held && (secondStopped || !errors.Is(second.err, bsoncodec.ErrRunning)):
		t.Errorf("a second run beside one holding the lease: %d, %v, stopped after its recovery %v; want ErrRunning", second.n, second.err, secondStopped)
	case !held && !secondStopped && second.err != nil:
		t.Errorf("a second run while the first held no lease: %d, %v", second.n, second.err)
	}
	if !stopped {
		// Where the second run took the lease first, the first stops
		// with ErrRunning; else it finishes.
		if first.err != nil && !errors.Is(first.err, bsoncodec.ErrRunning) {
			t.Errorf("the first run, not stopped: %d, %v", first.n, first.err)
		}
	} else {
		// A run that finds the stopped run's lease live keeps out.
		live := leaseLive(t, ctx, coll)
		if n, err := c.run(ctx, coll, crashOptions()); live && !errors.Is(err, bsoncodec.ErrRunning) {
			t.Errorf("a run while the stopped one's lease is live: %d, %v; want ErrRunning", n, err)
		}
	}
	if stopped || secondStopped {
		expireLease(t, ctx, coll)
	}
	var restored []string
	opts := crashOptions()
	opts.Restored = func(id bson.RawValue) { restored = append(restored, id.String()) }
	if n, err := c.run(ctx, coll, opts); err != nil {
		t.Errorf("the run after: %d, %v", n, err)
	}
	if t.Failed() {
		t.Logf("commands: %s; restored: %v", strings.Join(commands, ", "), restored)
	}
	checkCrashed(t, ctx, coll, cw)
}

// isBatchFind reports whether e is the find of a batch to rewrite in
// collection coll: a find there with $type in its filter.
func isBatchFind(e *event.CommandStartedEvent, coll string) bool {
	target, _ := e.Command.Index(0).Value().StringValueOK()
	filter, _ := e.Command.Lookup("filter").DocumentOK()
	return e.CommandName == "find" && target == coll && strings.Contains(filter.String(), `"$type"`)
}

// leaseLive reports whether a run holds a lease on coll that has not
// expired.
func leaseLive(t *testing.T, ctx context.Context, coll *mongo.Collection) bool {
	t.Helper()
	n, err := coll.Database().Collection(bsoncodec.LeaseCollection).CountDocuments(ctx, bson.D{
		{Key: "_id.collection", Value: coll.Name()}, {Key: "expires", Value: bson.D{{Key: "$gt", Value: time.Now()}}}})
	if err != nil {
		t.Fatal(err)
	}
	return n > 0
}
