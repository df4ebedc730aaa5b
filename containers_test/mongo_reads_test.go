package containers

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
)

// The MongoDB read matrix: an events service keeps order_id, a KSUID, in
// each event, and the orders themselves keyed by the KSUID. Half of each
// order's documents are written by the service's own client, half by
// another writer (another client set-up, bson.Marshal, a map, a $set,
// another language's strings, or older code that wrote binary). The
// service then asks for them every way it would, and each cell is
// classified as correct (the right documents), loud (an error) or silent
// (other documents, without an error).

// mongoForm is how the service declares the order_id field: ksuid.KSUID
// or ksuid.StringKSUID, which store the same string.
type mongoForm struct {
	name   string
	typed  func(ksuid.KSUID) any // the value of the declared field type
	stored bson.Type             // what the declared form stores
	// upsertKSUID is bsoncodec.UpsertKSUID with the declared type.
	upsertKSUID func(field bsoncodec.KSUIDField, id ksuid.KSUID, update bson.D) (bson.D, bson.D)
	// normalize is bsoncodec.NormalizeKSUIDs.
	normalize func(ctx context.Context, coll *mongo.Collection, field bsoncodec.KSUIDField) error
}

// mongoDocSpec is one document to write: an event {_id: ObjectId,
// order_id, n}, or an order {_id: KSUID, n}.
type mongoDocSpec struct {
	event bool
	order ksuid.KSUID
	n     int
}

type mongoWriter struct {
	name  string
	write func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error
}

// typedDoc is a document with its ID fields held as the declared types.
type typedDoc struct {
	ID      any `bson:"_id"`
	OrderID any `bson:"order_id,omitempty"`
	N       int `bson:"n"`
}

func (d mongoDocSpec) typed(f mongoForm) typedDoc {
	if d.event {
		return typedDoc{ID: bson.NewObjectID(), OrderID: f.typed(d.order), N: d.n}
	}
	return typedDoc{ID: f.typed(d.order), N: d.n}
}

func insertWith(db func() *mongo.Database) func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
	return func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
		_, err := db().Collection(coll).InsertOne(ctx, d.typed(f))
		return err
	}
}

var mongoWriters = []mongoWriter{
	{"library registry", insertWith(func() *mongo.Database { return servers.mongoDB })},
	{"default registry", insertWith(func() *mongo.Database { return servers.mongoPlainDB })},
	{"older code (binary)", insertWith(func() *mongo.Database { return servers.mongoBinaryDB })},
	{"bson.Marshal", func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
		raw, err := bson.Marshal(d.typed(f))
		if err != nil {
			return err
		}
		_, err = servers.mongoDB.Collection(coll).InsertOne(ctx, bson.Raw(raw))
		return err
	}},
	{"plain client, bson.M", func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
		doc := d.typed(f)
		m := bson.M{"_id": doc.ID, "n": doc.N}
		if d.event {
			m["order_id"] = doc.OrderID
		}
		_, err := servers.mongoPlainDB.Collection(coll).InsertOne(ctx, m)
		return err
	}},
	{"plain client, $set", func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
		c := servers.mongoPlainDB.Collection(coll)
		doc := d.typed(f)
		if !d.event {
			// An order's key can only come from the filter of an upsert.
			_, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: doc.ID}},
				bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: doc.N}}}}, options.UpdateOne().SetUpsert(true))
			return err
		}
		if _, err := c.InsertOne(ctx, bson.D{{Key: "_id", Value: doc.ID}, {Key: "n", Value: doc.N}}); err != nil {
			return err
		}
		_, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: doc.ID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "order_id", Value: doc.OrderID}}}})
		return err
	}},
	{"another language (strings)", func(ctx context.Context, f mongoForm, coll string, d mongoDocSpec) error {
		var doc bson.D
		if d.event {
			doc = bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "order_id", Value: d.order.String()}, {Key: "n", Value: d.n}}
		} else {
			doc = bson.D{{Key: "_id", Value: d.order.String()}, {Key: "n", Value: d.n}}
		}
		_, err := servers.mongoPlainDB.Collection(coll).InsertOne(ctx, doc)
		return err
	}},
}

