package gormplugin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"

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

// column is what the catalog says of one column of a table.
type column struct {
	typ       string // as the database writes it: "text", "ksuid", "character varying(27)", "binary(16)"
	typname   string // PostgreSQL's type name, unqualified: "ksuid", "uuid", "bytea"
	textual   bool   // text, varchar or char, or a domain over one
	base      bool   // a base type of PostgreSQL: uuid, the extension's ksuid and objectid
	collation string // "" where the type has none
	bytewise  bool   // the collation sorts text by its bytes
}

// checkColumns runs before GORM sends a statement on a model with ID
// fields, once per table for the database the plugin is installed on:
// it reads the table's column types from the catalog and fails the
// statement, before anything is sent, if an ID column cannot hold the
// ID's text in byte order (see column.check). It runs no query under
// DryRun, for a table it has passed, or for a statement without a model;
// a table it cannot see (not created yet) is left to the statement.
func (d dialector) checkColumns(db *gorm.DB) {
	stmt := db.Statement
	if db.Error != nil || db.DryRun || stmt.Schema == nil || stmt.Table == "" || stmt.ConnPool == nil {
		return
	}
	dialect := d.Name()
	if dialect != "postgres" && dialect != "mysql" {
		return // SQLite compares text bytewise unless a column says otherwise
	}
	tableSQL := stmt.Quote(stmt.Table)
	if stmt.TableExpr != nil {
		tableSQL = stmt.TableExpr.SQL
	}
	if _, ok := d.checked.Load(tableSQL); ok {
		return
	}
	var fields []string
	kinds := map[string]*idkind.Kind{}
	for _, f := range stmt.Schema.Fields {
		if k := fieldKind(f); k != nil && f.DBName != "" {
			fields = append(fields, f.DBName)
			kinds[f.DBName] = k
		}
	}
	if len(fields) == 0 {
		d.checked.Store(tableSQL, true)
		return
	}
	cols, err := readColumns(stmt.Context, stmt.ConnPool, dialect, tableSQL)
	if err != nil {
		db.AddError(err)
		return
	}
	if len(cols) == 0 {
		return // no such table yet: the statement says so itself
	}
	for _, name := range fields {
		if c, ok := cols[name]; ok {
			if err := c.check(stmt.Table, name, kinds[name]); err != nil {
				db.AddError(err)
				return
			}
		}
	}
	d.checked.Store(tableSQL, true)
}

// check returns an error naming the column and the fix if c cannot hold
// IDs of k as their text in byte order; nil otherwise.
func (c column) check(table, name string, k *idkind.Kind) error {
	switch {
	case c.base && (c.typname == k.PGType || k == idkind.UUIDv7 && c.typname == "uuid"):
		return nil
	case c.textual && c.bytewise:
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
const postgresColumnsSQL = `SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typname,
	coalesce(bt.oid, t.oid) IN ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype),
	t.typtype = 'b',
	coalesce(co.collname, ''),
	coalesce(co.collname IN ('C', 'POSIX', 'ucs_basic', 'pg_c_utf8')
		OR co.collname = 'default' AND (SELECT datlocprovider = 'b' OR datlocprovider = 'c' AND datcollate IN ('C', 'POSIX')
			FROM pg_database WHERE datname = current_database()), false)
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
	LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
	LEFT JOIN pg_collation co ON co.oid = a.attcollation
WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`

// mysqlColumnsSQL is postgresColumnsSQL for MySQL and MariaDB: a binary
// collation (ascii_bin, utf8mb4_bin) sorts by bytes.
const mysqlColumnsSQL = `SELECT COLUMN_NAME, COLUMN_TYPE, '', DATA_TYPE IN ('char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'),
	FALSE, COALESCE(COLLATION_NAME, ''), COALESCE(COLLATION_NAME LIKE '%\_bin' OR COLLATION_NAME = 'binary', FALSE)
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
		if err := rows.Scan(&name, &c.typ, &c.typname, &c.textual, &c.base, &c.collation, &c.bytewise); err != nil {
			return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", tableSQL, err)
		}
		cols[name] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", tableSQL, err)
	}
	return cols, nil
}
