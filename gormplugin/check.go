package gormplugin

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/gormplugin/internal/idkind"
)

// ErrColumnType is wrapped by the error for an ID column whose type does
// not hold the ID's text, a bytea column above all: it reads the
// 27-character text a KSUID sends as 27 other bytes, so that lookups
// miss and NOT IN matches every row.
var ErrColumnType = errors.New("ID column of a type that does not hold the ID's text")

// ErrMisorderingColumn is wrapped by the error for a text ID column whose
// collation does not sort the IDs' text by its bytes, and so not by time
// (most linguistic collations; case-insensitive ones, in which two
// KSUIDs can compare equal).
var ErrMisorderingColumn = errors.New("ID column in a misordering collation")

// ErrDistributedDomain is wrapped by the error for a table that Citus
// distributes by a column of sortid sql's ksuid or objectid domain:
// Citus 14 routes a lookup by such a key to no shard, so it finds no row.
var ErrDistributedDomain = errors.New("table distributed by Citus by one of sortid sql's domains")

// column is what the catalog says of one column of a table.
type column struct {
	typ       string // as the database writes it: "text", "ksuid", "character varying(27)", "binary(16)"
	typname   string // PostgreSQL's type name, unqualified: "ksuid", "uuid", "bytea"
	textual   bool   // text, varchar or char, or a domain over one
	base      bool   // a base type of PostgreSQL: uuid, the extension's ksuid and objectid
	collation string // "" where the type has none
	bytewise  bool   // the collation sorts text by its bytes
	// distributed: Citus distributes the table by this column.
	distributed bool
}

// distributedDomain reports whether c is a column of sortid sql's ksuid
// or objectid domain by which Citus distributes its table.
func (c column) distributedDomain() bool {
	return c.distributed && c.textual && (c.typname == "ksuid" || c.typname == "objectid")
}

// checkColumns runs before GORM sends a statement on a table: it fails
// the statement, before anything is sent, if a column that the statement
// gives an ID cannot hold the ID's text in byte order (see column.check).
// Those columns are the model's ID fields and the columns that the
// statement's conditions compare with an ID value (Where("id > ?", id),
// with or without a model). The table is the one the statement reaches:
// db.Table's name, schema and all, or the model's with any TablePrefix.
//
// The table's columns are read from the catalog once per connection
// scope (see columnCache) and kept, so a warm scope sends no query. It
// runs no query under DryRun; a table it cannot see (not created yet) is
// left to the statement.
func (d dialector) checkColumns(db *gorm.DB) {
	stmt := db.Statement
	if db.Error != nil || db.DryRun || stmt.ConnPool == nil || (stmt.Table == "" && stmt.TableExpr == nil) {
		return
	}
	dialect := d.Name()
	if dialect != "postgres" && dialect != "mysql" {
		return // SQLite compares text bytewise unless a column says otherwise
	}
	ids := statementIDColumns(stmt)
	if len(ids) == 0 {
		return
	}
	tableSQL := statementTable(stmt)
	cols, err := d.columns.get(stmt.Context, stmt.ConnPool, dialect, tableSQL)
	if err != nil {
		db.AddError(err)
		return
	}
	table := unquote.Replace(tableSQL)
	for _, id := range ids {
		c, ok := cols[id.name]
		if ok && c.distributedDomain() {
			db.AddError(fmt.Errorf("gormplugin: Citus distributes %s by %s, a column of sortid sql's %s domain, and Citus 14 finds no row by it; "+
				"distribute the table by a column of the sortid extension's type or uuid (sortid check reports it; docs/scale.md): %w",
				table, id.name, c.typname, ErrDistributedDomain))
			return
		}
		if !ok || c.holds(id.kind) {
			continue
		}
		if !c.textual || !d.accepted.has(table) {
			if id.ordered || !c.textual {
				db.AddError(c.check(table, id.name, id.kind))
				return
			}
			continue
		}
		// A table WithEqualityOnly accepts: its model's ID fields are
		// compared by equality, unless the statement orders by them.
		if id.ordered && !id.field || id.field && orderedBy(stmt, id.name) && !pinned(ids, id.name) {
			db.AddError(fmt.Errorf("gormplugin: table %s is accepted for equality only (WithEqualityOnly), and this statement orders %s, which %q does not sort by time: %w",
				table, id.name, c.collation, ErrMisorderingColumn))
			return
		}
		d.accepted.logOnce(db, table, id.name, c.collation)
	}
}

