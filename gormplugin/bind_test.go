package gormplugin

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// The binder's unit tests run GORM in DryRun mode on a stand-in dialect
// that writes PostgreSQL's (or MySQL's) SQL, over a database/sql driver
// of their own that answers only the plugin's catalog query, from
// catalogs: table name (as to_regclass reads it) -> rows of columnsSQL.
// The integration tests (containers_test) run the same shapes on real
// servers.

type catalogRow struct {
	name, typ, typtype, base string
	size                     int64
	coll                     string // a text column's collation: "C", or "en-US-x-icu", which misorders
}

var (
	catalogMu      sync.Mutex
	catalogs       = map[string]map[string][]catalogRow{} // DSN -> table -> columns
	catalogQueries = map[string]int{}                     // DSN -> catalog queries answered
)

type catalogDriver struct{}

func (catalogDriver) Open(dsn string) (driver.Conn, error) { return catalogConn{dsn}, nil }

type catalogConn struct{ dsn string }

func (catalogConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (catalogConn) Close() error                        { return nil }
func (catalogConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }

func (c catalogConn) QueryContext(_ context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if strings.Contains(query, "bool_and") { // collationOrderSQL
		return &boolRows{strings.Contains(query, `"C"`)}, nil
	}
	if query == mysqlColumnsSQL { // the stand-in MySQL has no tables: the model says
		return emptyRows{"COLUMN_NAME", "DATA_TYPE", "LENGTH"}, nil
	}
	if query != columnsSQL || len(args) != 1 {
		return nil, fmt.Errorf("unexpected query %q", query)
	}
	catalogMu.Lock()
	defer catalogMu.Unlock()
	catalogQueries[c.dsn]++
	return &catalogRows{rows: catalogs[c.dsn][args[0].Value.(string)]}, nil
}

type catalogRows struct{ rows []catalogRow }

func (*catalogRows) Columns() []string {
	return []string{"attname", "typname", "typtype", "base", "size", "nspname", "collname"}
}
func (*catalogRows) Close() error { return nil }
func (r *catalogRows) Next(dest []driver.Value) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	c := r.rows[0]
	r.rows = r.rows[1:]
	dest[0], dest[1], dest[2], dest[3], dest[4], dest[5], dest[6] = c.name, c.typ, c.typtype, c.base, c.size, "", ""
	if c.coll != "" {
		dest[5], dest[6] = "pg_catalog", c.coll
	}
	return nil
}

type emptyRows []string

func (r emptyRows) Columns() []string       { return r }
func (emptyRows) Close() error              { return nil }
func (emptyRows) Next([]driver.Value) error { return io.EOF }

type boolRows struct{ v bool }

func (*boolRows) Columns() []string { return []string{"bool_and"} }
func (*boolRows) Close() error      { return nil }
func (r *boolRows) Next(dest []driver.Value) error {
	if r == nil || r.v && dest == nil {
		return io.EOF
	}
	dest[0] = r.v
	*r = boolRows{}
	return nil
}

func init() { sql.Register("sortid-catalog", catalogDriver{}) }

// fakeDialect writes SQL the way gorm.io/driver/postgres (or mysql)
// does: $n placeholders and double quotes (? and backticks).
type fakeDialect struct{ name string }

func (d fakeDialect) Name() string { return d.name }
func (d fakeDialect) Initialize(db *gorm.DB) error {
	callbacks.RegisterDefaultCallbacks(db, &callbacks.Config{CreateClauses: []string{"INSERT", "VALUES", "ON CONFLICT", "RETURNING"}})
	return nil
}
func (fakeDialect) Migrator(*gorm.DB) gorm.Migrator                { return nil }
func (fakeDialect) DataTypeOf(*schema.Field) string                { return "" }
func (fakeDialect) DefaultValueOf(*schema.Field) clause.Expression { return nil }
func (d fakeDialect) BindVarTo(w clause.Writer, stmt *gorm.Statement, _ any) {
	if d.name == "mysql" {
		w.WriteByte('?')
		return
	}
	w.WriteString("$" + strconv.Itoa(len(stmt.Vars)))
}
func (d fakeDialect) QuoteTo(w clause.Writer, s string) {
	q := byte('"')
	if d.name == "mysql" {
		q = '`'
	}
	for i, part := range strings.Split(s, ".") {
		if i > 0 {
			w.WriteByte('.')
		}
		w.WriteByte(q)
		w.WriteString(part)
		w.WriteByte(q)
	}
}
func (fakeDialect) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, regexp.MustCompile(`\$(\d+)`), `'`, vars...)
}