// mongoStyle is how the service asks by order_id: each returns a whole
// filter for the field.
type mongoStyle struct {
	name    string
	eq, ne  func(field string, id ksuid.KSUID) any
	in, nin func(field string, ids ...ksuid.KSUID) any
	between func(field string, lo, hi ksuid.KSUID) any
	// upsert updates the order id with update, inserting it if missing.
	upsert func(ctx context.Context, coll *mongo.Collection, id ksuid.KSUID, update bson.D) error
	// prepare, when not nil, runs on the seeded collections first.
	prepare func(ctx context.Context, m *mongoCase) error
}

func typedStyle(f mongoForm) mongoStyle {
	list := func(ids []ksuid.KSUID) bson.A {
		a := bson.A{}
		for _, id := range ids {
			a = append(a, f.typed(id))
		}
		return a
	}
	op := func(field, op string, v any) any { return bson.D{{Key: field, Value: bson.D{{Key: op, Value: v}}}} }
	return mongoStyle{
		name: "typed value",
		eq:   func(field string, id ksuid.KSUID) any { return bson.D{{Key: field, Value: f.typed(id)}} },
		ne:   func(field string, id ksuid.KSUID) any { return op(field, "$ne", f.typed(id)) },
		in:   func(field string, ids ...ksuid.KSUID) any { return op(field, "$in", list(ids)) },
		nin:  func(field string, ids ...ksuid.KSUID) any { return op(field, "$nin", list(ids)) },
		between: func(field string, lo, hi ksuid.KSUID) any {
			return bson.D{{Key: field, Value: bson.D{{Key: "$gte", Value: f.typed(lo)}, {Key: "$lte", Value: f.typed(hi)}}}}
		},
		upsert: func(ctx context.Context, coll *mongo.Collection, id ksuid.KSUID, update bson.D) error {
			_, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: f.typed(id)}}, update, options.UpdateOne().SetUpsert(true))
			return err
		},
	}
}

// helperStyle asks with bsoncodec.KSUIDField and UpsertKSUID, each
// filter as a plain document (Filter.D), as the docs say to where a
// filter goes inside $match.
func helperStyle(f mongoForm) mongoStyle {
	return mongoStyle{
		name:    "bsoncodec helpers",
		eq:      func(field string, id ksuid.KSUID) any { return bsoncodec.KSUIDField(field).Eq(id).D() },
		ne:      func(field string, id ksuid.KSUID) any { return bsoncodec.KSUIDField(field).Ne(id).D() },
		in:      func(field string, ids ...ksuid.KSUID) any { return bsoncodec.KSUIDField(field).In(ids...).D() },
		nin:     func(field string, ids ...ksuid.KSUID) any { return bsoncodec.KSUIDField(field).Nin(ids...).D() },
		between: func(field string, lo, hi ksuid.KSUID) any { return bsoncodec.KSUIDField(field).Between(lo, hi).D() },
		upsert: func(ctx context.Context, coll *mongo.Collection, id ksuid.KSUID, update bson.D) error {
			filter, update := f.upsertKSUID("_id", id, update)
			_, err := coll.UpdateOne(ctx, filter, update, options.UpdateOne().SetUpsert(true))
			return err
		},
	}
}

// normalizedStyle normalizes both collections to the declared form with
// bsoncodec.NormalizeKSUIDs, then asks with the typed value.
func normalizedStyle(f mongoForm) mongoStyle {
	s := typedStyle(f)
	s.name = "typed value after NormalizeKSUIDs"
	s.prepare = func(ctx context.Context, m *mongoCase) error {
		if err := f.normalize(ctx, m.events, orderField); err != nil {
			return err
		}
		return f.normalize(ctx, m.orders, "_id")
	}
	return s
}

