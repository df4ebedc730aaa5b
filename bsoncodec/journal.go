package bsoncodec

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

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

// maxDocumentSize is the most bytes a document may hold, in MongoDB and
// the servers that speak its protocol.
const maxDocumentSize = 16 << 20

// errTooLarge marks a document whose journal entry would not fit in one.
var errTooLarge = errors.New("too large to journal")

// entry is m's journal entry, or an error wrapping errTooLarge where it
// would be larger than a document may be: the entry holds the document
// and its new _id besides, so a document within a few dozen bytes of the
// limit cannot be journaled, and is left where it is.
func (n *normalizer) entry(m *move) (bson.Raw, error) {
	raw, err := bson.Marshal(bson.D{{Key: "_id", Value: m.old}, {Key: "to", Value: m.id}, {Key: "doc", Value: m.doc}, {Key: "holder", Value: n.lease.holder}})
	if err != nil {
		return nil, fmt.Errorf("journal entry of document %v: %w", m.old, err)
	}
	if len(raw) > maxDocumentSize {
		return nil, fmt.Errorf("document %v: %w: its entry would be %d bytes, more than the %d of a document; left under its old _id", m.old, errTooLarge, len(raw), maxDocumentSize)
	}
	return raw, nil
}

// rejournal replaces m's journal entry with m.doc; it fails where the
// entry is no longer this run's, or would be too large.
func (n *normalizer) rejournal(ctx context.Context, m *move) error {
	if _, err := n.entry(m); err != nil {
		return err
	}
	res, err := n.journal().UpdateOne(ctx, bson.D{{Key: "_id", Value: m.old}, {Key: "holder", Value: n.lease.holder}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "doc", Value: m.doc}}}})
	if err == nil && res.MatchedCount == 0 {
		err = fmt.Errorf("%w: the journal entry of %v is no longer this run's (%s)", ErrRunning, m.old, n.lease.holder)
	}
	return err
}