// dryDB opens GORM with the plugin on the stand-in dialect, over a
// catalog of its own.
func dryDB(t *testing.T, dialect string, tables map[string][]catalogRow, opts ...Option) *gorm.DB {
	t.Helper()
	dsn := t.Name()
	catalogMu.Lock()
	catalogs[dsn] = tables
	catalogQueries[dsn] = 0
	catalogMu.Unlock()
	pool, err := sql.Open("sortid-catalog", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	db, err := gorm.Open(fakeDialect{dialect}, &gorm.Config{ConnPool: pool, DryRun: true, SkipDefaultTransaction: true, Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Use(New(opts...)); err != nil {
		t.Fatal(err)
	}
	return db
}

type order struct {
	ID     ksuid.KSUID
	Parent ksuid.NullKSUID
	Ref    string
}

type item struct {
	ID      objectid.ObjectID
	OrderID ksuid.KSUID
}

var (
	domainOrders = []catalogRow{{"id", "ksuid", "d", "bytea", 20, ""}, {"parent", "ksuid", "d", "bytea", 20, ""}, {"ref", "text", "b", "", 0, "C"}}
	textOrders   = []catalogRow{{"id", "varchar", "b", "", 0, "C"}, {"parent", "text", "b", "", 0, "C"}, {"ref", "text", "b", "", 0, "C"}}
	icuOrders    = []catalogRow{{"id", "text", "b", "", 0, "en-US-x-icu"}, {"parent", "text", "b", "", 0, "en-US-x-icu"}}
	byteaOrders  = []catalogRow{{"id", "bytea", "b", "", 20, ""}, {"parent", "bytea", "b", "", 20, ""}, {"ref", "text", "b", "", 0, "C"}}
	domainItems  = []catalogRow{{"id", "objectid", "d", "bytea", 12, ""}, {"order_id", "ksuid", "d", "bytea", 20, ""}}
	plainItems   = []catalogRow{{"id", "bytea", "b", "", 0, ""}, {"order_id", "bytea", "b", "", 0, ""}}
)

var (
	k1 = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	k2 = ksuid.MustParse("2Ab8gsNVRAQSsVbhHp1ws0z6s5Y")
	o1 = objectid.MustParse("60c468e6101bf215dc9fa835")
)

// vars returns the values a statement would send.
func vars(q *gorm.DB) ([]any, string, error) {
	return q.Statement.Vars, q.Statement.SQL.String(), q.Error
}

// TestBindPostgres: every shape of the issue, on a table of the domains
// and on one of text columns another tool made: the values go in the
// form the column reads, a string that is no ID is an error, and a value
// whose column cannot be told fails.
func TestBindPostgres(t *testing.T) {
	raw := func(id ksuid.KSUID) any { return rawID(id[:]) }
	text := func(id ksuid.KSUID) any { return id.String() }
	keep := []string{k1.String(), k2.String()}
	type shape struct {
		name string
		q    func(db *gorm.DB) *gorm.DB
		want func(conv func(ksuid.KSUID) any) []any
	}
	shapes := []shape{
		{"Where NOT IN strings, Delete", func(db *gorm.DB) *gorm.DB { return db.Where("id NOT IN ?", keep).Delete(&order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{[]any{c(k1), c(k2)}} }},
		{"Not(map), Delete", func(db *gorm.DB) *gorm.DB { return db.Not(map[string]any{"id": keep}).Delete(&order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), c(k2)} }},
		{"Not(id IN ?)", func(db *gorm.DB) *gorm.DB { return db.Not("id IN ?", keep).Delete(&order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{[]any{c(k1), c(k2)}} }},
		{"NOT (id IN ?)", func(db *gorm.DB) *gorm.DB { return db.Where("NOT (id IN ?)", keep).Delete(&order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{[]any{c(k1), c(k2)}} }},
		{"IS DISTINCT FROM", func(db *gorm.DB) *gorm.DB { return db.Where("id IS DISTINCT FROM ?", keep[0]).Delete(&order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1)} }},
		{"IS NOT DISTINCT FROM", func(db *gorm.DB) *gorm.DB { return db.Where("id IS NOT DISTINCT FROM ?", keep[0]).Find(&[]order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1)} }},
		{"? = id", func(db *gorm.DB) *gorm.DB { return db.Where("? = id", keep[0]).Find(&[]order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1)} }},
		{"= ANY(?)", func(db *gorm.DB) *gorm.DB { return db.Where("id = ANY(?)", keep).Find(&[]order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{[]any{c(k1), c(k2)}} }},
		{"<> and >", func(db *gorm.DB) *gorm.DB { return db.Where("id <> ? AND id > ?", keep[0], k2).Find(&[]order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), c(k2)} }},
		{"BETWEEN", func(db *gorm.DB) *gorm.DB {
			return db.Where(`"orders"."id" NOT BETWEEN ? AND ?`, keep[0], keep[1]).Find(&[]order{})
		},
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), c(k2)} }},
		{"First by a string", func(db *gorm.DB) *gorm.DB { return db.First(&order{}, "id = ?", keep[0]) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), 1} }},
		{"Delete(&T{}, id IN ?)", func(db *gorm.DB) *gorm.DB { return db.Delete(&order{}, "id IN ?", keep) },
			func(c func(ksuid.KSUID) any) []any { return []any{[]any{c(k1), c(k2)}} }},
		{"struct condition", func(db *gorm.DB) *gorm.DB { return db.Where(&order{ID: k1}).Find(&[]order{}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1)} }},
		{"a pointer and a Null", func(db *gorm.DB) *gorm.DB {
			return db.Where("id = ? AND parent = ?", &k1, ksuid.NullKSUID{KSUID: k2, Valid: true}).Find(&[]order{})
		}, func(c func(ksuid.KSUID) any) []any { return []any{c(k1), c(k2)} }},
		{"Update by ID", func(db *gorm.DB) *gorm.DB { return db.Model(&order{ID: k1}).Update("parent", k2) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k2), c(k1)} }},
		{"Create", func(db *gorm.DB) *gorm.DB { return db.Create(&order{ID: k1, Ref: "r"}) },
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), nil, "r"} }},
		{"Where(map) IN", func(db *gorm.DB) *gorm.DB {
			return db.Where(map[string]any{"id": []ksuid.KSUID{k1, k2}}).Find(&[]order{})
		},
			func(c func(ksuid.KSUID) any) []any { return []any{c(k1), c(k2)} }},
		{"an ID compared with a text column keeps its text", func(db *gorm.DB) *gorm.DB { return db.Where("ref = ?", k1).Find(&[]order{}) },
			func(func(ksuid.KSUID) any) []any { return []any{k1.String()} }},
		{"a joined table's column", func(db *gorm.DB) *gorm.DB {
			return db.Joins("JOIN items ON items.order_id = orders.id").Where("items.order_id = ?", keep[0]).Find(&[]order{})
		}, func(func(ksuid.KSUID) any) []any { return []any{raw(k1)} }},
		{"a joined table's column by its alias", func(db *gorm.DB) *gorm.DB {
			return db.Joins("JOIN items AS i ON i.order_id = orders.id").Where("i.order_id IN ?", keep).Find(&[]order{})
		}, func(func(ksuid.KSUID) any) []any { return []any{[]any{raw(k1), raw(k2)}} }},
	}
	for _, tc := range []struct {
		name   string
		orders []catalogRow
		conv   func(ksuid.KSUID) any
	}{
		{"domains", domainOrders, raw},
		{"bytea with length checks", byteaOrders, raw},
		{"text made by another tool", textOrders, text},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: tc.orders, `"items"`: domainItems, "i": nil})
			for _, s := range shapes {
				got, sql, err := vars(s.q(db.Session(&gorm.Session{})))
				want := s.want(tc.conv)
				if err != nil || !sameVars(flatten(got), flatten(want)) {
					t.Errorf("%s: %s %#v (%v); want %#v", s.name, sql, got, err, want)
				}
			}
		})
	}
}

