package bsoncodec

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
)

// KSUIDField names a document field that holds KSUIDs, for filters that
// match both forms a KSUID can be stored in: binary of subtype 0 (what
// ksuid.KSUID writes) and the 27-character string (ksuid.StringKSUID, or
// another language's services). A filter with the typed value, such as
// {order_id: id}, matches only the form of its type; in a collection that
// holds both it misses the others without an error.
//
//	orderID := bsoncodec.KSUIDField("order_id")
//	coll.Find(ctx, orderID.Eq(id))
//	coll.DeleteMany(ctx, orderID.Nin(active...))
//	coll.Find(ctx, orderID.Between(lo, hi))
//
// Each method returns a whole filter document, usable in Find, Count,
// UpdateMany, DeleteMany and an aggregation's $match. To combine it with
// other conditions, use $and: bson.D{{Key: "$and", Value: bson.A{f1, f2}}}
// (the range filters are an $or, and a document holds one $or).
//
// An upsert with these filters cannot take the field's value from them; use
// UpsertKSUID. $group and Distinct see the two forms as two values: for
// them, normalize the field first (NormalizeKSUIDs).
type KSUIDField string

// bothForms returns id's two stored forms.
func bothForms(id ksuid.KSUID) (bson.Binary, string) {
	return bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}, id.String()
}

func (f KSUIDField) op(op string, v any) bson.D {
	return bson.D{{Key: string(f), Value: bson.D{{Key: op, Value: v}}}}
}

func formsOf(ids []ksuid.KSUID) bson.A {
	a := make(bson.A, 0, 2*len(ids))
	for _, id := range ids {
		b, s := bothForms(id)
		a = append(a, b, s)
	}
	return a
}

// Eq matches documents whose field holds id in either form:
// {f: {$in: [binary, string]}}.
func (f KSUIDField) Eq(id ksuid.KSUID) bson.D { return f.op("$in", formsOf([]ksuid.KSUID{id})) }

// Ne matches documents whose field does not hold id in either form,
// including those without the field, as $ne does: {f: {$nin: [...]}}.
func (f KSUIDField) Ne(id ksuid.KSUID) bson.D { return f.op("$nin", formsOf([]ksuid.KSUID{id})) }

// In matches documents whose field holds any of ids, in either form. With
// no ids it matches nothing.
func (f KSUIDField) In(ids ...ksuid.KSUID) bson.D { return f.op("$in", formsOf(ids)) }

// Nin matches documents whose field holds none of ids in either form,
// including those without the field, as $nin does. With no ids it matches
// every document: check the list before a DeleteMany.
func (f KSUIDField) Nin(ids ...ksuid.KSUID) bson.D { return f.op("$nin", formsOf(ids)) }

// range1 is the filter {$or: [{f: {op: binary, …}}, {f: {op: string, …}}]}.
// MongoDB compares values of one BSON type only, so each clause keeps to
// its form, and each is in time order within it. Each clause is also
// bounded on its open side by the smallest or largest KSUID, and the
// string clause by a pattern of 27 base62 characters, so that no value
// of the same BSON type that is not a KSUID matches: a 16-byte UUID or a
// binary of another subtype (binary sorts by length, then subtype, then
// bytes), a string of another length or alphabet.
func (f KSUIDField) range1(op string, id ksuid.KSUID) bson.D {
	b, s := bothForms(id)
	bEdge, sEdge := bothForms(ksuid.Max)
	edgeOp := "$lte"
	if op == "$lt" || op == "$lte" {
		bEdge, sEdge = bothForms(ksuid.KSUID{})
		edgeOp = "$gte"
	}
	return bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: string(f), Value: bson.D{{Key: op, Value: b}, {Key: edgeOp, Value: bEdge}}}},
		bson.D{{Key: string(f), Value: bson.D{{Key: op, Value: s}, {Key: edgeOp, Value: sEdge}, ksuidTextPattern}}},
	}}}
}

// ksuidTextPattern keeps a string clause to KSUIDs' text.
var ksuidTextPattern = bson.E{Key: "$regex", Value: "^[0-9A-Za-z]{27}$"}

// Gt matches documents whose field holds a KSUID greater than id, in either
// form.
func (f KSUIDField) Gt(id ksuid.KSUID) bson.D { return f.range1("$gt", id) }

// Gte matches documents whose field holds a KSUID greater than or equal to
// id, in either form.
func (f KSUIDField) Gte(id ksuid.KSUID) bson.D { return f.range1("$gte", id) }

// Lt matches documents whose field holds a KSUID less than id, in either
// form.
func (f KSUIDField) Lt(id ksuid.KSUID) bson.D { return f.range1("$lt", id) }

// Lte matches documents whose field holds a KSUID less than or equal to id,
// in either form.
func (f KSUIDField) Lte(id ksuid.KSUID) bson.D { return f.range1("$lte", id) }

// Between matches documents whose field holds a KSUID from lo to hi, both
// included, in either form. With ksuid.MinAt and ksuid.MaxAt it selects a
// window of time:
//
//	lo, _ := ksuid.MinAt(from)
//	hi, _ := ksuid.MaxAt(to)
//	coll.Find(ctx, orderID.Between(lo, hi))
func (f KSUIDField) Between(lo, hi ksuid.KSUID) bson.D {
	blo, slo := bothForms(lo)
	bhi, shi := bothForms(hi)
	return bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: string(f), Value: bson.D{{Key: "$gte", Value: blo}, {Key: "$lte", Value: bhi}}}},
		bson.D{{Key: string(f), Value: bson.D{{Key: "$gte", Value: slo}, {Key: "$lte", Value: shi}, ksuidTextPattern}}},
	}}}
}

// UpsertKSUID returns the filter and update for an upsert of the document
// whose field holds id in either form. An upsert takes the new document's
// fields from equalities in its filter, and Eq's $in is not one: alone, it
// would insert a document without the field (or, for _id, with a new
// ObjectId). So UpsertKSUID adds the field to update's $setOnInsert, in the
// form of id's type, the field's declared form:
//
//	filter, upd := bsoncodec.UpsertKSUID("_id", ksuid.StringKSUID(id),
//		bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
//	coll.UpdateOne(ctx, filter, upd, options.UpdateOne().SetUpsert(true))
//
// A $setOnInsert already in update (a bson.D, bson.M, map or struct)
// keeps its fields. update itself is not modified.
func UpsertKSUID[T ksuid.KSUID | ksuid.StringKSUID](field KSUIDField, id T, update bson.D) (filter, upsertUpdate bson.D) {
	e := bson.E{Key: string(field), Value: id}
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
