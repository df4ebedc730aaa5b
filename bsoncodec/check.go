package bsoncodec

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// CheckSample is how many documents of each collection Check reads to
// find the fields that hold IDs.
const CheckSample = 100

// A Finding is what Check says of one field of a collection: where its
// IDs can give a silent wrong answer, and the fix.
type Finding struct {
	Collection string `json:"collection"`
	Field      string `json:"field"`
	Holds      string `json:"holds"` // the census: "KSUIDs: 98 strings, 2 binary"
	// Silent is whether the field can give a silent wrong answer: a
	// filter that misses documents, or matches other ones.
	Silent  bool     `json:"silent"`
	Problem string   `json:"problem"`
	Fixes   []string `json:"fixes,omitempty"`
}

// String is the finding as sortid check prints it.
func (f Finding) String() string {
	var b strings.Builder
	mark := "note"
	if f.Silent {
		mark = "SILENT"
	}
	fmt.Fprintf(&b, "%s.%s: %s\n  %s: %s\n", f.Collection, f.Field, f.Holds, mark, f.Problem)
	for _, fix := range f.Fixes {
		fmt.Fprintf(&b, "  fix: %s\n", fix)
	}
	return b.String()
}

// Check reads every collection of db and reports each top-level field
// that holds KSUIDs or ObjectIDs where a filter can answer silently wrong
// (another form stored beside sortid's, a collation other than simple,
// zero KSUIDs), and what normalizations left behind: a journal that
// still holds documents, a lease. A field's IDs are told by a sample of
// CheckSample documents in which every value is one ID type's text or
// bytes; the forms are then counted over the whole collection. It only
// reads. fields is how many fields holding IDs it looked at.
func Check(ctx context.Context, db *mongo.Database) (findings []Finding, fields int, err error) {
	specs, err := db.ListCollectionSpecifications(ctx, bson.D{{Key: "type", Value: "collection"}})
	if err != nil {
		return nil, 0, fmt.Errorf("bsoncodec: listing the collections of %s: %w", db.Name(), err)
	}
	slices.SortFunc(specs, func(a, b mongo.CollectionSpecification) int { return strings.Compare(a.Name, b.Name) })
	now := time.Now()
	for _, spec := range specs {
		name := spec.Name
		switch {
		case strings.HasPrefix(name, "system."):
			continue
		case name == LeaseCollection:
			fs, err := checkLeases(ctx, db.Collection(name), now)
			if err != nil {
				return nil, 0, err
			}
			findings = append(findings, fs...)
			continue
		case strings.HasSuffix(name, JournalSuffix):
			n, err := db.Collection(name).CountDocuments(ctx, bson.D{})
			if err != nil {
				return nil, 0, fmt.Errorf("bsoncodec: counting %s: %w", name, err)
			}
			if n > 0 {
				base := strings.TrimSuffix(name, JournalSuffix)
				findings = append(findings, Finding{Collection: base, Field: "_id",
					Holds:   fmt.Sprintf("%d documents in %s", n, name),
					Silent:  true,
					Problem: fmt.Sprintf("a normalization of _id stopped while it moved them: they are missing from %s until a run puts them back", base),
					Fixes:   []string{fmt.Sprintf("run NormalizeKSUIDs (or NormalizeObjectIDs, whichever it was) on %s's _id again: it puts them back first", base)},
				})
			}
			continue
		}
		coll := db.Collection(name)
		kinds, err := sampleFields(ctx, coll, now)
		if err != nil {
			return nil, 0, err
		}
		for _, field := range slices.Sorted(maps.Keys(kinds)) {
			fields++
			var fs []Finding
			if kinds[field] == kindKSUID {
				fs, err = checkKSUIDField(ctx, coll, field)
			} else {
				fs, err = checkObjectIDField(ctx, coll, field)
			}
			if err != nil {
				return nil, 0, err
			}
			findings = append(findings, fs...)
		}
	}
	return findings, fields, nil
}