// flatten spreads nested lists, as GORM spreads a slice into (?, ?).
func flatten(vs []any) []any {
	var out []any
	for _, v := range vs {
		if l, ok := v.([]any); ok {
			out = append(out, flatten(l)...)
			continue
		}
		out = append(out, v)
	}
	return out
}

func sameVars(got, want []any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		switch w := w.(type) {
		case rawID:
			if g, ok := g.(rawID); !ok || !bytes.Equal(g, w) {
				return false
			}
		case int:
			if fmt.Sprint(g) != fmt.Sprint(w) {
				return false
			}
		default:
			if g != w {
				return false
			}
		}
	}
	return true
}

// TestBindPostgresRefuses: a string that is no ID, compared with an ID
// column, is an error naming it; so is an ID of another type, and a value
// in an expression over an ID column, which the plugin cannot match to
// one column. Nothing is sent.
func TestBindPostgresRefuses(t *testing.T) {
	db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: domainOrders, `"items"`: domainItems})
	for _, tc := range []struct {
		name string
		q    func(db *gorm.DB) *gorm.DB
		want error
		text string
	}{
		{"a bad string", func(db *gorm.DB) *gorm.DB {
			return db.Where("id NOT IN ?", []string{k1.String(), "nope"}).Delete(&order{})
		}, ksuid.ErrInvalidLength, `"nope"`},
		{"a bad string in a text column of an ID field", func(db *gorm.DB) *gorm.DB {
			return db.Table("orders").Where("id = ?", "0qjBBlJIfbVLK-nJn4xpLGDr00e").Find(&[]order{})
		}, ksuid.ErrInvalidCharacter, "offset 13"},
		{"an ObjectID for a KSUID column", func(db *gorm.DB) *gorm.DB { return db.Where("id = ?", o1).Find(&[]order{}) }, ErrWrongIDType, o1.String()},
		{"an expression over the ID", func(db *gorm.DB) *gorm.DB { return db.Where("coalesce(parent, id) = ?", k1.String()).Find(&[]order{}) }, ErrUnclearColumn, "coalesce(parent, id)"},
		{"a row comparison", func(db *gorm.DB) *gorm.DB { return db.Where("(id, ref) = (?, ?)", k1.String(), "x").Find(&[]order{}) }, ErrUnclearColumn, "(id, ref)"},
		{"a dollar-quoted fragment", func(db *gorm.DB) *gorm.DB { return db.Where("id = ? AND ref <> $$x$$", k1.String()).Find(&[]order{}) }, ErrUnclearColumn, "$$x$$"},
	} {
		q := tc.q(db.Session(&gorm.Session{}))
		if !errors.Is(q.Error, tc.want) || !strings.Contains(fmt.Sprint(q.Error), tc.text) {
			t.Errorf("%s: %v; want an error wrapping %v that names %s", tc.name, q.Error, tc.want, tc.text)
		}
	}
	// Strings that meet no ID column pass untouched.
	got, _, err := vars(db.Where("lower(ref) = ? AND ref LIKE ?", "x", "y%").Limit(3).Find(&[]order{}))
	if err != nil || !sameVars(got, []any{"x", "y%", 3}) {
		t.Errorf("strings for a text column: %#v (%v)", got, err)
	}
	// A function argument keeps a string as it is: the function reads it.
	got, _, err = vars(db.Where("id = ksuid_from_text(?)", k1.String()).Find(&[]order{}))
	if err != nil || !sameVars(got, []any{k1.String()}) {
		t.Errorf("a function's argument: %#v (%v)", got, err)
	}
}

