package bsoncodec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// NormalizeOptions tunes NormalizeKSUIDs and NormalizeObjectIDs.
type NormalizeOptions struct {
	// BatchSize is the number of documents read and rewritten per round
	// trip; 0 means 1000.
	BatchSize int
	// Progress, when not nil, is called after each batch with the number
	// of documents rewritten so far.
	Progress func(rewritten int64)
	// Lease is how long the run's hold on the collection and field lasts
	// unless renewed; 0 means a minute. The run renews it before each
	// batch, and before a delete where a third of it has passed. A run
	// that stopped without giving it up (a crash) keeps the next run out
	// until it expires.
	Lease time.Duration
	// Restored, when not nil, is called for each document that a stopped
	// run of NormalizeKSUIDs or NormalizeObjectIDs on _id had deleted and
	// not yet inserted again, and that this run put back from the
	// journal, with the _id it is now stored under.
	Restored func(id bson.RawValue)
}

// ErrNotKSUID is wrapped by NormalizeKSUIDs's error when documents hold
// binary that is not a KSUID; it names the first.
var ErrNotKSUID = errors.New("bsoncodec: value is not a KSUID")

// ErrNotObjectID is wrapped by NormalizeObjectIDs's error when documents
// hold a string that is not an ObjectID's hex; it names the first.
var ErrNotObjectID = errors.New("bsoncodec: value is not an ObjectID")

// NormalizeKSUIDs rewrites field in every document of coll that holds a
// KSUID as binary (what earlier versions of this package, and
// segmentio/ksuid users, wrote) to the string every KSUID is now stored
// as. It returns the number of documents rewritten.
//
//	n, err := bsoncodec.NormalizeKSUIDs(ctx, events, "order_id", bsoncodec.NormalizeOptions{})
//
// It refuses, before rewriting anything, a collection or an index of the
// field whose collation is not simple (ErrCollation): strings would lose
// their order there. It is idempotent and needs no state to resume: after
// a crash or a cancelled ctx, run it again and it rewrites what is left.
// Each document is rewritten with a filter on its old value, so a
// concurrent change of the field is not overwritten.
//
// One run at a time works on a collection and field: a run holds a lease,
// a document in the database's LeaseCollection, and renews it as it goes
// (NormalizeOptions.Lease). A second run stops at once with an error
// wrapping ErrRunning and naming the holder; after a crash, the next run
// waits out the lease (a minute by default) and then takes over. A run on
// a field other than _id also holds the collection's _id lease, and first
// puts back what a stopped run on _id left in the journal, so it runs
// alone beside runs on _id and other fields of the collection.
//
// A run walks the documents in the old form in batches in _id order. A
// document a writer changed on every try while it was rewritten is read
// again by another pass; after five passes in a row that rewrote nothing,
// the run stops with an error (writers that keep changing the same
// documents). A document written in the old form while the run goes may
// be passed by: stop such writers first.
//
// The _id field cannot be updated in place: each document is deleted and
// inserted again under the new _id. Before the delete, the document is
// kept in a journal collection, coll's name followed by JournalSuffix;
// the delete is conditional on the document being still exactly as
// journaled (where a writer changed it meanwhile, it is journaled again
// and the delete retried), and what the delete returned is what is
// inserted. So an update acknowledged before the delete is in the copy,
// and one after it finds the copy (or, in the moment between the two,
// nothing: the writer is told it matched no document), and a run that
// stops between the delete and the insert leaves in the journal the
// document as it was deleted. The next run puts such documents back
// first (NormalizeOptions.Restored names them). No write that the
// server acknowledged as modifying the document is lost, whichever
// command a crash comes before. Once the delete is sent, a cancelled ctx
// no longer stops that document's insert. A document whose new _id is
// held by a different document (two documents for one ID, written in
// both forms) is left, as is the other, and the error names it; one
// whose copy another unique index refuses is put back under its old _id.
// A document whose journal entry would exceed the 16 MiB a document may
// hold (one within a few dozen bytes of it) is left under its old _id, and
// the error names it.
//
// Binary values that are not KSUIDs are left as they are; the error then
// wraps ErrNotKSUID and the value's own error, and names the first such
// document. Documents without the field, with null or with another type
// are not touched.
func NormalizeKSUIDs(ctx context.Context, coll *mongo.Collection, field KSUIDField, opts NormalizeOptions) (int64, error) {
	collation, err := collationOf(ctx, coll, string(field))
	if err != nil {
		return 0, err
	}
	if collation != "" {
		return 0, fmt.Errorf("bsoncodec: normalizing %s in %s: %w: %s; KSUIDs as strings would not sort by time there",
			field, coll.Name(), ErrCollation, collation)
	}
	return normalize(ctx, coll, string(field), ksuidLegacy, opts)
}

// NormalizeObjectIDs rewrites field in every document of coll that holds
// an ObjectID as a string of hex digits (another service's form) to a
// BSON ObjectId, the form objectid.ObjectID and every driver store, by the
// same rules as NormalizeKSUIDs (_id included). Strings that are not an
// ObjectID's 24 hex digits are left as they are, and the error wraps
// ErrNotObjectID.
func NormalizeObjectIDs(ctx context.Context, coll *mongo.Collection, field ObjectIDField, opts NormalizeOptions) (int64, error) {
	return normalize(ctx, coll, string(field), objectIDLegacy, opts)
}

// legacyForm is what rewriting one ID type's other form needs.
type legacyForm struct {
	bsonType string // the $type alias of the form rewritten
	notID    error  // wrapped for a value of that type that is no ID
	// stored returns the ID in v, of bsonType, in the form it is stored
	// in, or the error that it is none.
	stored func(v bson.RawValue) (any, error)
}

