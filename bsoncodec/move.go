package bsoncodec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// move is one document to move to its new _id.
type move struct {
	old  bson.RawValue
	id   any
	doc  bson.Raw // as last read; the delete is conditional on it
	done bool     // settled: moved, left, or gone; its entry can go
}

// moveIDs moves each of docs to its _id in the new form: journal all,
// then for each, delete it where it is still as journaled and insert what
// the delete returned under the new _id; then clear the journal.
func (n *normalizer) moveIDs(ctx context.Context, docs []bson.Raw) (tally, error) {
	var t tally
	var moves []*move
	for _, doc := range docs {
		idv, id, ok := n.decode(doc)
		if ok {
			moves = append(moves, &move{old: idv, id: id, doc: doc})
		}
	}
	moves, err := n.settleTaken(ctx, moves, &t)
	if err != nil || len(moves) == 0 {
		return t, err
	}
	entries := make([]any, 0, len(moves))
	journaled := moves[:0]
	for _, m := range moves {
		entry, err := n.entry(m)
		if err != nil {
			n.note(&n.tooLarge, err)
			continue
		}
		entries = append(entries, entry)
		journaled = append(journaled, m)
	}
	moves = journaled
	if len(moves) == 0 {
		return t, nil
	}
	if _, err := n.journal().InsertMany(ctx, entries); err != nil {
		return t, err
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
			return t, err
		}
		got, err := n.moveOne(context.WithoutCancel(ctx), m)
		if err != nil {
			return t, err // the journal keeps this one
		}
		m.done = true
		switch got {
		case moved:
			t.done++
		case changing:
			t.again++
		}
	}
	return t, nil
}

// settleTaken finds the moves whose new _id a document holds already,
// before anything is deleted. Where it holds the same fields, the old
// document is a leftover copy and is deleted (where it is still that
// copy); otherwise both are left and the conflict is noted. It returns
// the moves left to do.
func (n *normalizer) settleTaken(ctx context.Context, moves []*move, t *tally) ([]*move, error) {
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
				t.done++
				continue
			}
		}
		n.note(&n.conflict, fmt.Errorf("_id %v (%v) is held by two different documents, in both forms; left both", m.old, m.id))
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

// changesBeforeGivingUp bounds how often a document that changes between
// its journaling and its delete is journaled again in one batch; one left
// is moved in a later pass.
const changesBeforeGivingUp = 10

// outcome is what moveOne did with a document.
type outcome int

const (
	moved    outcome = iota // under its new _id
	gone                    // deleted by someone else meanwhile
	changing                // changed on every try: the next pass reads it again
	left                    // left under its old _id; the reason is noted
)

// moveOne deletes m's document where it is still as journaled and inserts
// what was deleted under the new _id; where the document changed, it
// journals it again and retries. Where the insert fails it puts the
// document back and notes why.
func (n *normalizer) moveOne(ctx context.Context, m *move) (outcome, error) {
	var deleted bson.Raw
	for change := 0; ; change++ {
		if err := n.lease.keep(ctx); err != nil {
			return left, err
		}
		err := n.coll.FindOneAndDelete(ctx, n.unchanged(m)).Decode(&deleted)
		if err == nil {
			break
		}
		if !errors.Is(err, mongo.ErrNoDocuments) {
			return left, err
		}
		// Changed since it was read (most often long before, while the
		// batch's documents before it moved), or gone. A writer that
		// changes the document as often as this loop reads it can win
		// every time, in step; from the second try, a random pause before
		// the read breaks the step (and lets a burst of writes pass), and
		// the read, the journal and the delete then follow each other at
		// once.
		if change > 0 {
			time.Sleep(time.Duration(rand.Int64N(int64(time.Millisecond) << min(change-1, 4))))
		}
		var now bson.Raw
		switch err := n.coll.FindOne(ctx, bson.D{{Key: "_id", Value: m.old}}).Decode(&now); {
		case errors.Is(err, mongo.ErrNoDocuments):
			return gone, nil
		case err != nil:
			return left, err
		case change == changesBeforeGivingUp:
			return changing, nil
		}
		m.doc = now
		if err := n.rejournal(ctx, m); errors.Is(err, errTooLarge) {
			n.note(&n.tooLarge, err)
			return left, nil
		} else if err != nil {
			return left, err
		}
	}
	if !bytes.Equal(deleted, m.doc) {
		// Equal to the server, not in bytes (a number's type): the journal
		// gets what was deleted.
		m.doc = deleted
		if err := n.rejournal(ctx, m); err != nil {
			return left, n.putBack(ctx, deleted, err)
		}
	}
	_, err := n.coll.InsertOne(ctx, withID(deleted, m.id))
	switch {
	case err == nil:
		return moved, nil
	case !mongo.IsDuplicateKeyError(err):
		return left, n.putBack(ctx, deleted, err)
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
		return left, n.putBack(ctx, deleted, findErr)
	}
	if err := n.putBack(ctx, deleted, nil); err != nil {
		return left, err
	}
	n.note(&n.conflict, why)
	return left, nil
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
