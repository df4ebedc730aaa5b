package bsoncodec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// KSUIDForms counts a collection's documents by the BSON type of one
// field: a check, before a deploy or in a test, that the field holds one
// form.
type KSUIDForms struct {
	String  int64 // BSON string: the form every KSUID is stored in
	Binary  int64 // BSON binary: what earlier versions of this package wrote
	Null    int64
	Missing int64 // documents without the field
	Other   int64 // any other type, arrays included
	// Collation describes a collation other than simple on the collection
	// or on an index of the field ("" where there is none). Under it
	// strings compare by locale and case: KSUIDs' text loses its time
	// order, and at strength 1 or 2 two KSUIDs that differ only in case
	// are equal.
	Collation string
}

// Mixed reports whether the field holds KSUIDs in both forms, the state in
// which a filter with a typed value misses the binary ones.
func (c KSUIDForms) Mixed() bool { return c.Binary > 0 && c.String > 0 }

// ObjectIDForms counts a collection's documents by the BSON type of one
// field that holds ObjectIDs.
type ObjectIDForms struct {
	ObjectID int64 // BSON ObjectId: the form objectid.ObjectID stores
	String   int64 // BSON string: hex another service stored
	Null     int64
	Missing  int64
	Other    int64
}

// Mixed reports whether the field holds ObjectIDs in both forms.
func (c ObjectIDForms) Mixed() bool { return c.ObjectID > 0 && c.String > 0 }