var (
	ksuidLegacy = legacyForm{bsonType: "binData", notID: ErrNotKSUID,
		stored: func(v bson.RawValue) (any, error) {
			var id ksuid.KSUID
			err := id.UnmarshalBSONValue(byte(v.Type), v.Value)
			return id, err
		}}
	objectIDLegacy = legacyForm{bsonType: "string", notID: ErrNotObjectID,
		stored: func(v bson.RawValue) (any, error) {
			s, ok := v.StringValueOK()
			if !ok {
				return nil, fmt.Errorf("BSON %s", v.Type)
			}
			return objectid.Parse(s)
		}}
)

func normalize(ctx context.Context, coll *mongo.Collection, field string, form legacyForm, opts NormalizeOptions) (int64, error) {
	batch := opts.BatchSize
	if batch <= 0 {
		batch = 1000
	}
	n := normalizer{coll: coll, field: field, form: form, path: strings.Split(field, "."), restored: opts.Restored}
	d := opts.Lease
	if d <= 0 {
		d = defaultLease
	}
	var err error
	if n.lease, err = acquireLease(ctx, coll, field, d); err != nil {
		return 0, n.fail(err)
	}
	defer n.lease.release(context.WithoutCancel(ctx))
	leases := []*lease{n.lease}
	if field != "_id" {
		// A document that a normalization of _id has deleted and not yet
		// inserted again is only in its journal, with this field in
		// whatever form it had: such a run must not be live, and what a
		// stopped one left is put back first, so that this run sees it.
		idLease, err := acquireLease(ctx, coll, "_id", d)
		if err != nil {
			return 0, n.fail(fmt.Errorf("a normalization of _id in this collection: %w", err))
		}
		defer idLease.release(context.WithoutCancel(ctx))
		leases = append(leases, idLease)
	}
	var rewritten int64
	restored, err := n.recover(ctx)
	if field == "_id" {
		rewritten += restored
	}
	if err != nil {
		return rewritten, n.fail(err)
	}
	// Passes over the documents in the old form, until one leaves none
	// that writers changed on every try while it rewrote them.
	idle := 0 // passes in a row that rewrote nothing and left documents
	for {
		var pass tally
		w := walk{coll: coll, field: field, form: form.bsonType, batch: int64(batch)}
		for {
			for _, l := range leases {
				if err := l.renew(ctx); err != nil {
					return rewritten, n.fail(err)
				}
			}
			docs, err := w.next(ctx)
			if err != nil {
				return rewritten, n.fail(err)
			}
			if len(docs) == 0 {
				break
			}
			var t tally
			if field == "_id" {
				t, err = n.moveIDs(ctx, docs)
			} else {
				t, err = n.rewrite(ctx, docs)
			}
			rewritten += t.done
			pass.done += t.done
			pass.again += t.again
			if err != nil {
				return rewritten, n.fail(err)
			}
			if opts.Progress != nil {
				opts.Progress(rewritten)
			}
		}
		if pass.again == 0 {
			break
		}
		if pass.done == 0 {
			idle++
		} else {
			idle = 0
		}
		if idle == idlePassesBeforeGivingUp {
			return rewritten, n.fail(fmt.Errorf("%d passes in a row rewrote no document: writers keep changing %d of them", idle, pass.again))
		}
	}
	return rewritten, errors.Join(n.notID, n.conflict, n.tooLarge)
}

// idlePassesBeforeGivingUp bounds how many passes in a row may find
// documents in the old form that keep changing, and settle none.
const idlePassesBeforeGivingUp = 5

// tally is what a batch, or a pass, did.
type tally struct {
	done  int64 // rewritten
	again int64 // changed by writers while rewritten: the next pass reads them again
}

// normalizer is one run's work on a collection and field. Besides what
// it was given, it keeps only the first document left as it was, of
// each reason, for the run's error.
type normalizer struct {
	coll     *mongo.Collection
	lease    *lease
	restored func(id bson.RawValue)
	field    string
	form     legacyForm
	path     []string
	notID    error // a value that is no ID
	conflict error // a new _id held by another document, or refused by a unique index
	tooLarge error // a document too large to journal
}

func (n *normalizer) fail(err error) error {
	return fmt.Errorf("bsoncodec: normalizing %s in %s: %w", n.field, n.coll.Name(), err)
}

// decode reads the ID in doc's field, in its stored form; a value that is
// none is noted and its document skipped.
func (n *normalizer) decode(doc bson.Raw) (bson.RawValue, any, bool) {
	idv := doc.Lookup("_id")
	id, err := n.form.stored(doc.Lookup(n.path...))
	if err != nil {
		n.note(&n.notID, fmt.Errorf("document with _id %v: %w: %w", idv, n.form.notID, err))
		return idv, nil, false
	}
	return idv, id, true
}

// rewrite sets the field of docs to the new form, each on the condition
// that it still holds the old value; one a writer changed meanwhile is
// read again by the next pass.
func (n *normalizer) rewrite(ctx context.Context, docs []bson.Raw) (tally, error) {
	models := make([]mongo.WriteModel, 0, len(docs))
	for _, doc := range docs {
		idv, id, ok := n.decode(doc)
		if !ok {
			continue
		}
		models = append(models, mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: idv}, {Key: n.field, Value: doc.Lookup(n.path...)}}).
			SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: n.field, Value: id}}}}))
	}
	if len(models) == 0 {
		return tally{}, nil
	}
	res, err := n.coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	if res == nil {
		return tally{}, err
	}
	return tally{done: res.ModifiedCount, again: int64(len(models)) - res.ModifiedCount}, err
}

// note keeps the first of a kind of error.
func (n *normalizer) note(first *error, err error) {
	if *first == nil {
		*first = n.fail(err)
	}
}