type idKind int

const (
	kindNone idKind = iota
	kindKSUID
	kindObjectID
)

// plausible reports whether t could be an ID's time: from 2009 (the
// first ObjectIDs; KSUIDs start in 2014) to a year from now. Random
// bytes and hex rarely pass for a whole sample.
func plausible(t, now time.Time) bool {
	return t.Year() >= 2009 && t.Before(now.AddDate(1, 0, 0))
}

// kindOf tells which ID a value holds, in any form sortid or another
// tool stores it: KSUIDs as 27-character strings or 20 bytes of binary,
// ObjectIDs as ObjectId or 24 lowercase hex digits.
func kindOf(v bson.RawValue, now time.Time) idKind {
	switch v.Type {
	case bson.TypeString:
		s := v.StringValue()
		switch len(s) {
		case 27:
			if id, err := ksuid.Parse(s); err == nil && plausible(id.Time(), now) {
				return kindKSUID
			}
		case 24:
			if id, err := objectid.Parse(s); err == nil && id.String() == s && plausible(id.Time(), now) {
				return kindObjectID
			}
		}
	case bson.TypeBinary:
		sub, data := v.Binary()
		if sub == bson.TypeBinaryGeneric && len(data) == 20 {
			if id, err := ksuid.FromBytes(data); err == nil && plausible(id.Time(), now) {
				return kindKSUID
			}
		}
	case bson.TypeObjectID:
		return kindObjectID
	}
	return kindNone
}

// sampleFields reads CheckSample documents of coll and returns the
// top-level fields whose every non-null value holds one kind of ID.
func sampleFields(ctx context.Context, coll *mongo.Collection, now time.Time) (map[string]idKind, error) {
	cur, err := coll.Find(ctx, bson.D{}, options.Find().SetLimit(CheckSample))
	if err != nil {
		return nil, fmt.Errorf("bsoncodec: sampling %s: %w", coll.Name(), err)
	}
	defer cur.Close(ctx)
	kinds := map[string]idKind{}
	for cur.Next(ctx) {
		elems, err := cur.Current.Elements()
		if err != nil {
			return nil, fmt.Errorf("bsoncodec: sampling %s: %w", coll.Name(), err)
		}
		for _, e := range elems {
			v := e.Value()
			if v.Type == bson.TypeNull {
				continue
			}
			k, seen := kinds[e.Key()]
			switch got := kindOf(v, now); {
			case !seen:
				kinds[e.Key()] = got
			case k != got:
				kinds[e.Key()] = kindNone
			}
		}
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("bsoncodec: sampling %s: %w", coll.Name(), err)
	}
	maps.DeleteFunc(kinds, func(_ string, k idKind) bool { return k == kindNone })
	return kinds, nil
}