// countTypes counts coll's documents by the BSON type of field ($type's
// names: "string", "binData", "missing", …), in one aggregation over the
// whole collection, and returns the total too.
func countTypes(ctx context.Context, coll *mongo.Collection, field string) (counts map[string]int64, total int64, err error) {
	cur, err := coll.Aggregate(ctx, mongo.Pipeline{{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: bson.D{{Key: "$type", Value: "$" + field}}},
		{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
	}}}})
	if err != nil {
		return nil, 0, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	var groups []struct {
		Type string `bson:"_id"`
		N    int64  `bson:"n"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return nil, 0, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	counts = map[string]int64{}
	for _, g := range groups {
		counts[g.Type] += g.N
		total += g.N
	}
	return counts, total, nil
}

// CountKSUIDForms counts coll's documents by the BSON type of field, in
// one aggregation over the whole collection, and reports a collation
// other than simple on the collection or an index of the field. It checks
// types, not contents: NormalizeKSUIDs reports values of the right type
// that are not KSUIDs.
func CountKSUIDForms(ctx context.Context, coll *mongo.Collection, field KSUIDField) (KSUIDForms, error) {
	counts, total, err := countTypes(ctx, coll, string(field))
	if err != nil {
		return KSUIDForms{}, err
	}
	c := KSUIDForms{String: counts["string"], Binary: counts["binData"], Null: counts["null"], Missing: counts["missing"]}
	c.Other = total - c.String - c.Binary - c.Null - c.Missing
	c.Collation, err = collationOf(ctx, coll, string(field))
	return c, err
}

// CountObjectIDForms counts coll's documents by the BSON type of field, in
// one aggregation over the whole collection.
func CountObjectIDForms(ctx context.Context, coll *mongo.Collection, field ObjectIDField) (ObjectIDForms, error) {
	counts, total, err := countTypes(ctx, coll, string(field))
	if err != nil {
		return ObjectIDForms{}, err
	}
	c := ObjectIDForms{ObjectID: counts["objectId"], String: counts["string"], Null: counts["null"], Missing: counts["missing"]}
	c.Other = total - c.ObjectID - c.String - c.Null - c.Missing
	return c, nil
}

// ErrCollation is wrapped by NormalizeKSUIDs's error for a collection, or
// an index of the field, whose collation is not simple: KSUIDs as strings
// would lose their order there.
var ErrCollation = errors.New("bsoncodec: collation is not simple")

// collationOf describes the first collation other than simple on coll or
// on an index whose key holds field; "" where there is none.
func collationOf(ctx context.Context, coll *mongo.Collection, field string) (string, error) {
	specs, err := coll.Database().ListCollectionSpecifications(ctx, bson.D{{Key: "name", Value: coll.Name()}})
	if err != nil {
		return "", fmt.Errorf("bsoncodec: reading the options of %s: %w", coll.Name(), err)
	}
	var options bson.Raw
	if len(specs) == 1 {
		options = specs[0].Options
	}
	cur, err := coll.Indexes().List(ctx)
	if err != nil {
		return "", fmt.Errorf("bsoncodec: listing the indexes of %s: %w", coll.Name(), err)
	}
	var indexes []bson.Raw
	if err := cur.All(ctx, &indexes); err != nil {
		return "", fmt.Errorf("bsoncodec: listing the indexes of %s: %w", coll.Name(), err)
	}
	return nonSimpleCollation(coll.Name(), options, indexes, field), nil
}

// nonSimpleCollation describes the first collation other than simple in a
// collection's options (as listCollections gives them) or in one of its
// indexes (as listIndexes gives them) whose key holds field.
func nonSimpleCollation(name string, options bson.Raw, indexes []bson.Raw, field string) string {
	describe := func(c bson.RawValue) (string, bool) {
		doc, ok := c.DocumentOK()
		if !ok {
			return "", false
		}
		if locale, _ := doc.Lookup("locale").StringValueOK(); locale == "" || locale == "simple" {
			return "", false
		}
		return doc.String(), true
	}
	if options != nil {
		if d, ok := describe(options.Lookup("collation")); ok {
			return "collection " + name + ": " + d
		}
	}
	for _, ix := range indexes {
		key, ok := ix.Lookup("key").DocumentOK()
		if !ok || key.Lookup(field).Type == 0 {
			continue
		}
		if d, ok := describe(ix.Lookup("collation")); ok {
			indexName, _ := ix.Lookup("name").StringValueOK()
			return "index " + indexName + " of " + name + ": " + d
		}
	}
	return ""
}

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
// alone beside runs on _id and other fields of the collection. A run
// ends when no document is left in the old form, or with an error after
// five batches in a row that settled none (writers that keep changing
// them, or keep writing the old form).
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
	idle := 0 // batches in a row that settled no document
	for {
		for _, l := range leases {
			if err := l.renew(ctx); err != nil {
				return rewritten, n.fail(err)
			}
		}
		filter := bson.D{{Key: field, Value: bson.D{{Key: "$type", Value: form.bsonType}}}}
		switch {
		case len(n.skip) == 0:
		case field == "_id":
			filter[0].Value = append(filter[0].Value.(bson.D), bson.E{Key: "$nin", Value: n.skip})
		default:
			filter = append(filter, bson.E{Key: "_id", Value: bson.D{{Key: "$nin", Value: n.skip}}})
		}
		find := options.Find().SetLimit(int64(batch))
		if field != "_id" {
			find.SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: field, Value: 1}})
		}
		cur, err := coll.Find(ctx, filter, find)
		if err != nil {
			return rewritten, n.fail(err)
		}
		var docs []bson.Raw
		if err := cur.All(ctx, &docs); err != nil {
			return rewritten, n.fail(err)
		}
		// Done only when no document is left in the old form: a short
		// batch may have left one that a writer kept changing while it
		// moved, which the next batch finds again.
		if len(docs) == 0 {
			break
		}
		var done int64
		if field == "_id" {
			done, err = n.moveIDs(ctx, docs)
		} else {
			done, err = n.rewrite(ctx, docs)
		}
		rewritten += done
		if err != nil {
			return rewritten, n.fail(err)
		}
		if opts.Progress != nil {
			opts.Progress(rewritten)
		}
		if done == 0 && n.skipped == 0 {
			idle++
		} else {
			idle = 0
		}
		if idle == idleBatchesBeforeGivingUp {
			return rewritten, n.fail(fmt.Errorf("%d batches in a row rewrote no document: writers keep changing them, or keep writing the old form", idle))
		}
		n.skipped = 0
	}
	if n.notID != nil {
		return rewritten, n.notID
	}
	if n.conflict != nil {
		return rewritten, n.conflict
	}
	return rewritten, nil
}

type normalizer struct {
	coll     *mongo.Collection
	lease    *lease
	restored func(id bson.RawValue)
	field    string
	form     legacyForm
	path     []string
	skip     bson.A // _ids left as they are, so the next batch passes them
	skipped  int    // in this batch
	notID    error  // the first value that is no ID
	conflict error  // the first _id held in both forms by different documents
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
		n.skip = append(n.skip, idv)
		n.skipped++
		if n.notID == nil {
			n.notID = n.fail(fmt.Errorf("document with _id %v: %w: %w", idv, n.form.notID, err))
		}
		return idv, nil, false
	}
	return idv, id, true
}

// rewrite sets the field of docs to the new form, each on the condition
// that it still holds the old value.
func (n *normalizer) rewrite(ctx context.Context, docs []bson.Raw) (int64, error) {
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
		return 0, nil
	}
	res, err := n.coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	if res == nil {
		return 0, err
	}
	return res.ModifiedCount, err
}

// JournalSuffix follows a collection's name to name the collection that
// holds the documents a normalization of _id is moving: each one deleted,
// or about to be, and not yet inserted under its new _id.
const JournalSuffix = ".sortid_moving"

// journal is the collection that holds the documents being moved.
func (n *normalizer) journal() *mongo.Collection {
	return n.coll.Database().Collection(n.coll.Name() + JournalSuffix)
}

// A journal entry is keyed by the document's old _id, and holds the new
// _id and the document exactly as the run last read it: the run deletes
// the document only where it is still equal to that, so what a stopped
// run left in the journal is the last state any writer saw acknowledged.
// (Equal is the server's equality, under which 1 and 1.0 are the same;
// where the delete returns other bytes than the journal's, the entry is
// rewritten with them before the insert, and only a stop between those
// two puts back the number in its earlier type.)
type journalEntry struct {
	Old    bson.RawValue `bson:"_id"`
	New    bson.RawValue `bson:"to"`
	Doc    bson.Raw      `bson:"doc"`
	Holder string        `bson:"holder"`
}

// recover puts back the documents a stopped run deleted but did not insert
// again. Each entry is settled by what the collection holds, so recovery
// can stop anywhere and run again:
//   - the old _id is there: the delete was not sent, or the document was
//     put back; nothing to do;
//   - the new _id is there: the insert was done (writes since may have
//     changed it); nothing to do;
//   - neither: the journal's copy is inserted under the new _id (under
//     the old one where another unique index refuses it), and named
//     through opts.Restored.
//
// It runs under the lease, so no live run's entries are touched.
func (n *normalizer) recover(ctx context.Context) (int64, error) {
	cur, err := n.journal().Find(ctx, bson.D{})
	if err != nil {
		return 0, err
	}
	var entries []bson.Raw
	if err := cur.All(ctx, &entries); err != nil {
		return 0, err
	}
	var restored int64
	for _, raw := range entries {
		var e journalEntry
		if err := bson.Unmarshal(raw, &e); err != nil || e.Doc == nil {
			return restored, fmt.Errorf("journal entry %v of %s is not one of sortid's", raw.Lookup("_id"), n.journal().Name())
		}
		if e.New.Type == 0 {
			// The format before the lease, {_id, doc}: the new _id is
			// the old one's ID in the stored form.
			if e.New, err = newIDOf(e.Old); err != nil {
				return restored, fmt.Errorf("journal entry %v of %s, of the format before the lease: %w", e.Old, n.journal().Name(), err)
			}
		}
		// The entry becomes this run's first: a run that lost its lease
		// and goes on then finds it is not its own, and puts nothing back
		// (see putBack).
		claimed, err := n.journal().UpdateOne(ctx, bson.D{{Key: "_id", Value: e.Old}}, bson.D{{Key: "$set", Value: bson.D{{Key: "holder", Value: n.lease.holder}}}})
		if err != nil {
			return restored, err
		}
		if claimed.MatchedCount == 0 {
			continue
		}
		found, err := n.coll.CountDocuments(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: bson.A{e.Old, e.New}}}}})
		if err != nil {
			return restored, err
		}
		if found == 0 {
			where := e.New
			_, err := n.coll.InsertOne(ctx, withID(e.Doc, e.New))
			if mongo.IsDuplicateKeyError(err) && n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: e.New}}).Err() == nil {
				// Taken between the count and the insert: the run that
				// stopped went on and inserted it meanwhile.
				found, err = 1, nil
			} else if mongo.IsDuplicateKeyError(err) {
				where = e.Old
				if _, err = n.coll.InsertOne(ctx, e.Doc); err == nil {
					n.note(&n.conflict, fmt.Errorf("document %v: put back from %s under its old _id: another unique index refuses it under %v", e.Old, n.journal().Name(), e.New))
				}
			}
			if err != nil {
				return restored, fmt.Errorf("putting back the document %v that a stopped run deleted (kept in %s): %w", e.Old, n.journal().Name(), err)
			}
			if found == 0 {
				restored++
				if n.restored != nil {
					n.restored(where)
				}
			}
		}
		if _, err := n.journal().DeleteOne(ctx, bson.D{{Key: "_id", Value: e.Old}}); err != nil {
			return restored, err
		}
	}
	return restored, nil
}

// newIDOf returns the stored form of an _id in another form: a KSUID in
// binary, an ObjectID's hex.
func newIDOf(old bson.RawValue) (bson.RawValue, error) {
	form := ksuidLegacy
	if old.Type == bson.TypeString {
		form = objectIDLegacy
	}
	id, err := form.stored(old)
	if err != nil {
		return bson.RawValue{}, fmt.Errorf("its _id %v is no ID in a form to move: %w", old, err)
	}
	return bsonValue(id), nil
}

// move is one document to move to its new _id.
type move struct {
	old  bson.RawValue
	id   any
	doc  bson.Raw // as last read; the delete is conditional on it
	done bool     // settled: moved, left, or gone; its entry can go
}

// moveIDs moves each of docs to its _id in the new form: journal all,
// then for each, delete it where it is still as journaled and insert what
// the delete returned under the new _id; then clear the journal. It
// returns how many it moved.
func (n *normalizer) moveIDs(ctx context.Context, docs []bson.Raw) (int64, error) {
	var moves []*move
	for _, doc := range docs {
		idv, id, ok := n.decode(doc)
		if ok {
			moves = append(moves, &move{old: idv, id: id, doc: doc})
		}
	}
	var moved int64
	moves, err := n.settleTaken(ctx, moves, &moved)
	if err != nil || len(moves) == 0 {
		return moved, err
	}
	entries := make([]any, len(moves))
	for i, m := range moves {
		entries[i] = bson.D{{Key: "_id", Value: m.old}, {Key: "to", Value: m.id}, {Key: "doc", Value: m.doc}, {Key: "holder", Value: n.lease.holder}}
	}
	if _, err := n.journal().InsertMany(ctx, entries); err != nil {
		return moved, err
	}
	defer func() {
		// The entries of documents settled, and of those not started:
		// none of them is deleted and not inserted.
		var clear bson.A
		for _, m := range moves {
			if m.done {
				clear = append(clear, m.old)
			}
		}
		if len(clear) > 0 {
			n.journal().DeleteMany(context.WithoutCancel(ctx), bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: clear}}}, {Key: "holder", Value: n.lease.holder}})
		}
	}()
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			for _, rest := range moves[i:] {
				rest.done = true
			}
			return moved, err
		}
		ok, err := n.moveOne(context.WithoutCancel(ctx), m)
		if err != nil {
			return moved, err // the journal keeps this one
		}
		m.done = true
		if ok {
			moved++
		}
	}
	return moved, nil
}

// settleTaken finds the moves whose new _id a document holds already,
// before anything is deleted. Where it holds the same fields, the old
// document is a leftover copy and is deleted (where it is still that
// copy); otherwise both are left and the conflict is noted. It returns
// the moves left to do.
func (n *normalizer) settleTaken(ctx context.Context, moves []*move, moved *int64) ([]*move, error) {
	if len(moves) == 0 {
		return nil, nil
	}
	ids := make(bson.A, len(moves))
	for i, m := range moves {
		ids[i] = m.id
	}
	cur, err := n.coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return nil, err
	}
	var taken []bson.Raw
	if err := cur.All(ctx, &taken); err != nil {
		return nil, err
	}
	if len(taken) == 0 {
		return moves, nil
	}
	holders := make(map[string]bson.Raw, len(taken))
	for _, doc := range taken {
		holders[idKey(doc.Lookup("_id"))] = doc
	}
	left := moves[:0]
	for _, m := range moves {
		holder, ok := holders[idKey(bsonValue(m.id))]
		if !ok {
			left = append(left, m)
			continue
		}
		if sameFields(holder, m.doc) {
			res, err := n.coll.DeleteOne(ctx, n.unchanged(m))
			if err != nil {
				return nil, err
			}
			if res.DeletedCount == 1 {
				*moved++
				continue
			}
		}
		n.note(&n.conflict, fmt.Errorf("_id %v (%v) is held by two different documents, in both forms; left both", m.old, m.id))
		n.skip = append(n.skip, m.old)
		n.skipped++
	}
	return left, nil
}

// idKey is a map key for a BSON value.
func idKey(v bson.RawValue) string { return string(rune(v.Type)) + string(v.Value) }

// bsonValue is id as BSON.
func bsonValue(id any) bson.RawValue {
	t, b, err := bson.MarshalValue(id)
	if err != nil {
		return bson.RawValue{}
	}
	return bson.RawValue{Type: t, Value: b}
}

// unchanged is the filter that matches m's document only where it is
// still as journaled: its old _id and every field equal, none added.
func (n *normalizer) unchanged(m *move) bson.D {
	return bson.D{
		{Key: "_id", Value: m.old},
		{Key: "$expr", Value: bson.D{{Key: "$eq", Value: bson.A{"$$ROOT", bson.D{{Key: "$literal", Value: m.doc}}}}}},
	}
}

// idleBatchesBeforeGivingUp bounds how many batches in a row may find
// documents in the old form and settle none of them.
const idleBatchesBeforeGivingUp = 5

// changesBeforeGivingUp bounds how often a document that changes between
// its journaling and its delete is journaled again in one batch; one left
// is moved in a later batch.
const changesBeforeGivingUp = 10

// moveOne deletes m's document where it is still as journaled and inserts
// what was deleted under the new _id; where the document changed, it
// journals it again and retries. Where the insert fails it puts the
// document back and notes why. ok is whether it moved the document.
func (n *normalizer) moveOne(ctx context.Context, m *move) (ok bool, err error) {
	var deleted bson.Raw
	for change := 0; ; change++ {
		if err := n.lease.keep(ctx); err != nil {
			return false, err
		}
		err := n.coll.FindOneAndDelete(ctx, n.unchanged(m)).Decode(&deleted)
		if err == nil {
			break
		}
		if !errors.Is(err, mongo.ErrNoDocuments) {
			return false, err
		}
		// Changed since it was read, or gone. A writer that changes the
		// document as often as this loop reads it can win every time, in
		// step; a random pause before the read breaks the step (and
		// lets a burst of writes pass), and the read, the journal and the
		// delete then follow each other at once.
		time.Sleep(time.Duration(rand.Int64N(int64(time.Millisecond) << min(change, 4))))
		var now bson.Raw
		switch err := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: m.old}}).Decode(&now); {
		case errors.Is(err, mongo.ErrNoDocuments):
			return false, nil // deleted by someone else meanwhile
		case err != nil:
			return false, err
		case change == changesBeforeGivingUp:
			return false, nil
		}
		m.doc = now
		if err := n.rejournal(ctx, m); err != nil {
			return false, err
		}
	}
	if !bytes.Equal(deleted, m.doc) {
		// Equal to the server, not in bytes (a number's type): the journal
		// gets what was deleted.
		m.doc = deleted
		if err := n.rejournal(ctx, m); err != nil {
			return false, n.putBack(ctx, deleted, err)
		}
	}
	_, err = n.coll.InsertOne(ctx, withID(deleted, m.id))
	switch {
	case err == nil:
		return true, nil
	case !mongo.IsDuplicateKeyError(err):
		return false, n.putBack(ctx, deleted, err)
	}
	// Whose key? The new _id, taken since settleTaken looked (a writer's
	// upsert, or a run that took the lease over from this one and put the
	// document back from the journal: putBack tells), or another unique
	// index.
	var why error
	switch findErr := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: m.id}}).Err(); {
	case findErr == nil:
		why = fmt.Errorf("_id %v (%v) was taken by another document while this one moved; left both", m.old, m.id)
	case errors.Is(findErr, mongo.ErrNoDocuments):
		why = fmt.Errorf("document %v: moved to the new _id, it would break another unique index, so it was left as it was: %w", m.old, err)
	default:
		return false, n.putBack(ctx, deleted, findErr)
	}
	if err := n.putBack(ctx, deleted, nil); err != nil {
		return false, err
	}
	n.note(&n.conflict, why)
	n.skip = append(n.skip, m.old)
	n.skipped++
	return false, nil
}

// rejournal replaces m's journal entry with m.doc; it fails where the
// entry is no longer this run's.
func (n *normalizer) rejournal(ctx context.Context, m *move) error {
	res, err := n.journal().UpdateOne(ctx, bson.D{{Key: "_id", Value: m.old}, {Key: "holder", Value: n.lease.holder}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "doc", Value: m.doc}}}})
	if err == nil && res.MatchedCount == 0 {
		err = fmt.Errorf("%w: the journal entry of %v is no longer this run's (%s)", ErrRunning, m.old, n.lease.holder)
	}
	return err
}

// note keeps the first of a kind of error.
func (n *normalizer) note(first *error, err error) {
	if *first == nil {
		*first = n.fail(err)
	}
}

// putBack inserts a deleted document again under its own _id, after its
// move failed with cause (nil for none). The journal keeps it where that
// fails too. It puts back nothing where the document's journal entry is
// no longer this run's: a run that took the lease over has settled it
// (put it back under the new _id, where writers may have changed it
// since), and a copy under the old _id would be a second document.
func (n *normalizer) putBack(ctx context.Context, doc bson.Raw, cause error) error {
	old := doc.Lookup("_id")
	switch err := n.journal().FindOne(ctx, bson.D{{Key: "_id", Value: old}, {Key: "holder", Value: n.lease.holder}}).Err(); {
	case errors.Is(err, mongo.ErrNoDocuments):
		return fmt.Errorf("%w: this run (%s) lost its lease while it moved document %v, and the run that took over settled it; stopped without putting it back", ErrRunning, n.lease.holder, old)
	case err != nil:
		return fmt.Errorf("putting back document %v after its move failed (%v): %w; it is kept in %s", old, cause, err, n.journal().Name())
	}
	if _, err := n.coll.InsertOne(ctx, doc); err != nil {
		return fmt.Errorf("putting back document %v after its move failed (%v): %w; it is kept in %s", doc.Lookup("_id"), cause, err, n.journal().Name())
	}
	return cause
}

// withID returns doc with its _id replaced by id, the other fields as they
// are, in their order.
func withID(doc bson.Raw, id any) bson.D {
	elems, _ := doc.Elements()
	d := make(bson.D, 0, len(elems))
	d = append(d, bson.E{Key: "_id", Value: id})
	for _, e := range elems {
		if e.Key() != "_id" {
			d = append(d, bson.E{Key: e.Key(), Value: e.Value()})
		}
	}
	return d
}

// sameFields reports whether a and b hold the same fields besides _id, in
// the same order, byte for byte.
func sameFields(a, b bson.Raw) bool {
	rest := func(d bson.Raw) []bson.RawElement {
		elems, _ := d.Elements()
		out := elems[:0]
		for _, e := range elems {
			if e.Key() != "_id" {
				out = append(out, e)
			}
		}
		return out
	}
	ra, rb := rest(a), rest(b)
	if len(ra) != len(rb) {
		return false
	}
	for i := range ra {
		if !bytes.Equal(ra[i], rb[i]) {
			return false
		}
	}
	return true
}
