package gormplugin

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/sortid/sortid/internal/idkind"
)

// columnForm is what a column takes for an ID, which decides how the
// plugin sends an ID or a string compared with it.
type columnForm uint8

const (
	formUnknown columnForm = iota // no such column known
	formOther                     // a column that holds no IDs as far as the plugin knows
	formText                      // text, varchar, char: the ID's text form
	formBytes                     // bytea, or the ksuid and objectid domains: the raw bytes
	formServer                    // a type whose input function reads the text form: uuid, the extension's ksuid and objectid
)

// columnInfo is what the plugin knows of one column.
type columnInfo struct {
	form columnForm
	kind *idkind.Kind // the ID type the column holds; nil where the column does not say
	// misorders is true for a text column whose collation does not sort
	// IDs' text by its bytes (a linguistic one: ICU, most glibc locales),
	// where < and > do not follow time.
	misorders bool
	// ordered is true where the value meets the column in <, >, BETWEEN:
	// set per comparison, never cached.
	ordered bool
	// cast is the type the value is cast to in the SQL ($1::bytea,
	// $1::varchar), for a column whose type the catalog gave: should the
	// column's type change after the plugin read it (text converted to
	// the ksuid domain while the application runs), the comparison then
	// fails for want of an operator, where an uncast value would be read
	// in the new type and match other rows.
	cast string
}

// tableColumns maps a table's column names to what they take.
type tableColumns map[string]columnInfo

// columnTTL bounds how long a table's column types are trusted: a column
// converted outside AutoMigrate (text to the ksuid domain, say) is seen
// within it. AutoMigrate through the plugin forgets at once.
const columnTTL = time.Minute

type cachedColumns struct {
	cols    tableColumns
	expires time.Time
}

// columnCache holds the column types of the tables of one database (the
// binder's, which each gorm.DB the plugin is installed on has of its
// own), keyed by the table's name as the catalog query takes it. GORM's
// sessions and transactions copy the gorm.Config, so the cache belongs
// to the binder, not to a Config.
type columnCache struct {
	mu     sync.RWMutex
	tables map[string]cachedColumns
}

// forget drops every table, which a migration may have changed.
func (c *columnCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.tables)
}

// columnsSQL reads, for each column of a table, its type's name, whether
// it is a domain and of what, the size a CHECK (octet_length(col) = n)
// demands, which the plugin's AutoMigrate adds to bytea ID columns, and
// its collation.
const columnsSQL = `SELECT a.attname, t.typname, t.typtype, coalesce(bt.typname, ''),
	coalesce((SELECT max(substring(pg_get_constraintdef(c.oid) FROM 'octet_length\(.*\) = (\d+)')::int)
		FROM pg_constraint c WHERE c.conrelid = a.attrelid AND c.contype = 'c' AND c.conkey = ARRAY[a.attnum]), 0),
	coalesce(cn.nspname, ''), coalesce(co.collname, '')
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
	LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
	LEFT JOIN pg_collation co ON co.oid = a.attcollation
	LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace
WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`

// collationOrderSQL asks whether a collation sorts base62 and hex digits
// by their bytes: pairs that byte order sorts one way and linguistic
// collations (ICU, glibc locales) the other, or mix up by case.
const collationOrderSQL = `SELECT bool_and((lo COLLATE %s) < hi)
	FROM (VALUES ('9'::text, 'A'::text), ('Z', 'a'), ('B', 'a'), ('Y', 'b')) AS pairs(lo, hi)`

// mysqlColumnsSQL reads, for each column of a table, its type and byte
// length, from MySQL's (and MariaDB's) information schema.
const mysqlColumnsSQL = `SELECT COLUMN_NAME, DATA_TYPE, COALESCE(CHARACTER_OCTET_LENGTH, 0)
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?`

// columnsOf returns the columns of table, named plainly ("orders",
// "inv.items", "MixedCase"), from the cache or the database's catalog;
// nil where no such table is visible.
func (c *columnCache) columnsOf(stmt *gorm.Statement, dialect, table string) (tableColumns, error) {
	if dialect == "mysql" {
		return c.cached(stmt, table, mysqlColumns)
	}
	return c.cached(stmt, regclassName(table), postgresColumns)
}

// cached returns the columns of table from the cache, or from read.
func (c *columnCache) cached(stmt *gorm.Statement, table string, read func(*gorm.Statement, string) (tableColumns, error)) (tableColumns, error) {
	key := table
	now := time.Now()
	c.mu.RLock()
	cached, ok := c.tables[key]
	c.mu.RUnlock()
	if ok && now.Before(cached.expires) {
		return cached.cols, nil
	}
	if stmt.ConnPool == nil {
		return nil, nil
	}
	cols, err := read(stmt, table)
	if err != nil || len(cols) == 0 {
		return nil, err // no such table (yet): nothing to keep
	}
	c.mu.Lock()
	if c.tables == nil {
		c.tables = make(map[string]cachedColumns)
	}
	c.tables[key] = cachedColumns{cols, now.Add(columnTTL)}
	c.mu.Unlock()
	return cols, nil
}