// TestBindMisorderingText: <, > and BETWEEN against a text ID column
// under a linguistic collation would not follow time: an error; = and IN
// are right under any deterministic collation and pass.
func TestBindMisorderingText(t *testing.T) {
	db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: icuOrders})
	for _, q := range []*gorm.DB{
		db.Where("id > ?", k1.String()).Find(&[]order{}),
		db.Where("id BETWEEN ? AND ?", k1, k2).Find(&[]order{}),
		db.Where(clause.Lt{Column: "id", Value: k1}).Find(&[]order{}),
	} {
		if !errors.Is(q.Error, ErrMisorderingColumn) {
			t.Errorf("%s: %v; want ErrMisorderingColumn", q.Statement.SQL.String(), q.Error)
		}
	}
	if got, _, err := vars(db.Where("id IN ?", []ksuid.KSUID{k1}).Find(&[]order{})); err != nil || !sameVars(flatten(got), []any{k1.String()}) {
		t.Errorf("IN on the text column: %#v (%v)", got, err)
	}
}

// TestBindPlainBytea: a bytea column that does not say which ID it holds
// (a joined table's, without the plugin's length check) takes the string
// as the ID its length names, and refuses one that is no ID's text.
func TestBindPlainBytea(t *testing.T) {
	db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: domainOrders, `"items"`: plainItems})
	q := db.Joins("JOIN items ON items.order_id = orders.id").Where("items.order_id = ? OR items.id = ?", k1.String(), o1.String()).Find(&[]order{})
	if got, _, err := vars(q); err != nil || !sameVars(got, []any{rawID(k1[:]), rawID(o1[:])}) {
		t.Errorf("strings for plain bytea columns: %#v (%v)", got, err)
	}
	q = db.Joins("JOIN items ON items.order_id = orders.id").Where("items.order_id = ?", "abc").Find(&[]order{})
	if !errors.Is(q.Error, ErrUnclearColumn) {
		t.Errorf("a string that is no ID for a plain bytea column: %v", q.Error)
	}
}

