package bsoncodec

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// walk reads the documents whose field holds the old form, in batches in
// _id order. Each batch starts after the last _id of the one before (a
// keyset), so documents a run leaves as they are (values that are no ID,
// conflicts) are passed by, not listed in every later filter.
type walk struct {
	coll  *mongo.Collection
	field string
	form  string // the $type alias of the old form
	batch int64
	after bson.RawValue // the last _id read; none before the first batch
}

// next returns the next batch, none at the end of the pass. A query's
// $gt matches only values of its operand's type (numbers all count as
// one), while _id order runs across types: when no _id of w.after's type
// is left past it, the walk goes on with the types sorted after it. (One
// query for both, with $or, is four times slower on DocumentDB.)
func (w *walk) next(ctx context.Context) ([]bson.Raw, error) {
	form := bson.D{{Key: "$type", Value: w.form}}
	if w.after.Type == 0 {
		return w.find(ctx, bson.D{{Key: w.field, Value: form}})
	}
	past := bson.E{Key: "$gt", Value: w.after}
	if w.field == "_id" {
		// Every _id read is of the old form's type.
		return w.find(ctx, bson.D{{Key: "_id", Value: append(form, past)}})
	}
	docs, err := w.find(ctx, bson.D{{Key: w.field, Value: form}, {Key: "_id", Value: bson.D{past}}})
	if err != nil || len(docs) > 0 {
		return docs, err
	}
	later, err := typesSortedAfter(w.after.Type)
	if err != nil || len(later) == 0 {
		return nil, err
	}
	return w.find(ctx, bson.D{{Key: w.field, Value: form}, {Key: "_id", Value: bson.D{{Key: "$type", Value: later}}}})
}

// find returns the first batch of documents that filter matches in _id
// order, and moves w.after to the last.
func (w *walk) find(ctx context.Context, filter bson.D) ([]bson.Raw, error) {
	find := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(w.batch)
	if w.field != "_id" {
		find.SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: w.field, Value: 1}})
	}
	cur, err := w.coll.Find(ctx, filter, find)
	if err != nil {
		return nil, err
	}
	var docs []bson.Raw
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	if len(docs) > 0 {
		w.after = docs[len(docs)-1].Lookup("_id")
	}
	return docs, nil
}

// sortOrder is the BSON types an _id may have, by the order of their
// values in a sort, as $type names them; the types in one entry compare
// with each other.
var sortOrder = []struct {
	types []bson.Type
	names []string
}{
	{[]bson.Type{bson.TypeMinKey}, []string{"minKey"}},
	{[]bson.Type{bson.TypeNull}, []string{"null"}},
	{[]bson.Type{bson.TypeDouble, bson.TypeInt32, bson.TypeInt64, bson.TypeDecimal128}, []string{"double", "int", "long", "decimal"}},
	{[]bson.Type{bson.TypeString, bson.TypeSymbol}, []string{"string", "symbol"}},
	{[]bson.Type{bson.TypeEmbeddedDocument}, []string{"object"}},
	{[]bson.Type{bson.TypeBinary}, []string{"binData"}},
	{[]bson.Type{bson.TypeObjectID}, []string{"objectId"}},
	{[]bson.Type{bson.TypeBoolean}, []string{"bool"}},
	{[]bson.Type{bson.TypeDateTime}, []string{"date"}},
	{[]bson.Type{bson.TypeTimestamp}, []string{"timestamp"}},
	{[]bson.Type{bson.TypeMaxKey}, []string{"maxKey"}},
}

// typesSortedAfter returns the $type names of the _id types that sort
// after t, or an error for a type an _id is not expected to have.
func typesSortedAfter(t bson.Type) ([]string, error) {
	for i, group := range sortOrder {
		for _, gt := range group.types {
			if gt != t {
				continue
			}
			var later []string
			for _, g := range sortOrder[i+1:] {
				later = append(later, g.names...)
			}
			return later, nil
		}
	}
	return nil, fmt.Errorf("walking the documents by _id: an _id of BSON type %v, which the walk does not know how to pass", t)
}