func checkKSUIDField(ctx context.Context, coll *mongo.Collection, field string) ([]Finding, error) {
	forms, err := CountKSUIDForms(ctx, coll, KSUIDField(field))
	if err != nil {
		return nil, err
	}
	zeros, err := coll.CountDocuments(ctx, bson.D{{Key: field, Value: ksuid.Nil.String()}})
	if err != nil {
		return nil, fmt.Errorf("bsoncodec: counting zero KSUIDs in %s.%s: %w", coll.Name(), field, err)
	}
	holds := fmt.Sprintf("KSUIDs: %d strings, %d binary, %d null, %d missing, %d other", forms.String, forms.Binary, forms.Null, forms.Missing, forms.Other)
	f := func(silent bool, problem string, fixes ...string) Finding {
		return Finding{Collection: coll.Name(), Field: field, Holds: holds, Silent: silent, Problem: problem, Fixes: fixes}
	}
	var out []Finding
	if forms.Binary > 0 {
		out = append(out, f(true,
			fmt.Sprintf("%d documents hold KSUIDs as 20 bytes of binary (segmentio/ksuid's form through mongo-driver): a filter with a ksuid.KSUID, which is a string, misses them", forms.Binary),
			fmt.Sprintf("bsoncodec.NormalizeKSUIDs(ctx, coll, %q, bsoncodec.NormalizeOptions{}) rewrites them as strings, online", field),
			fmt.Sprintf("meanwhile, filter with bsoncodec.KSUIDField(%q), which matches both forms", field)))
	}
	if forms.Collation != "" {
		out = append(out, f(true,
			"strings compare under "+forms.Collation+": KSUIDs lose their time order (windows, sorts, pages), and at strength 1 or 2 two KSUIDs that differ in case are equal",
			"copy the collection into one with the simple collation (an index: drop it and build it again without a collation)"))
	}
	if zeros > 0 {
		out = append(out, f(true,
			fmt.Sprintf("%d documents hold the zero KSUID %s, which segmentio/ksuid's code may have meant as null: a filter on null misses them", zeros, ksuid.Nil),
			fmt.Sprintf("set them to null (updateMany({%s: %q}, {$set: {%s: null}})) where zero meant none, and use ksuid.NullKSUID or *ksuid.KSUID in Go", field, ksuid.Nil, field)))
	}
	if forms.Other > 0 {
		out = append(out, f(false, fmt.Sprintf("%d documents hold another type in this field", forms.Other)))
	}
	return out, nil
}

func checkObjectIDField(ctx context.Context, coll *mongo.Collection, field string) ([]Finding, error) {
	forms, err := CountObjectIDForms(ctx, coll, ObjectIDField(field))
	if err != nil {
		return nil, err
	}
	if forms.String == 0 {
		return nil, nil
	}
	return []Finding{{Collection: coll.Name(), Field: field,
		Holds:   fmt.Sprintf("ObjectIDs: %d ObjectId, %d hex strings, %d null, %d missing, %d other", forms.ObjectID, forms.String, forms.Null, forms.Missing, forms.Other),
		Silent:  true,
		Problem: fmt.Sprintf("%d documents hold ObjectIDs as hex strings: a filter with an objectid.ObjectID, stored as ObjectId, misses them", forms.String),
		Fixes: []string{
			fmt.Sprintf("bsoncodec.NormalizeObjectIDs(ctx, coll, %q, bsoncodec.NormalizeOptions{}) rewrites them as ObjectId, online", field),
			fmt.Sprintf("meanwhile, filter with bsoncodec.ObjectIDField(%q), which matches both forms", field),
		},
	}}, nil
}

// checkLeases reports the normalizations whose lease is held: running,
// or stopped (its lease expired, never released).
func checkLeases(ctx context.Context, leases *mongo.Collection, now time.Time) ([]Finding, error) {
	cur, err := leases.Find(ctx, bson.D{})
	if err != nil {
		return nil, fmt.Errorf("bsoncodec: reading %s: %w", LeaseCollection, err)
	}
	var docs []struct {
		Key struct {
			Collection string `bson:"collection"`
			Field      string `bson:"field"`
		} `bson:"_id"`
		Holder  string    `bson:"holder"`
		Expires time.Time `bson:"expires"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("bsoncodec: reading %s: %w", LeaseCollection, err)
	}
	var out []Finding
	for _, d := range docs {
		f := Finding{Collection: d.Key.Collection, Field: d.Key.Field, Holds: "a lease in " + LeaseCollection}
		switch {
		case d.Holder == "":
			continue // made, never taken
		case d.Expires.After(now):
			f.Problem = fmt.Sprintf("a normalization is running (%s), its lease until %s", d.Holder, d.Expires.UTC().Format(time.RFC3339))
		default:
			f.Problem = fmt.Sprintf("a normalization stopped before it finished (%s, lease expired %s)", d.Holder, d.Expires.UTC().Format(time.RFC3339))
			f.Fixes = []string{"run it again: it takes the lease over and goes on"}
		}
		out = append(out, f)
	}
	return out, nil
}
