// Package prevnormalize is bsoncodec's NormalizeKSUIDs as it was before
// the lease and the conditional delete (commit 8caabcd), kept only so
// that the benchmarks can measure the new one against it in one run.
package prevnormalize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
)

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
// The _id field cannot be updated in place: each document is deleted and
// inserted again under the new _id. The delete returns the document as it
// was at that instant, and that is what is inserted, so an update that
// was acknowledged before the delete is in the copy, and one after it
// finds the copy (or, in the moment between the two, nothing: the writer
// is told it matched no document). No write that the server acknowledged
// as modifying the document is lost. Before the delete, the document is
// kept in a journal collection, coll's name followed by
// ".sortid_moving"; a run that stops (a cancelled ctx, a crash) between
// the delete and the insert leaves it there, and the next run puts it
// back first. Once the delete is sent, a cancelled ctx no longer stops
// that document's insert. A document whose copy cannot be inserted is
// put back under its old _id, and the error says why: the new _id held
// by a different document (two documents for one ID, written in both
// forms; both are left), or a duplicate on another unique index.
//
// Binary values that are not KSUIDs are left as they are; the error then
// wraps ErrNotKSUID and the value's own error, and names the first such
// document. Documents without the field, with null or with another type
// are not touched.
func NormalizeKSUIDs(ctx context.Context, coll *mongo.Collection, field string, opts NormalizeOptions) (int64, error) {
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
)

func normalize(ctx context.Context, coll *mongo.Collection, field string, form legacyForm, opts NormalizeOptions) (int64, error) {
	batch := opts.BatchSize
	if batch <= 0 {
		batch = 1000
	}
	n := normalizer{coll: coll, field: field, form: form, path: strings.Split(field, ".")}
	var rewritten int64
	if field == "_id" {
		restored, err := n.recover(ctx)
		rewritten += restored
		if err != nil {
			return rewritten, n.fail(err)
		}
	}
	for {
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
		if len(docs) < batch {
			break
		}
		if done == 0 && n.skipped == 0 {
			return rewritten, n.fail(errors.New("a batch rewrote no document: another writer keeps writing the old form"))
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
	var modified int64
	for len(models) > 0 {
		chunk := models[:min(len(models), updatesPerWrite)]
		models = models[len(chunk):]
		res, err := n.coll.BulkWrite(ctx, chunk, options.BulkWrite().SetOrdered(false))
		if res != nil {
			modified += res.ModifiedCount
		}
		if err != nil {
			return modified, err
		}
	}
	return modified, nil
}

// updatesPerWrite caps the updates sent in one command: FerretDB 1.24
// never answers an update command of 100 or more.
const updatesPerWrite = 50

// journal is the collection that holds the documents being moved.
func (n *normalizer) journal() *mongo.Collection {
	return n.coll.Database().Collection(n.coll.Name() + ".sortid_moving")
}

// recover puts back the documents a stopped run deleted but did not
// insert again: for each journal entry whose document is in neither form,
// it inserts the copy.
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
	for _, e := range entries {
		idv := e.Lookup("_id")
		doc, ok := e.Lookup("doc").DocumentOK()
		id, err := n.form.stored(idv)
		if !ok || err != nil {
			return restored, fmt.Errorf("journal entry %v of %s is not one of sortid's", idv, n.journal().Name())
		}
		for _, form := range []any{idv, id} {
			switch err := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: form}}).Err(); {
			case err == nil:
				goto done // the document exists: the stopped run deleted nothing, or finished
			case !errors.Is(err, mongo.ErrNoDocuments):
				return restored, err
			}
		}
		if _, err := n.coll.InsertOne(ctx, withID(doc, id)); err != nil {
			return restored, fmt.Errorf("putting back the document %v that a stopped run deleted (kept in %s): %w", idv, n.journal().Name(), err)
		}
		restored++
	done:
		if _, err := n.journal().DeleteOne(ctx, bson.D{{Key: "_id", Value: idv}}); err != nil {
			return restored, err
		}
	}
	return restored, nil
}

