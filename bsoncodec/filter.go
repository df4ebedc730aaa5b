package bsoncodec

import (
	"errors"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// Filter is a whole filter document made by KSUIDField or ObjectIDField,
// for Find, CountDocuments, UpdateMany, DeleteMany and the like. Used as a
// field's value instead, bson.M{"order_id": orderID.Eq(id)}, it would be
// a document to compare with, which matches nothing without an error: so
// writing a Filter anywhere but as a whole filter is an error wrapping
// ErrFilterAsValue. Combine filters with And, as a whole filter; inside
// $and, $or or an aggregation's $match write f.D() (And(...).D()).
type Filter bson.D

// ErrFilterAsValue is wrapped by the error of marshaling a Filter as a
// value inside another document.
var ErrFilterAsValue = errors.New("bsoncodec: a filter of KSUIDField or ObjectIDField used as a value")

// MarshalBSON writes f as the filter document it is. The driver uses it
// for a filter passed whole.
func (f Filter) MarshalBSON() ([]byte, error) { return bson.Marshal(bson.D(f)) }

// MarshalBSONValue refuses f as a value inside another document: see
// Filter.
func (f Filter) MarshalBSONValue() (typ byte, data []byte, err error) {
	return 0, nil, fmt.Errorf("%w: it is a whole filter, and as a field's value "+
		"(bson.M{\"order_id\": orderID.Eq(id)}) it would match nothing; pass it as the filter itself, "+
		"or use f.D() inside $and, $or or $match", ErrFilterAsValue)
}

// D returns f as a plain document, to place inside $and, $or or an
// aggregation's $match.
func (f Filter) D() bson.D { return bson.D(f) }

// And returns the filter that matches the documents every one of
// filters matches: {$and: [...]}. It is a Filter: pass it whole, or as
// And(...).D() inside $match.
func And(filters ...Filter) Filter {
	a := make(bson.A, len(filters))
	for i, f := range filters {
		a[i] = f.D()
	}
	return Filter{{Key: "$and", Value: a}}
}

// KSUIDField names a document field that holds KSUIDs, for filters that
// match both forms a KSUID has been stored in: the 27-character string
// (what ksuid.KSUID and every writer store, and other languages' services)
// and 20 bytes of binary of subtype 0 (what earlier versions of this
// package wrote, and segmentio/ksuid users may have). A filter with the
// typed value, {order_id: id}, matches the string form: use KSUIDField
// where a collection still holds history in binary, until
// NormalizeKSUIDs has rewritten it.
//
//	orderID := bsoncodec.KSUIDField("order_id")
//	coll.Find(ctx, orderID.Eq(id))
//	coll.DeleteMany(ctx, orderID.Nin(active...))
//	coll.Find(ctx, orderID.Between(lo, hi))
//
// Each method returns a whole Filter. To combine it with other conditions
// use And, or Filter.D inside your own $and or $match.
//
// An upsert with these filters cannot take the field's value from them; use
// UpsertKSUID. $group and Distinct see the two forms as two values: for
// them, normalize the field first (NormalizeKSUIDs).
type KSUIDField string

// ObjectIDField names a document field that holds ObjectIDs, for filters
// that match both forms: BSON ObjectId (what objectid.ObjectID and the
// drivers write) and the 24 hex digits as a string (what another service
// may have stored, from an ObjectId's toString or hex()), lowercase or
// uppercase (a string of mixed case is matched by neither). Its methods
// work as KSUIDField's; NormalizeObjectIDs rewrites the strings to
// ObjectIds.
type ObjectIDField string

// fieldForms is what the filters need of one ID type: the forms it can be
// stored in, the stored one first, and the smallest and largest ID.
type fieldForms[ID any] struct {
	forms    []storedForm[ID]
	min, max ID
}

// storedForm is one form of an ID: its BSON value, and for a string form
// the pattern that keeps a range clause to the type's text.
type storedForm[ID any] struct {
	value   func(ID) any
	pattern string
}

var (
	ksuidForms = fieldForms[ksuid.KSUID]{
		forms: []storedForm[ksuid.KSUID]{
			{func(id ksuid.KSUID) any { return id.String() }, "^[0-9A-Za-z]{27}$"},
			{func(id ksuid.KSUID) any { return bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()} }, ""},
		},
		min: ksuid.KSUID{}, max: ksuid.Max,
	}
	// An ObjectID's hex is written lowercase by the drivers (toString,
	// hex()), but another service may have upper-cased it; each case is
	// a form of its own, in its own order.
	objectIDForms = fieldForms[objectid.ObjectID]{
		forms: []storedForm[objectid.ObjectID]{
			{func(id objectid.ObjectID) any { return bson.ObjectID(id) }, ""},
			{func(id objectid.ObjectID) any { return id.String() }, "^[0-9a-f]{24}$"},
			{func(id objectid.ObjectID) any { return strings.ToUpper(id.String()) }, "^[0-9A-F]{24}$"},
		},
		min: objectid.ObjectID{}, max: objectid.ObjectID{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	}
)

func (ff fieldForms[ID]) list(ids []ID) bson.A {
	a := make(bson.A, 0, len(ff.forms)*len(ids))
	for _, id := range ids {
		for _, f := range ff.forms {
			a = append(a, f.value(id))
		}
	}
	return a
}

func (ff fieldForms[ID]) op(field, op string, ids []ID) Filter {
	return Filter{{Key: field, Value: bson.D{{Key: op, Value: ff.list(ids)}}}}
}

// clauses is the filter {$or: [{f: bounds in one form}, …]} of the bounds
// lo (with loOp) and hi (with hiOp). MongoDB compares values of one BSON
// type only, so each clause keeps to its form, and each is in time order
// within it. Each clause is bounded on both sides (an open side by the
// smallest or largest ID) and a string clause by its form's pattern, so
// that no value of the same BSON type that is not an ID matches: a binary
// of another length or subtype (binary sorts by length, then subtype,
// then bytes), a string of another length or alphabet.
func (ff fieldForms[ID]) clauses(field string, loOp string, lo ID, hiOp string, hi ID) Filter {
	or := make(bson.A, len(ff.forms))
	for i, f := range ff.forms {
		bounds := bson.D{{Key: loOp, Value: f.value(lo)}, {Key: hiOp, Value: f.value(hi)}}
		if f.pattern != "" {
			bounds = append(bounds, bson.E{Key: "$regex", Value: f.pattern})
		}
		or[i] = bson.D{{Key: field, Value: bounds}}
	}
	return Filter{{Key: "$or", Value: or}}
}

func (ff fieldForms[ID]) above(field, op string, id ID) Filter {
	return ff.clauses(field, op, id, "$lte", ff.max)
}

func (ff fieldForms[ID]) below(field, op string, id ID) Filter {
	return ff.clauses(field, "$gte", ff.min, op, id)
}

// Eq matches documents whose field holds id in either form:
// {f: {$in: [string, binary]}}.
func (f KSUIDField) Eq(id ksuid.KSUID) Filter {
	return ksuidForms.op(string(f), "$in", []ksuid.KSUID{id})
}

// Ne matches documents whose field does not hold id in either form,
// including those without the field, as $ne does: {f: {$nin: [...]}}.
func (f KSUIDField) Ne(id ksuid.KSUID) Filter {
	return ksuidForms.op(string(f), "$nin", []ksuid.KSUID{id})
}

// In matches documents whose field holds any of ids, in either form. With
// no ids it matches nothing.
func (f KSUIDField) In(ids ...ksuid.KSUID) Filter { return ksuidForms.op(string(f), "$in", ids) }

// Nin matches documents whose field holds none of ids in either form,
// including those without the field, as $nin does. With no ids it matches
// every document: check the list before a DeleteMany.
func (f KSUIDField) Nin(ids ...ksuid.KSUID) Filter { return ksuidForms.op(string(f), "$nin", ids) }

// Gt matches documents whose field holds a KSUID greater than id, in either
// form.
func (f KSUIDField) Gt(id ksuid.KSUID) Filter { return ksuidForms.above(string(f), "$gt", id) }

// Gte matches documents whose field holds a KSUID greater than or equal to
// id, in either form.
func (f KSUIDField) Gte(id ksuid.KSUID) Filter { return ksuidForms.above(string(f), "$gte", id) }

// Lt matches documents whose field holds a KSUID less than id, in either
// form.
func (f KSUIDField) Lt(id ksuid.KSUID) Filter { return ksuidForms.below(string(f), "$lt", id) }

// Lte matches documents whose field holds a KSUID less than or equal to id,
// in either form.
func (f KSUIDField) Lte(id ksuid.KSUID) Filter { return ksuidForms.below(string(f), "$lte", id) }

// Between matches documents whose field holds a KSUID from lo to hi, both
// included, in either form. With ksuid.MinAt and ksuid.MaxAt it selects a
// window of time:
//
//	lo, _ := ksuid.MinAt(from)
//	hi, _ := ksuid.MaxAt(to)
//	coll.Find(ctx, orderID.Between(lo, hi))
func (f KSUIDField) Between(lo, hi ksuid.KSUID) Filter {
	return ksuidForms.clauses(string(f), "$gte", lo, "$lte", hi)
}

// Eq matches documents whose field holds id in either form.
func (f ObjectIDField) Eq(id objectid.ObjectID) Filter {
	return objectIDForms.op(string(f), "$in", []objectid.ObjectID{id})
}

// Ne matches documents whose field does not hold id in either form,
// including those without the field.
func (f ObjectIDField) Ne(id objectid.ObjectID) Filter {
	return objectIDForms.op(string(f), "$nin", []objectid.ObjectID{id})
}

// In matches documents whose field holds any of ids, in either form.
func (f ObjectIDField) In(ids ...objectid.ObjectID) Filter {
	return objectIDForms.op(string(f), "$in", ids)
}

// Nin matches documents whose field holds none of ids in either form,
// including those without the field. With no ids it matches every
// document: check the list before a DeleteMany.
func (f ObjectIDField) Nin(ids ...objectid.ObjectID) Filter {
	return objectIDForms.op(string(f), "$nin", ids)
}

// Gt matches documents whose field holds an ObjectID greater than id, in
// either form.
func (f ObjectIDField) Gt(id objectid.ObjectID) Filter {
	return objectIDForms.above(string(f), "$gt", id)
}

// Gte matches documents whose field holds an ObjectID greater than or
// equal to id, in either form.
func (f ObjectIDField) Gte(id objectid.ObjectID) Filter {
	return objectIDForms.above(string(f), "$gte", id)
}

// Lt matches documents whose field holds an ObjectID less than id, in
// either form.
func (f ObjectIDField) Lt(id objectid.ObjectID) Filter {
	return objectIDForms.below(string(f), "$lt", id)
}

// Lte matches documents whose field holds an ObjectID less than or equal
// to id, in either form.
func (f ObjectIDField) Lte(id objectid.ObjectID) Filter {
	return objectIDForms.below(string(f), "$lte", id)
}

// Between matches documents whose field holds an ObjectID from lo to hi,
// both included, in either form: with objectid.MinAt and MaxAt, a window
// of time.
func (f ObjectIDField) Between(lo, hi objectid.ObjectID) Filter {
	return objectIDForms.clauses(string(f), "$gte", lo, "$lte", hi)
}

// UpsertKSUID returns the filter and update for an upsert of the document
// whose field holds id in either form. An upsert takes the new document's
// fields from equalities in its filter, and Eq's $in is not one: alone, it
// would insert a document without the field (or, for _id, with a new
// ObjectId). So UpsertKSUID adds the field to update's $setOnInsert, as
// the string every KSUID is stored as:
//
//	filter, upd := bsoncodec.UpsertKSUID("_id", id,
//		bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
//	coll.UpdateOne(ctx, filter, upd, options.UpdateOne().SetUpsert(true))
//
// In a collection that holds one form, the plain upsert with filter
// {_id: id} does the same. A $setOnInsert already in update (a bson.D,
// bson.M, map or struct) keeps its fields. update itself is not modified.
func UpsertKSUID[T ksuid.KSUID | ksuid.StringKSUID](field KSUIDField, id T, update bson.D) (filter Filter, upsertUpdate bson.D) {
	e := bson.E{Key: string(field), Value: ksuid.KSUID(id)}
	upsertUpdate = make(bson.D, 0, len(update)+1)
	merged := false
	for _, u := range update {
		if u.Key == "$setOnInsert" && !merged {
			if fields, ok := asD(u.Value); ok {
				u.Value, merged = append(fields, e), true
			}
		}
		upsertUpdate = append(upsertUpdate, u)
	}
	if !merged {
		// No $setOnInsert, or one the driver cannot marshal either: then
		// the update fails when sent, which is loud.
		upsertUpdate = append(upsertUpdate, bson.E{Key: "$setOnInsert", Value: bson.D{e}})
	}
	return field.Eq(ksuid.KSUID(id)), upsertUpdate
}

// asD returns a copy of v, a document of any Go form, as a bson.D.
func asD(v any) (bson.D, bool) {
	if d, ok := v.(bson.D); ok {
		return append(bson.D{}, d...), true
	}
	raw, err := bson.Marshal(v)
	if err != nil {
		return nil, false
	}
	var d bson.D
	return d, bson.Unmarshal(raw, &d) == nil
}
