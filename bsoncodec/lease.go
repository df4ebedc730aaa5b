package bsoncodec

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ErrRunning is wrapped by NormalizeKSUIDs's and NormalizeObjectIDs's
// error when another run holds the lease on the same collection and
// field, or took it over from this run; the error names the holder.
var ErrRunning = errors.New("bsoncodec: another normalization of this field is running")

// LeaseCollection is the collection, in the normalized collection's
// database, that holds one document per collection and field being
// normalized: the lease of the run that works on it.
const LeaseCollection = "sortid_leases"

// defaultLease is how long a lease lasts unless renewed, where
// NormalizeOptions.Lease is 0.
const defaultLease = time.Minute

// lease is one run's hold on a collection and field. Expiry is the
// server's clock ($$NOW), so runs on machines whose clocks disagree
// still exclude each other; renewed is this process's own (monotonic)
// time of the last renewal sent, so the run renews well before the
// server could let another run take over.
type lease struct {
	coll     *mongo.Collection
	key      bson.D
	holder   string
	duration time.Duration
	renewed  time.Time
}

// newHolder names this run: host, process and a random part, so two runs
// in one process differ too.
func newHolder() string {
	host, _ := os.Hostname()
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%s pid %d run %s", host, os.Getpid(), hex.EncodeToString(r[:]))
}

// acquireLease takes the lease on coll's field for this run: where there
// is none, or where the one there has expired (its run is taken to be
// dead). It fails with ErrRunning, naming the holder, where a live run
// holds it.
func acquireLease(ctx context.Context, coll *mongo.Collection, field string, d time.Duration) (*lease, error) {
	l := &lease{
		coll:     coll.Database().Collection(LeaseCollection),
		key:      bson.D{{Key: "collection", Value: coll.Name()}, {Key: "field", Value: field}},
		holder:   newHolder(),
		duration: d,
	}
	// The lease's document is made first where there is none, expired:
	// DocumentDB refuses $$NOW where two upserts race.
	_, err := l.coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: l.key}},
		bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "expires", Value: time.Unix(0, 0)}}}},
		options.UpdateOne().SetUpsert(true))
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return nil, fmt.Errorf("making the lease in %s: %w", LeaseCollection, err)
	}
	// Then one command, atomic on that document: take it if it has
	// expired, else leave it as it is; then see whose it is.
	free := bson.D{{Key: "$lt", Value: bson.A{"$expires", "$$NOW"}}}
	set := func(mine, theirs any) bson.D {
		return bson.D{{Key: "$cond", Value: bson.A{free, mine, theirs}}}
	}
	update := mongo.Pipeline{{{Key: "$set", Value: bson.D{
		{Key: "holder", Value: set(bson.D{{Key: "$literal", Value: l.holder}}, "$holder")},
		{Key: "since", Value: set("$$NOW", "$since")},
		{Key: "expires", Value: set(l.expiry(), "$expires")},
		{Key: "previous", Value: set("$holder", "$previous")},
	}}}}
	sent := time.Now()
	var got struct {
		Holder   string    `bson:"holder"`
		Expires  time.Time `bson:"expires"`
		Previous string    `bson:"previous"`
	}
	err = l.coll.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: l.key}}, update,
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&got)
	if errors.Is(err, mongo.ErrNoDocuments) {
		// Given up (deleted) by its holder between the two commands.
		return acquireLease(ctx, coll, field, d)
	}
	if err != nil {
		return nil, fmt.Errorf("taking the lease in %s: %w", LeaseCollection, err)
	}
	if got.Holder != l.holder {
		return nil, fmt.Errorf("%w: %s holds the lease (in %s) until %s",
			ErrRunning, got.Holder, LeaseCollection, got.Expires.UTC().Format(time.RFC3339Nano))
	}
	l.renewed = sent
	return l, nil
}

// expiry is the lease's new end, computed by the server.
func (l *lease) expiry() bson.D {
	return bson.D{{Key: "$add", Value: bson.A{"$$NOW", l.duration.Milliseconds()}}}
}

// renew extends the lease, or fails with ErrRunning where it is no longer
// this run's: another run found it expired and took it over, and may have
// put back or moved what this run was working on.
func (l *lease) renew(ctx context.Context) error {
	sent := time.Now()
	res, err := l.coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: l.key}, {Key: "holder", Value: l.holder}},
		mongo.Pipeline{{{Key: "$set", Value: bson.D{{Key: "expires", Value: l.expiry()}}}}})
	if err != nil {
		return fmt.Errorf("renewing the lease in %s: %w", LeaseCollection, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("%w: this run (%s) let its lease expire and another took it over; stopped", ErrRunning, l.holder)
	}
	l.renewed = sent
	return nil
}

// keep renews the lease where a third of it has passed since the last
// renewal: called before each command that deletes, so that no delete is
// sent on a lease that could have expired meanwhile.
func (l *lease) keep(ctx context.Context) error {
	if time.Since(l.renewed) < l.duration/3 {
		return nil
	}
	return l.renew(ctx)
}

// release gives the lease up, where it is still this run's.
func (l *lease) release(ctx context.Context) error {
	_, err := l.coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: l.key}, {Key: "holder", Value: l.holder}})
	return err
}