// postgresColumns reads the columns of table (as to_regclass reads it:
// "orders", `"inv"."items"`) from PostgreSQL's catalog.
func postgresColumns(stmt *gorm.Statement, table string) (tableColumns, error) {
	rows, err := stmt.ConnPool.QueryContext(stmt.Context, columnsSQL, table)
	if err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", table, err)
	}
	defer rows.Close()
	cols := tableColumns{}
	collations := map[string]string{} // column -> its collation, as SQL
	for rows.Next() {
		var name, typ, typtype, base, collSchema, coll string
		var size int
		if err := rows.Scan(&name, &typ, &typtype, &base, &size, &collSchema, &coll); err != nil {
			return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", table, err)
		}
		cols[name] = classify(typ, typtype, base, size)
		if cols[name].form == formText && coll != "" {
			collations[name] = quoteIdent(collSchema) + "." + quoteIdent(coll)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", table, err)
	}
	rows.Close() // before the probes, which a transaction's one connection runs next
	bytewise := map[string]bool{}
	for name, coll := range collations {
		ok, seen := bytewise[coll]
		if !seen {
			if err := stmt.ConnPool.QueryRowContext(stmt.Context, fmt.Sprintf(collationOrderSQL, coll)).Scan(&ok); err != nil {
				return nil, fmt.Errorf("gormplugin: testing the collation %s of %s.%s: %w", coll, table, name, err)
			}
			bytewise[coll] = ok
		}
		info := cols[name]
		info.misorders = !ok
		cols[name] = info
	}
	return cols, nil
}

// mysqlColumns reads the columns of table ("orders", "shop.orders") from
// the information schema: BINARY(n) holds the bytes of the ID of n bytes
// (the plugin's UUID columns are BINARY(16)), the char and text types its
// text form.
func mysqlColumns(stmt *gorm.Statement, table string) (tableColumns, error) {
	var schema any // the connection's database
	if i := strings.IndexByte(table, '.'); i > 0 {
		schema, table = table[:i], table[i+1:]
	}
	rows, err := stmt.ConnPool.QueryContext(stmt.Context, mysqlColumnsSQL, schema, table)
	if err != nil {
		return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", table, err)
	}
	defer rows.Close()
	cols := tableColumns{}
	for rows.Next() {
		var name, typ string
		var size int
		if err := rows.Scan(&name, &typ, &size); err != nil {
			return nil, fmt.Errorf("gormplugin: reading the column types of %s: %w", table, err)
		}
		info := columnInfo{form: formOther}
		switch strings.ToLower(typ) {
		case "binary", "varbinary":
			info.form = formBytes
			for _, k := range idkind.All {
				if k.Size == size {
					info.kind = k
				}
			}
		case "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
			info.form = formText
		}
		cols[name] = info
	}
	return cols, rows.Err()
}

// classify tells what a column of the type typ takes.
func classify(typ, typtype, base string, checkSize int) columnInfo {
	kindNamed := func(name string) *idkind.Kind {
		for _, k := range idkind.All {
			if k.PGType == name {
				return k
			}
		}
		return nil
	}
	switch {
	case typ == "uuid":
		return columnInfo{form: formServer, kind: idkind.UUIDv7}
	case typtype == "d" && base == "bytea" && kindNamed(typ) != nil:
		return columnInfo{form: formBytes, kind: kindNamed(typ), cast: "bytea"} // sortid sql's domains
	case typtype == "b" && (typ == "ksuid" || typ == "objectid"):
		return columnInfo{form: formServer, kind: kindNamed(typ)} // the extension's types
	case typ == "bytea" || typtype == "d" && base == "bytea":
		for _, k := range idkind.All {
			if k.Size == checkSize && k != idkind.UUIDv7 {
				return columnInfo{form: formBytes, kind: k, cast: "bytea"}
			}
		}
		return columnInfo{form: formBytes, cast: "bytea"}
	case isTextType(typ) || typtype == "d" && isTextType(base):
		cast := typ
		if typtype == "d" {
			cast = base
		}
		if cast != "text" && cast != "varchar" && cast != "bpchar" {
			cast = "" // citext lives in a schema of its own; name is no ID's
		}
		return columnInfo{form: formText, cast: cast}
	}
	return columnInfo{form: formOther, kind: nil}
}

func isTextType(typ string) bool {
	switch typ {
	case "text", "varchar", "bpchar", "citext", "name":
		return true
	}
	return false
}

// regclassName writes a plain table name (exact, unquoted) as
// to_regclass reads it.
func regclassName(table string) string {
	if i := strings.IndexByte(table, '.'); i > 0 && !strings.ContainsRune(table, '"') {
		return quoteIdent(table[:i]) + "." + quoteIdent(table[i+1:])
	}
	return quoteIdent(table)
}

// plainName is a table name GORM quoted ("inv"."items", `shop`.`orders`)
// without its quotes.
func plainName(sql string) string {
	return strings.NewReplacer(`"`, "", "`", "").Replace(sql)
}