// TestBindColumnCache: a table's columns are read once, and AutoMigrate
// or the time-to-live makes the plugin read them again.
func TestBindColumnCache(t *testing.T) {
	db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: domainOrders})
	for range 3 {
		db.Where("id = ?", k1.String()).Find(&[]order{})
		// A session (and a transaction) copies the gorm.Config: the
		// cache is the database's all the same.
		db.Session(&gorm.Session{}).Where("id = ?", k1.String()).Find(&[]order{})
	}
	catalogMu.Lock()
	n := catalogQueries[t.Name()]
	catalogMu.Unlock()
	if n != 1 {
		t.Errorf("%d catalog queries for six statements on one table; want 1", n)
	}
}

// TestBindMySQL: on MySQL a UUID goes as its 16 bytes into the
// BINARY(16) column the plugin makes, a string compared with it is
// parsed (or refused), and KSUIDs keep the text of their char columns.
func TestBindMySQL(t *testing.T) {
	type mysqlModel struct {
		ID   uuidv7.UUID
		Key  ksuid.KSUID
		Name string
	}
	db := dryDB(t, "mysql", nil)
	u := uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	for _, tc := range []struct {
		name string
		q    *gorm.DB
		want []any
	}{
		{"create", db.Create(&mysqlModel{ID: u, Key: k1, Name: "n"}), []any{rawID(u[:]), k1.String(), "n"}},
		{"a UUID", db.Where("id = ?", u).Find(&[]mysqlModel{}), []any{rawID(u[:])}},
		{"a string", db.Where("`id` IN ?", []string{u.String()}).Find(&[]mysqlModel{}), []any{rawID(u[:])}},
		{"a KSUID string", db.Where("`key` = ?", k1.String()).Find(&[]mysqlModel{}), []any{k1.String()}},
	} {
		if got, sql, err := vars(tc.q); err != nil || !sameVars(flatten(got), tc.want) {
			t.Errorf("%s: %s %#v (%v); want %#v", tc.name, sql, got, err, tc.want)
		}
	}
	q := db.Where("id = ?", "not-a-uuid").Find(&[]mysqlModel{})
	if !errors.Is(q.Error, uuidv7.ErrInvalidLength) {
		t.Errorf("a string that is no UUID: %v", q.Error)
	}
}

// TestLogShowsIDs: GORM's logger prints a bound ID as its text form.
func TestLogShowsIDs(t *testing.T) {
	db := dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: domainOrders})
	stmt := db.Where("id = ?", k1).Find(&[]order{}).Statement
	if got := db.Dialector.Explain(stmt.SQL.String(), stmt.Vars...); !strings.Contains(got, "'"+k1.String()+"'") {
		t.Errorf("logged as %s; want the ID's text", got)
	}
}