// acceptedTables are the tables WithEqualityOnly names, and those the
// plugin has logged it accepted.
type acceptedTables struct {
	tables map[string]bool
	logged sync.Map // table name → struct{}
}

func (a *acceptedTables) has(table string) bool { return a != nil && a.tables[table] }

func (a *acceptedTables) logOnce(db *gorm.DB, table, column, collation string) {
	if _, done := a.logged.LoadOrStore(table, struct{}{}); done || db.Logger == nil {
		return
	}
	db.Logger.Warn(db.Statement.Context, "gormplugin: table %s accepted for equality only (WithEqualityOnly): its ID column %s is text under %q, which does not sort IDs by time; a comparison or ORDER BY by ID is refused",
		table, column, collation)
}

// pinned reports whether ids compare column with = to one ID: the order
// of the rows the statement reaches is then moot.
func pinned(ids []idColumn, column string) bool {
	for _, id := range ids {
		if id.pinned && id.name == column {
			return true
		}
	}
	return false
}

// isSlice reports whether v is a slice (of IDs).
func isSlice(v any) bool { return v != nil && reflect.TypeOf(v).Kind() == reflect.Slice }

// orderedBy reports whether stmt's ORDER BY names column (GORM's First
// and Last order by the primary key).
func orderedBy(stmt *gorm.Statement, column string) bool {
	c, ok := stmt.Clauses["ORDER BY"]
	if !ok {
		return false
	}
	orderBy, ok := c.Expression.(clause.OrderBy)
	if !ok {
		return true // an ORDER BY of another shape: not known to be safe
	}
	if orderBy.Expression != nil {
		return true
	}
	for _, col := range orderBy.Columns {
		name := col.Column.Name
		if name == clause.PrimaryKey && stmt.Schema != nil && stmt.Schema.PrioritizedPrimaryField != nil {
			name = stmt.Schema.PrioritizedPrimaryField.DBName
		}
		if col.Column.Raw {
			// Order("id desc"), Order("t.id"): the first word, unqualified.
			if f := strings.Fields(name); len(f) > 0 {
				name = f[0]
			}
		}
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if strings.Trim(name, "`\"") == column {
			return true
		}
	}
	return false
}

// statementTable is the table a statement reaches, as SQL: db.Table's
// expression ("inv"."items" for db.Table("inv.items")), else the quoted
// name GORM gives the model (TablePrefix included).
func statementTable(stmt *gorm.Statement) string {
	if stmt.TableExpr != nil {
		return stmt.TableExpr.SQL
	}
	return stmt.Quote(stmt.Table)
}

// idColumn is a column a statement gives IDs of kind. ordered is false
// where the statement only compares the column with IDs for equality
// (=, <>, IN, NOT IN), which a text column under a linguistic collation
// answers right: a model's ID fields are always ordered (their table
// is used for every statement of the model).
type idColumn struct {
	name    string
	kind    *idkind.Kind
	ordered bool
	field   bool // one of the model's ID fields
	pinned  bool // compared with = to one ID: the statement reaches one row
}

// statementIDColumns returns the columns a statement gives IDs: its
// model's ID fields, and the columns its WHERE conditions compare with an
// ID value.
func statementIDColumns(stmt *gorm.Statement) []idColumn {
	var ids []idColumn
	if stmt.Schema != nil {
		for _, f := range stmt.Schema.Fields {
			if k := fieldKind(f); k != nil && f.DBName != "" {
				ids = append(ids, idColumn{f.DBName, k, true, true, false})
			}
		}
	}
	if c, ok := stmt.Clauses["WHERE"]; ok {
		if where, ok := c.Expression.(clause.Where); ok {
			ids = appendCompared(ids, where.Exprs)
		}
	}
	return ids
}

// comparedColumn finds, in a condition's SQL, each column compared with a
// placeholder: id > ?, t.id IN ?, id BETWEEN ? AND ?, "id" <> ?.
var comparedColumn = regexp.MustCompile(`(?i)(?:^|[\s(,])(?:[\x60"]?\w+[\x60"]?\.)?[\x60"]?(\w+)[\x60"]?\s*(=|<>|!=|<=|>=|<|>|\bNOT\s+IN\b|\bIN\b|\bNOT\s+BETWEEN\b|\bBETWEEN\b|\bIS\s+(?:NOT\s+)?DISTINCT\s+FROM\b)\s*\(?\s*\?`)

