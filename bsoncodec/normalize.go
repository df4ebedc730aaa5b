package bsoncodec

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

// KSUIDForms counts a collection's documents by the BSON type of one
// field: a check, before a deploy or in a test, that the field holds one
// form.
type KSUIDForms struct {
	Binary  int64 // BSON binary: ksuid.KSUID's form
	String  int64 // BSON string: ksuid.StringKSUID's form, and other languages'
	Null    int64
	Missing int64 // documents without the field
	Other   int64 // any other type, arrays included
}

// Mixed reports whether the field holds KSUIDs in both forms, the state in
// which a filter with a typed value misses documents.
func (c KSUIDForms) Mixed() bool { return c.Binary > 0 && c.String > 0 }

// CountKSUIDForms counts coll's documents by the BSON type of field, in
// one aggregation over the whole collection. It checks types, not
// contents: NormalizeKSUIDs reports values of the right type that are not
// KSUIDs.
func CountKSUIDForms(ctx context.Context, coll *mongo.Collection, field KSUIDField) (KSUIDForms, error) {
	var c KSUIDForms
	cur, err := coll.Aggregate(ctx, mongo.Pipeline{{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: bson.D{{Key: "$type", Value: "$" + string(field)}}},
		{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
	}}}})
	if err != nil {
		return c, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	var groups []struct {
		Type string `bson:"_id"`
		N    int64  `bson:"n"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return c, fmt.Errorf("bsoncodec: counting the forms of %s in %s: %w", field, coll.Name(), err)
	}
	for _, g := range groups {
		switch g.Type {
		case "binData":
			c.Binary += g.N
		case "string":
			c.String += g.N
		case "null":
			c.Null += g.N
		case "missing":
			c.Missing += g.N
		default:
			c.Other += g.N
		}
	}
	return c, nil
}

// NormalizeOptions tunes NormalizeKSUIDs.
type NormalizeOptions struct {
	// BatchSize is the number of documents read and rewritten per round
	// trip; 0 means 1000.
	BatchSize int
	// Progress, when not nil, is called after each batch with the number
	// of documents rewritten so far.
	Progress func(rewritten int64)
}

// ErrNotKSUID is wrapped by NormalizeKSUIDs's error when documents hold a
// value of the other form's type that is not a KSUID; it names the first.
var ErrNotKSUID = errors.New("bsoncodec: value is not a KSUID")

// NormalizeKSUIDs rewrites field in every document of coll that holds a
// KSUID in the other form to the form of T: binary for ksuid.KSUID, the
// string for ksuid.StringKSUID. It returns the number of documents
// rewritten.
//
//	n, err := bsoncodec.NormalizeKSUIDs[ksuid.StringKSUID](ctx, events, "order_id", bsoncodec.NormalizeOptions{})
//
// It is idempotent and needs no state to resume: after a crash or a
// cancelled ctx, run it again and it rewrites what is left. Each document
// is rewritten with a filter on its old value, so a concurrent change of
// the field is not overwritten.
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
// Values of the other form's type that are not KSUIDs are left as they
// are; the error then wraps ErrNotKSUID and the value's own error, and
// names the first such document. Documents without the field, with null
// or with another type are not touched.
func NormalizeKSUIDs[T ksuid.KSUID | ksuid.StringKSUID](ctx context.Context, coll *mongo.Collection, field KSUIDField, opts NormalizeOptions) (int64, error) {
	var zero T
	from := "string"
	if _, toString := any(zero).(ksuid.StringKSUID); toString {
		from = "binData"
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = 1000
	}
	n := normalizer[T]{coll: coll, field: field, path: strings.Split(string(field), ".")}
	var rewritten int64
	if field == "_id" {
		restored, err := n.recover(ctx)
		rewritten += restored
		if err != nil {
			return rewritten, n.fail(err)
		}
	}
	for {
		filter := bson.D{{Key: string(field), Value: bson.D{{Key: "$type", Value: from}}}}
		switch {
		case len(n.skip) == 0:
		case field == "_id":
			filter[0].Value = append(filter[0].Value.(bson.D), bson.E{Key: "$nin", Value: n.skip})
		default:
			filter = append(filter, bson.E{Key: "_id", Value: bson.D{{Key: "$nin", Value: n.skip}}})
		}
		find := options.Find().SetLimit(int64(batch))
		if field != "_id" {
			find.SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: string(field), Value: 1}})
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
	if n.notKSUID != nil {
		return rewritten, n.notKSUID
	}
	if n.conflict != nil {
		return rewritten, n.conflict
	}
	return rewritten, nil
}

type normalizer[T ksuid.KSUID | ksuid.StringKSUID] struct {
	coll     *mongo.Collection
	field    KSUIDField
	path     []string
	skip     bson.A // _ids left as they are, so the next batch passes them
	skipped  int    // in this batch
	notKSUID error  // the first value that is no KSUID
	conflict error  // the first _id held in both forms by different documents
}

func (n *normalizer[T]) fail(err error) error {
	return fmt.Errorf("bsoncodec: normalizing %s in %s: %w", n.field, n.coll.Name(), err)
}

// decode reads the KSUID in doc's field; a value that is none is noted and
// its document skipped.
func (n *normalizer[T]) decode(doc bson.Raw) (bson.RawValue, ksuid.KSUID, bool) {
	idv := doc.Lookup("_id")
	v := doc.Lookup(n.path...)
	var id ksuid.KSUID
	if err := id.UnmarshalBSONValue(byte(v.Type), v.Value); err != nil {
		n.skip = append(n.skip, idv)
		n.skipped++
		if n.notKSUID == nil {
			n.notKSUID = n.fail(fmt.Errorf("document with _id %v: %w: %w", idv, ErrNotKSUID, err))
		}
		return idv, id, false
	}
	return idv, id, true
}

// rewrite sets the field of docs to the new form, each on the condition
// that it still holds the old value.
func (n *normalizer[T]) rewrite(ctx context.Context, docs []bson.Raw) (int64, error) {
	models := make([]mongo.WriteModel, 0, len(docs))
	for _, doc := range docs {
		idv, id, ok := n.decode(doc)
		if !ok {
			continue
		}
		models = append(models, mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: idv}, {Key: string(n.field), Value: doc.Lookup(n.path...)}}).
			SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: string(n.field), Value: T(id)}}}}))
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
func (n *normalizer[T]) journal() *mongo.Collection {
	return n.coll.Database().Collection(n.coll.Name() + ".sortid_moving")
}

// recover puts back the documents a stopped run deleted but did not
// insert again: for each journal entry whose document is in neither form,
// it inserts the copy.
func (n *normalizer[T]) recover(ctx context.Context) (int64, error) {
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
		var id ksuid.KSUID
		if !ok || id.UnmarshalBSONValue(byte(idv.Type), idv.Value) != nil {
			return restored, fmt.Errorf("journal entry %v of %s is not one of sortid's", idv, n.journal().Name())
		}
		for _, form := range []any{idv, T(id)} {
			switch err := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: form}}).Err(); {
			case err == nil:
				goto done // the document exists: the stopped run deleted nothing, or finished
			case !errors.Is(err, mongo.ErrNoDocuments):
				return restored, err
			}
		}
		if _, err := n.coll.InsertOne(ctx, withID(doc, T(id))); err != nil {
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
func (n *normalizer[T]) moveIDs(ctx context.Context, docs []bson.Raw) (int64, error) {
	type move struct {
		old bson.RawValue
		id  ksuid.KSUID
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
func (n *normalizer[T]) moveOne(ctx context.Context, old bson.RawValue, id ksuid.KSUID) (ok bool, err error) {
	var final bson.Raw
	if err := n.coll.FindOneAndDelete(ctx, bson.D{{Key: "_id", Value: old}}).Decode(&final); errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil // deleted by someone else meanwhile
	} else if err != nil {
		return false, err
	}
	moved := withID(final, T(id))
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
		n.note(&n.conflict, fmt.Errorf("_id %v is held by two different documents, in both forms; left both", old))
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
func (n *normalizer[T]) note(first *error, err error) {
	if *first == nil {
		*first = n.fail(err)
	}
}

// putBack inserts a deleted document again under its own _id, after its
// move failed with cause (nil for one noted already). The journal keeps
// it where that fails too.
func (n *normalizer[T]) putBack(ctx context.Context, doc bson.Raw, cause error) error {
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
func (n *normalizer[T]) sameAsExisting(ctx context.Context, copy bson.D) (bool, error) {
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