// moveIDs moves each of docs to its _id in the new form: journal it,
// delete it (getting it back as it was at that instant), insert that
// under the new _id, clear the journal. It returns how many it moved.
func (n *normalizer) moveIDs(ctx context.Context, docs []bson.Raw) (int64, error) {
	type move struct {
		old bson.RawValue
		id  any
	}
	var moves []move
	var entries []any
	for _, doc := range docs {
		idv, id, ok := n.decode(doc)
		if !ok {
			continue
		}
		moves = append(moves, move{idv, id})
		entries = append(entries, bson.D{{Key: "_id", Value: idv}, {Key: "doc", Value: doc}})
	}
	if len(moves) == 0 {
		return 0, nil
	}
	if _, err := n.journal().InsertMany(ctx, entries); err != nil {
		return 0, err
	}
	var moved int64
	var cleared bson.A
	defer func() {
		if len(cleared) > 0 {
			n.journal().DeleteMany(context.WithoutCancel(ctx), bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: cleared}}}})
		}
	}()
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			// Not started: these documents are where they were.
			for _, rest := range moves[i:] {
				cleared = append(cleared, rest.old)
			}
			return moved, err
		}
		ok, err := n.moveOne(context.WithoutCancel(ctx), m.old, m.id)
		if err != nil {
			return moved, err // the journal keeps this one
		}
		cleared = append(cleared, m.old)
		if ok {
			moved++
		}
	}
	return moved, nil
}

// moveOne deletes the document with _id old and inserts it again as it
// was deleted, under id in the new form; where that insert fails on a
// duplicate key it puts the document back and notes why. ok is whether
// it moved the document.
func (n *normalizer) moveOne(ctx context.Context, old bson.RawValue, id any) (ok bool, err error) {
	var final bson.Raw
	if err := n.coll.FindOneAndDelete(ctx, bson.D{{Key: "_id", Value: old}}).Decode(&final); errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil // deleted by someone else meanwhile
	} else if err != nil {
		return false, err
	}
	moved := withID(final, id)
	_, err = n.coll.InsertOne(ctx, moved)
	if err == nil {
		return true, nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return false, n.putBack(ctx, final, err)
	}
	// Whose key? The new _id, held by a copy a stopped run made or by a
	// different document; or another unique index.
	same, findErr := n.sameAsExisting(ctx, moved)
	switch {
	case findErr == nil && same:
		return true, nil // the copy is there already
	case findErr == nil:
		n.note(&n.conflict, fmt.Errorf("_id %v (%v) is held by two different documents, in both forms; left both", old, id))
	case errors.Is(findErr, mongo.ErrNoDocuments):
		n.note(&n.conflict, fmt.Errorf("document %v: moved to the new _id, it would break another unique index, so it was left as it was: %w", old, err))
	default:
		return false, n.putBack(ctx, final, findErr)
	}
	n.skip = append(n.skip, old)
	n.skipped++
	return false, n.putBack(ctx, final, nil)
}

// note keeps the first of a kind of error.
func (n *normalizer) note(first *error, err error) {
	if *first == nil {
		*first = n.fail(err)
	}
}

// putBack inserts a deleted document again under its own _id, after its
// move failed with cause (nil for one noted already). The journal keeps
// it where that fails too.
func (n *normalizer) putBack(ctx context.Context, doc bson.Raw, cause error) error {
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

// sameAsExisting reports whether the document stored under copy's _id
// holds the same fields as copy.
func (n *normalizer) sameAsExisting(ctx context.Context, copy bson.D) (bool, error) {
	var existing bson.Raw
	if err := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: copy[0].Value}}).Decode(&existing); err != nil {
		return false, err // mongo.ErrNoDocuments where no document holds it
	}
	elems, err := existing.Elements()
	if err != nil {
		return false, err
	}
	var rest []bson.RawElement
	for _, e := range elems {
		if e.Key() != "_id" {
			rest = append(rest, e)
		}
	}
	if len(rest) != len(copy)-1 {
		return false, nil
	}
	for i, e := range rest {
		want := copy[i+1].Value.(bson.RawValue)
		got := e.Value()
		if e.Key() != copy[i+1].Key || got.Type != want.Type || !bytes.Equal(got.Value, want.Value) {
			return false, nil
		}
	}
	return true, nil
}