// appendCompared adds the columns that conditions compare with an ID
// value (an ID, a pointer or Null type, or a slice of them).
func appendCompared(ids []idColumn, exprs []clause.Expression) []idColumn {
	for _, e := range exprs {
		switch e := e.(type) {
		case clause.Expr:
			if len(e.Vars) == 0 {
				continue
			}
			for _, p := range placeholderColumns(e.SQL) {
				if p.arg < len(e.Vars) {
					if k := valueKind(e.Vars[p.arg]); k != nil {
						ids = append(ids, idColumn{p.column, k, p.ordered, false, p.equal && !isSlice(e.Vars[p.arg])})
					}
				}
			}
		case clause.Eq:
			ids = appendColumn(ids, e.Column, e.Value, false)
			if len(ids) > 0 && !isSlice(e.Value) {
				ids[len(ids)-1].pinned = true
			}
		case clause.Neq:
			ids = appendColumn(ids, e.Column, e.Value, false)
		case clause.Gt:
			ids = appendColumn(ids, e.Column, e.Value, true)
		case clause.Gte:
			ids = appendColumn(ids, e.Column, e.Value, true)
		case clause.Lt:
			ids = appendColumn(ids, e.Column, e.Value, true)
		case clause.Lte:
			ids = appendColumn(ids, e.Column, e.Value, true)
		case clause.IN:
			if len(e.Values) > 0 {
				ids = appendColumn(ids, e.Column, e.Values[0], false)
			}
		case clause.AndConditions:
			ids = appendCompared(ids, e.Exprs)
		case clause.OrConditions:
			ids = appendCompared(ids, e.Exprs)
		case clause.NotConditions:
			ids = appendCompared(ids, e.Exprs)
		}
	}
	return ids
}

// placeholderColumn is a column a condition compares with its arg-th
// placeholder, by order (<, BETWEEN) or not.
type placeholderColumn struct {
	column  string
	arg     int
	ordered bool
	equal   bool // by =
}

// parsedConditions keeps what placeholderColumns found in each condition's
// SQL, which is most often a constant of the program; up to
// maxParsedConditions of them.
var (
	parsedConditions    sync.Map // string → []placeholderColumn
	parsedCount         atomic.Int64
	maxParsedConditions int64 = 4096
)

// placeholderColumns returns the columns sql compares with a placeholder.
func placeholderColumns(sql string) []placeholderColumn {
	if found, ok := parsedConditions.Load(sql); ok {
		return found.([]placeholderColumn)
	}
	var found []placeholderColumn
	for _, m := range comparedColumn.FindAllStringSubmatchIndex(sql, -1) {
		// The placeholder's index: the ?s before the match's last one.
		op := strings.ToUpper(sql[m[4]:m[5]])
		ordered := strings.HasPrefix(op, "<") && op != "<>" || strings.HasPrefix(op, ">") || strings.HasSuffix(op, "BETWEEN")
		found = append(found, placeholderColumn{sql[m[2]:m[3]], strings.Count(sql[:m[1]-1], "?"), ordered, op == "="})
	}
	if parsedCount.Load() < maxParsedConditions {
		if _, loaded := parsedConditions.LoadOrStore(sql, found); !loaded {
			parsedCount.Add(1)
		}
	}
	return found
}

func appendColumn(ids []idColumn, column, value any, ordered bool) []idColumn {
	k := valueKind(value)
	if k == nil {
		return ids
	}
	switch c := column.(type) {
	case string:
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			c = c[i+1:]
		}
		return append(ids, idColumn{strings.Trim(c, "`\""), k, ordered, false, false})
	case clause.Column:
		return append(ids, idColumn{c.Name, k, ordered, false, false})
	}
	return ids
}

// valueKind returns the kind of an ID value, or of the elements of a
// slice or array of them; nil for anything else.
func valueKind(v any) *idkind.Kind {
	if v == nil {
		return nil
	}
	t := reflect.TypeOf(v)
	if k, _ := idkind.Of(t); k != nil {
		return k
	}
	if t.Kind() == reflect.Slice {
		k, _ := idkind.Of(t.Elem())
		return k
	}
	return nil
}

// unquote turns a table's SQL into the name an error shows.
var unquote = strings.NewReplacer(`"`, "", "`", "")

// holds reports whether c holds IDs of k as their text in byte order (or
// is the ID's own type).
func (c column) holds(k *idkind.Kind) bool {
	return c.base && (c.typname == k.PGType || k == idkind.UUIDv7 && c.typname == "uuid") || c.textual && c.bytewise
}