var mongoForms = []mongoForm{
	{"KSUID", func(id ksuid.KSUID) any { return id }, bson.TypeString,
		func(field bsoncodec.KSUIDField, id ksuid.KSUID, update bson.D) (bson.D, bson.D) {
			filter, update := bsoncodec.UpsertKSUID(field, id, update)
			return filter.D(), update
		},
		normalizeKSUIDs},
	{"StringKSUID", func(id ksuid.KSUID) any { return ksuid.StringKSUID(id) }, bson.TypeString,
		func(field bsoncodec.KSUIDField, id ksuid.KSUID, update bson.D) (bson.D, bson.D) {
			filter, update := bsoncodec.UpsertKSUID(field, ksuid.StringKSUID(id), update)
			return filter.D(), update
		},
		normalizeKSUIDs},
}

func normalizeKSUIDs(ctx context.Context, coll *mongo.Collection, field bsoncodec.KSUIDField) error {
	_, err := bsoncodec.NormalizeKSUIDs(ctx, coll, field, bsoncodec.NormalizeOptions{})
	return err
}

// mongoHistory says whether writer w is history rather than a set-up of
// today: older code that stored binary. A filter with the typed value
// misses its documents (the string and the binary are different BSON
// values); KSUIDField's filters and NormalizeKSUIDs are for them, and the
// matrix fails on a silent cell of every other writer.
func mongoHistory(w mongoWriter) bool { return w.name == "older code (binary)" }

// mongoCase is one cell's world: three orders with four events each, two
// from the service and two from the writer, and the orders A (from the
// service) and B (from the writer).
type mongoCase struct {
	form           mongoForm
	style          mongoStyle
	events, orders *mongo.Collection
	a, b, c, d     ksuid.KSUID
	tB             time.Time
	eventsOf       map[ksuid.KSUID][]int // n of each order's events
}

type mongoOp struct {
	name string
	// run returns what went wrong ("" when the answer is right), or the
	// error the server or driver gave.
	run func(ctx context.Context, m *mongoCase) (string, error)
}

