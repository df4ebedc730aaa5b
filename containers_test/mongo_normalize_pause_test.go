package containers

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/sortid/sortid/bsoncodec"
)

// TestMongoNormalizePausedPastLease: a run of NormalizeKSUIDs on _id is
// paused after its delete of a document was answered and before the
// insert of the copy, past its lease. A second run takes the lease over,
// puts the document back under the new _id from the journal and finishes;
// a writer updates every document; then the first run goes on. It must
// not put its copy back anywhere: before, it found the new _id taken and
// put the pre-update copy back under the old binary _id, two documents
// for one KSUID (3 of 3 runs).
func TestMongoNormalizePausedPastLease(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	c := crashCases()[0] // KSUID _id
	coll := mongoCollection(t, ctx, servers.mongo.Database("sortid"))
	insertCrashDocs(t, ctx, coll, c)

	w := newWatched(t, 0, 0, nil)
	w.pauseBefore = func(e *event.CommandStartedEvent) bool {
		target, _ := e.Command.Index(0).Value().StringValueOK()
		return e.CommandName == "insert" && target == coll.Name()
	}
	first := w.start(ctx, c, coll.Name(), crashOptions())
	select {
	case <-w.paused:
	case r := <-first:
		t.Fatalf("the first run ended before its first insert: %d, %v", r.n, r.err)
	}
	expireLease(t, ctx, coll)
	if n, err := c.run(ctx, coll, crashOptions()); err != nil || n != crashDocs {
		t.Errorf("the second run: %d, %v; want all %d moved (one put back from the journal)", n, err, crashDocs)
	}
	cw := &crashWriter{t: t, coll: coll, c: c}
	cw.writeAll(ctx)
	close(w.resume)
	r := <-first
	if !errors.Is(r.err, bsoncodec.ErrRunning) {
		t.Errorf("the first run, continued: %d, %v; want an error wrapping ErrRunning", r.n, r.err)
	}
	checkCrashed(t, ctx, coll, cw)
}