// check returns an error naming the column and the fix if c cannot hold
// IDs of k as their text in byte order; nil otherwise.
func (c column) check(table, name string, k *idkind.Kind) error {
	switch {
	case c.holds(k):
		return nil
	case c.textual:
		return fmt.Errorf("gormplugin: column %s.%s holds %s IDs as text under the collation %q, which does not sort them by time; "+
			"give it a bytewise one (ALTER TABLE %s ALTER COLUMN %s TYPE %s COLLATE \"C\" on PostgreSQL, ascii_bin on MySQL): %w",
			table, name, k.Name, c.collation, table, name, c.typ, ErrMisorderingColumn)
	}
	fix := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s TYPE %s USING %s::text::%s", table, name, k.PGType, name, k.PGType)
	switch {
	case c.typname == "bytea" && k != idkind.UUIDv7:
		fix = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s TYPE %s USING bytea_to_%s(%s), after `sortid sql` or CREATE EXTENSION sortid", table, name, k.PGType, k.PGType, name)
	case c.typname == "bytea":
		fix = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s TYPE uuid USING encode(%s, 'hex')::uuid", table, name, name)
	case c.typname == "": // MySQL
		fix = fmt.Sprintf("store its IDs' text in %s", mysqlColumnType(k))
	}
	return fmt.Errorf("gormplugin: column %s.%s is %s, which does not hold %s IDs as their text; %s: %w",
		table, name, c.typ, k.Name, fix, ErrColumnType)
}

// postgresColumnsSQL reads each column of a table: its type, whether that
// is textual or a base type of its own, and its collation with whether it
// sorts by bytes: "C" and "POSIX", ucs_basic and pg_c_utf8 (code point
// order, which is byte order in UTF-8), and the database's default where
// that is C or POSIX in libc, or the builtin provider.
const postgresColumnsSQL = `WITH citus AS (
	-- The column Citus distributes the table by, read through query_to_xml
	-- so that the query runs where Citus is not.
	SELECT CASE WHEN to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL AND to_regclass($1) IS NOT NULL THEN
		(xpath('/table/row/c/text()', query_to_xml(format(
			'SELECT pg_catalog.column_to_column_name(logicalrelid, partkey) AS c FROM pg_catalog.pg_dist_partition WHERE logicalrelid = %s::oid::regclass AND partkey IS NOT NULL',
			to_regclass($1)::oid), false, false, '')))[1]::text END AS column_name
)
SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typname,
	coalesce(bt.oid, t.oid) IN ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype),
	t.typtype = 'b',
	coalesce(co.collname, ''),
	coalesce(co.collname IN ('C', 'POSIX', 'ucs_basic', 'pg_c_utf8')
		OR co.collname = 'default' AND (SELECT datlocprovider = 'b' OR datlocprovider = 'c' AND datcollate IN ('C', 'POSIX')
			FROM pg_database WHERE datname = current_database()), false),
	coalesce(a.attname::text = (SELECT column_name FROM citus), false)
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
	LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
	LEFT JOIN pg_collation co ON co.oid = a.attcollation
WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`

// mysqlColumnsSQL is postgresColumnsSQL for MySQL and MariaDB: a binary
// collation (ascii_bin, utf8mb4_bin) sorts by bytes.
const mysqlColumnsSQL = `SELECT COLUMN_NAME, COLUMN_TYPE, '', DATA_TYPE IN ('char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'),
	FALSE, COALESCE(COLLATION_NAME, ''), COALESCE(COLLATION_NAME LIKE '%\_bin' OR COLLATION_NAME = 'binary', FALSE), FALSE
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?`

// readColumns reads the columns of a table, named as SQL ("orders",
// "inv"."items", `shop`.`orders`); none where it is not visible.
func readColumns(ctx context.Context, pool gorm.ConnPool, dialect, tableSQL string) (map[string]column, error) {
	query, args := postgresColumnsSQL, []any{tableSQL}
	switch dialect {
	case "postgres":
	case "mysql":
		var schema any // the connection's database
		table := strings.ReplaceAll(tableSQL, "`", "")
		if i := strings.IndexByte(table, '.'); i > 0 {
			schema, table = table[:i], table[i+1:]
		}
		query, args = mysqlColumnsSQL, []any{schema, table}
	default:
		return nil, nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	rows, err := pool.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", tableSQL, err)
	}
	defer rows.Close()
	cols := map[string]column{}
	for rows.Next() {
		var name string
		var c column
		if err := rows.Scan(&name, &c.typ, &c.typname, &c.textual, &c.base, &c.collation, &c.bytewise, &c.distributed); err != nil {
			return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", tableSQL, err)
		}
		cols[name] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", tableSQL, err)
	}
	return cols, nil
}