func (m *mongoCase) findNs(ctx context.Context, filter any) ([]int, error) {
	cur, err := m.events.Find(ctx, filter)
	if err != nil {
		return nil, err
	}
	var docs []struct {
		N int `bson:"n"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	ns := make([]int, len(docs))
	for i, d := range docs {
		ns[i] = d.N
	}
	sort.Ints(ns)
	return ns, nil
}

func (m *mongoCase) of(ids ...ksuid.KSUID) []int {
	var ns []int
	for _, id := range ids {
		ns = append(ns, m.eventsOf[id]...)
	}
	sort.Ints(ns)
	return ns
}

func compareNs(got, want []int) string {
	if slices.Equal(got, want) {
		return ""
	}
	return fmt.Sprintf("%d documents %v, want %d %v", len(got), got, len(want), want)
}

func findOp(name string, filter func(m *mongoCase) any, want func(m *mongoCase) []int) mongoOp {
	return mongoOp{name, func(ctx context.Context, m *mongoCase) (string, error) {
		got, err := m.findNs(ctx, filter(m))
		if err != nil {
			return "", err
		}
		return compareNs(got, want(m)), nil
	}}
}

const orderField = "order_id"

// mongoWrites names the operations that change the collections.
var mongoWrites = map[string]bool{"UpdateMany": true, "DeleteMany $nin": true, "DeleteMany $in": true, "upsert": true}

var mongoOps = []mongoOp{
	findOp("find =", func(m *mongoCase) any { return m.style.eq(orderField, m.a) }, func(m *mongoCase) []int { return m.of(m.a) }),
	findOp("find $in", func(m *mongoCase) any { return m.style.in(orderField, m.a, m.b) }, func(m *mongoCase) []int { return m.of(m.a, m.b) }),
	findOp("find $nin", func(m *mongoCase) any { return m.style.nin(orderField, m.a, m.b) }, func(m *mongoCase) []int { return m.of(m.c) }),
	findOp("find $ne", func(m *mongoCase) any { return m.style.ne(orderField, m.a) }, func(m *mongoCase) []int { return m.of(m.b, m.c) }),
	findOp("find window", func(m *mongoCase) any {
		lo, _ := ksuid.MinAt(m.tB)
		hi, _ := ksuid.MaxAt(m.tB)
		return m.style.between(orderField, lo, hi)
	}, func(m *mongoCase) []int { return m.of(m.b) }),
	{"CountDocuments", func(ctx context.Context, m *mongoCase) (string, error) {
		n, err := m.events.CountDocuments(ctx, m.style.eq(orderField, m.b))
		if err != nil {
			return "", err
		}
		if want := len(m.of(m.b)); int(n) != want {
			return fmt.Sprintf("counted %d, want %d", n, want), nil
		}
		return "", nil
	}},
	{"aggregate $match $count", func(ctx context.Context, m *mongoCase) (string, error) {
		cur, err := m.events.Aggregate(ctx, mongo.Pipeline{
			{{Key: "$match", Value: m.style.in(orderField, m.a, m.c)}},
			{{Key: "$count", Value: "n"}},
		})
		if err != nil {
			return "", err
		}
		var res []struct {
			N int `bson:"n"`
		}
		if err := cur.All(ctx, &res); err != nil {
			return "", err
		}
		want := len(m.of(m.a, m.c))
		if len(res) != 1 || res[0].N != want {
			return fmt.Sprintf("counted %v, want %d", res, want), nil
		}
		return "", nil
	}},
	{"aggregate $group", func(ctx context.Context, m *mongoCase) (string, error) {
		cur, err := m.events.Aggregate(ctx, mongo.Pipeline{
			{{Key: "$match", Value: m.style.in(orderField, m.a, m.b, m.c)}},
			{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$" + orderField}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
		})
		if err != nil {
			return "", err
		}
		var res []struct {
			ID ksuid.KSUID `bson:"_id"`
			N  int         `bson:"n"`
		}
		if err := cur.All(ctx, &res); err != nil {
			return "", err
		}
		got := map[ksuid.KSUID]int{}
		for _, r := range res {
			got[r.ID] = r.N
		}
		if len(res) != 3 || got[m.a] != 4 || got[m.b] != 4 || got[m.c] != 4 {
			return fmt.Sprintf("%d groups %v, want 3 of 4 events each", len(res), res), nil
		}
		return "", nil
	}},
	{"Distinct", func(ctx context.Context, m *mongoCase) (string, error) {
		// Without the deadline: with one the driver sends maxTimeMS, which
		// FerretDB's distinct refuses.
		res := m.events.Distinct(context.WithoutCancel(ctx), orderField, bson.D{})
		if err := res.Err(); err != nil {
			return "", err
		}
		var ids []ksuid.KSUID
		if err := res.Decode(&ids); err != nil {
			return "", err
		}
		ksuid.Sort(ids)
		want := []ksuid.KSUID{m.a, m.b, m.c}
		if !slices.Equal(ids, want) {
			return fmt.Sprintf("%d values %v, want %v", len(ids), ids, want), nil
		}
		return "", nil
	}},
	{"UpdateMany", func(ctx context.Context, m *mongoCase) (string, error) {
		res, err := m.events.UpdateMany(ctx, m.style.eq(orderField, m.a), bson.D{{Key: "$set", Value: bson.D{{Key: "flag", Value: true}}}})
		if err != nil {
			return "", err
		}
		got, err := m.findNs(ctx, bson.D{{Key: "flag", Value: true}})
		if err != nil {
			return "", err
		}
		if d := compareNs(got, m.of(m.a)); d != "" {
			return fmt.Sprintf("matched %d, updated %s", res.MatchedCount, d), nil
		}
		return "", nil
	}},
	{"DeleteMany $nin", func(ctx context.Context, m *mongoCase) (string, error) {
		if _, err := m.events.DeleteMany(ctx, m.style.nin(orderField, m.a, m.b)); err != nil {
			return "", err
		}
		got, err := m.findNs(ctx, bson.D{})
		if err != nil {
			return "", err
		}
		if d := compareNs(got, m.of(m.a, m.b)); d != "" {
			return "kept " + d, nil
		}
		return "", nil
	}},
	{"DeleteMany $in", func(ctx context.Context, m *mongoCase) (string, error) {
		if _, err := m.events.DeleteMany(ctx, m.style.in(orderField, m.b)); err != nil {
			return "", err
		}
		got, err := m.findNs(ctx, bson.D{})
		if err != nil {
			return "", err
		}
		if d := compareNs(got, m.of(m.a, m.c)); d != "" {
			return "kept " + d, nil
		}
		return "", nil
	}},
	{"upsert", func(ctx context.Context, m *mongoCase) (string, error) {
		// B exists (written by the other writer); D does not.
		for _, id := range []ksuid.KSUID{m.b, m.d} {
			if err := m.style.upsert(ctx, m.orders, id, bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}}); err != nil {
				return "", err
			}
		}
		cur, err := m.orders.Find(ctx, bson.D{})
		if err != nil {
			return "", err
		}
		var docs []bson.Raw
		if err := cur.All(ctx, &docs); err != nil {
			return "", err
		}
		var got []string
		seen := map[ksuid.KSUID]bool{}
		for _, raw := range docs {
			v := raw.Lookup("_id")
			var id ksuid.KSUID
			if err := id.UnmarshalBSONValue(byte(v.Type), v.Value); err != nil {
				return fmt.Sprintf("a document with _id %v, not an order's KSUID", v), nil
			}
			paid, _ := raw.Lookup("paid").BooleanOK()
			if seen[id] || (id == m.d && v.Type != m.form.stored) || paid != (id == m.b || id == m.d) {
				got = append(got, fmt.Sprintf("%v as %v paid=%v", id, v.Type, paid))
			}
			seen[id] = true
		}
		if len(got) > 0 || len(seen) != 3 || !seen[m.a] || !seen[m.b] || !seen[m.d] {
			return fmt.Sprintf("%d orders, wrong: %v", len(docs), got), nil
		}
		return "", nil
	}},
}

// seed writes the case's documents; the service writes the first two
// events of each order and order A, the writer the rest and order B.
func (m *mongoCase) seed(ctx context.Context, w mongoWriter) error {
	service := mongoWriter{"service", insertWith(func() *mongo.Database { return servers.mongoDB })}
	m.eventsOf = map[ksuid.KSUID][]int{}
	n := 0
	for _, order := range []ksuid.KSUID{m.a, m.b, m.c} {
		for i := range 4 {
			n++
			by := service
			if i >= 2 {
				by = w
			}
			if err := by.write(ctx, m.form, m.events.Name(), mongoDocSpec{event: true, order: order, n: n}); err != nil {
				return fmt.Errorf("%s writing an event: %w", by.name, err)
			}
			m.eventsOf[order] = append(m.eventsOf[order], n)
		}
	}
	if err := service.write(ctx, m.form, m.orders.Name(), mongoDocSpec{order: m.a, n: 1}); err != nil {
		return err
	}
	if err := w.write(ctx, m.form, m.orders.Name(), mongoDocSpec{order: m.b, n: 2}); err != nil {
		return fmt.Errorf("%s writing an order: %w", w.name, err)
	}
	return nil
}

// The documented silent cells of binary history, which the matrix counts
// apart: typed values miss binary documents (KSUIDField's and
// NormalizeKSUIDs's job), and $group and Distinct see two values per ID
// even with the helpers.
const (
	historyTyped  = "silent, binary history with typed values (KSUIDField's job)"
	historyGroups = "silent, binary history with $group or Distinct (normalize first)"
)

func TestMongoReadMatrix(t *testing.T) {
	needServers(t)
	t.Parallel() // with the normalization tests, which use other databases
	ctx := testContext(t)
	base := time.Now().Truncate(time.Second).Add(-3 * time.Hour)
	ids := make([]ksuid.KSUID, 4)
	for i := range ids {
		var err error
		if ids[i], err = ksuid.NewAt(base.Add(time.Duration(i) * time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	type cell struct{ form, writer, style, op, outcome, detail string }
	var cells []cell
	counts := map[string]int{}
	name := sanitize(t.Name())
	for _, f := range mongoForms {
		for _, w := range mongoWriters {
			for _, s := range []mongoStyle{typedStyle(f), helperStyle(f), normalizedStyle(f)} {
				// The read-only operations share one seeding; each that
				// writes gets its own.
				var m *mongoCase
				var prepareErr error
				for _, op := range mongoOps {
					if m == nil || mongoWrites[op.name] {
						m = &mongoCase{form: f, style: s, a: ids[0], b: ids[1], c: ids[2], d: ids[3], tB: base.Add(time.Hour)}
						var err error
						if m.events, err = recreateCollection(ctx, servers.mongoDB, name+"_events"); err != nil {
							t.Fatal(err)
						}
						if m.orders, err = recreateCollection(ctx, servers.mongoDB, name+"_orders"); err != nil {
							t.Fatal(err)
						}
						if err := m.seed(ctx, w); err != nil {
							t.Fatalf("%s form, %s: %v", f.name, w.name, err)
						}
						prepareErr = nil
						if s.prepare != nil {
							prepareErr = s.prepare(ctx, m)
						}
					}
					c := cell{f.name, w.name, s.name, op.name, "correct", ""}
					var wrong string
					err := prepareErr
					if err == nil {
						wrong, err = op.run(ctx, m)
					}
					switch {
					case err != nil:
						c.outcome, c.detail = "loud", err.Error()
					case wrong != "":
						c.outcome, c.detail = "silent", wrong
					}
					key := c.outcome
					switch {
					case c.outcome != "silent" || !mongoHistory(w):
					case s.name == "typed value":
						key = historyTyped
					case s.name == "bsoncodec helpers" && (op.name == "aggregate $group" || op.name == "Distinct"):
						key = historyGroups
					}
					counts[key]++
					cells = append(cells, c)
				}
			}
		}
	}
	for _, c := range []*mongo.Collection{servers.mongoDB.Collection(name + "_events"), servers.mongoDB.Collection(name + "_orders")} {
		c.Drop(context.Background())
	}
	var summary []string
	for _, o := range []string{"correct", "loud", historyTyped, historyGroups, "silent"} {
		summary = append(summary, fmt.Sprintf("%s %d", o, counts[o]))
	}
	fmt.Printf("MongoDB read matrix: %d cells: %s\n", len(cells), strings.Join(summary, ", "))
	for _, c := range cells {
		history := mongoHistory(mongoWriterNamed(c.writer))
		switch {
		case c.outcome == "silent" && !history:
			t.Errorf("silent: %s form, written by %s, %s, %s: %s", c.form, c.writer, c.style, c.op, c.detail)
		case c.outcome != "correct" && strings.HasSuffix(c.style, "NormalizeKSUIDs"):
			t.Errorf("%s after normalizing: %s form, written by %s, %s: %s", c.outcome, c.form, c.writer, c.op, c.detail)
		case c.outcome == "silent" && c.style == "bsoncodec helpers" && c.op != "aggregate $group" && c.op != "Distinct":
			// The docs: in a collection of both forms the helpers are
			// right but for $group and Distinct.
			t.Errorf("silent with the helpers: %s form, written by %s, %s: %s", c.form, c.writer, c.op, c.detail)
		case c.outcome == "loud" && !history:
			t.Errorf("loud: %s form, written by %s, %s, %s: %s", c.form, c.writer, c.style, c.op, c.detail)
		case testing.Verbose() && c.outcome == "loud":
			t.Logf("loud: %s form, written by %s, %s, %s: %s", c.form, c.writer, c.style, c.op, c.detail)
		}
	}
	// What binary history gets with typed values, one line each.
	history := map[string][]string{}
	var keys []string
	for _, c := range cells {
		if c.outcome == "silent" && mongoHistory(mongoWriterNamed(c.writer)) {
			k := fmt.Sprintf("%s form, written by %s, %s", c.form, c.writer, c.style)
			if history[k] == nil {
				keys = append(keys, k)
			}
			history[k] = append(history[k], c.op)
		}
	}
	for _, k := range keys {
		fmt.Printf("  silent with binary history: %s: %s\n", k, strings.Join(history[k], ", "))
	}
}

func mongoWriterNamed(name string) mongoWriter {
	for _, w := range mongoWriters {
		if w.name == name {
			return w
		}
	}
	panic(name)
}