// BenchmarkBind: the plugin's cost per statement once a table's column
// types are cached, against GORM without the plugin (no catalog, IDs as
// GORM binds them): a lookup by a string ID, and an INSERT of 100 rows.
// The first statement of a table adds one catalog query (TestBindColumnCache).
func BenchmarkBind(b *testing.B) {
	t := &testing.T{}
	for _, withPlugin := range []bool{false, true} {
		name := map[bool]string{false: "gorm", true: "plugin"}[withPlugin]
		var db *gorm.DB
		if withPlugin {
			db = dryDB(t, "postgres", map[string][]catalogRow{`"orders"`: domainOrders})
		} else {
			pool, _ := sql.Open("sortid-catalog", "none")
			db, _ = gorm.Open(fakeDialect{"postgres"}, &gorm.Config{ConnPool: pool, DryRun: true, SkipDefaultTransaction: true, Logger: logger.Discard})
		}
		rows := make([]order, 100)
		for i := range rows {
			rows[i].ID = ksuid.New()
		}
		db.Where("id = ?", k1.String()).Find(&[]order{}) // fills the cache
		b.Run(name+"/where-string", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Where("id = ?", k1.String()).Find(&[]order{})
			}
		})
		b.Run(name+"/create-100", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Create(&rows)
			}
		})
	}
}

// TestBindRaw: SQL written whole (db.Exec, db.Raw) is read for the
// columns its placeholders meet: strings for ID columns are parsed, IDs
// for text columns go as text, and a bad string fails before anything is
// sent. Before, db.Exec("DELETE … NOT IN (?, ?)", strs…) on the domains
// compared the text as bytea and deleted every row.
func TestBindRaw(t *testing.T) {
	keep := []string{k1.String(), k2.String()}
	for _, tc := range []struct {
		name   string
		tables map[string][]catalogRow
		conv   func(ksuid.KSUID) any
	}{
		{"domains", map[string][]catalogRow{`"orders"`: domainOrders, `"items"`: domainItems}, func(id ksuid.KSUID) any { return rawID(id[:]) }},
		{"text", map[string][]catalogRow{`"orders"`: textOrders, `"items"`: domainItems}, func(id ksuid.KSUID) any { return id.String() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := dryDB(t, "postgres", tc.tables)
			for _, c := range []struct {
				q    *gorm.DB
				want []any
			}{
				{db.Exec("DELETE FROM orders WHERE id NOT IN (?, ?)", keep[0], keep[1]), []any{tc.conv(k1), tc.conv(k2)}},
				{db.Exec("DELETE FROM orders WHERE id NOT IN ?", keep), []any{tc.conv(k1), tc.conv(k2)}},
				{db.Exec("DELETE FROM orders o WHERE o.id IS DISTINCT FROM ?", keep[0]), []any{tc.conv(k1)}},
				{db.Exec("UPDATE orders SET parent = ?, ref = ? WHERE id = ?", k2, "r", keep[0]), []any{tc.conv(k2), "r", tc.conv(k1)}},
				{db.Exec("INSERT INTO orders (id, parent, ref) VALUES (?, ?, ?), (?, NULL, ?)", k1, keep[1], "a", k2, "b"),
					[]any{tc.conv(k1), tc.conv(k2), "a", tc.conv(k2), "b"}},
				{db.Raw("SELECT * FROM orders JOIN items i ON i.order_id = orders.id WHERE i.order_id = ? AND orders.id > ?", keep[0], k1).Find(&[]order{}),
					[]any{rawID(k1[:]), tc.conv(k1)}},
			} {
				var stmt *gorm.Statement
				if c.q.Statement.SQL.Len() > 0 {
					stmt = c.q.Statement
				}
				if c.q.Error != nil || stmt == nil || !sameVars(stmt.Vars, c.want) {
					t.Errorf("%s: %#v (%v); want %#v", c.q.Statement.SQL.String(), c.q.Statement.Vars, c.q.Error, c.want)
				}
			}
			// A string that is no KSUID, for the domain: an error. A text
			// column no model describes holds any text: it finds nothing.
			q := db.Exec("DELETE FROM orders WHERE id NOT IN (?, ?)", keep[0], "nope")
			if tc.name == "domains" && !errors.Is(q.Error, ksuid.ErrInvalidLength) || tc.name == "text" && q.Error != nil {
				t.Errorf("a bad string in raw SQL: %v", q.Error)
			}
			// SQL the tokenizer cannot read keeps its values.
			q = db.Exec("DO $$ BEGIN PERFORM 1; END $$; SELECT ?", keep[0])
			if q.Error != nil || !sameVars(q.Statement.Vars, []any{keep[0]}) {
				t.Errorf("unread SQL: %#v (%v)", q.Statement.Vars, q.Error)
			}
		})
	}
}
