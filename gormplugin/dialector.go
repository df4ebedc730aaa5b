package gormplugin

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	gormmigrator "gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/internal/idkind"
)

// dialector wraps the database's dialector so that its migrator gives ID
// columns a type that keeps time order. GORM asks db.Migrator() for each
// column's type while it creates or alters a table, so the wrapper's
// migrator is the one consulted.
type dialector struct {
	gorm.Dialector
	binder *binder // the plugin's: WithTextIDColumns, the column types seen
}

func (d dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return migrator{Migrator: d.Dialector.Migrator(db), dialector: d.Dialector, db: db, binder: d.binder}
}

// SavePoint and RollbackTo pass through the optional interface GORM looks
// for on the dialector.
func (d dialector) SavePoint(tx *gorm.DB, name string) error {
	if sp, ok := d.Dialector.(gorm.SavePointerDialectorInterface); ok {
		return sp.SavePoint(tx, name)
	}
	return gorm.ErrUnsupportedDriver
}

func (d dialector) RollbackTo(tx *gorm.DB, name string) error {
	if sp, ok := d.Dialector.(gorm.SavePointerDialectorInterface); ok {
		return sp.RollbackTo(tx, name)
	}
	return gorm.ErrUnsupportedDriver
}

// Translate passes errors through the dialector's ErrorTranslator.
func (d dialector) Translate(err error) error {
	if t, ok := d.Dialector.(gorm.ErrorTranslator); ok {
		return t.Translate(err)
	}
	return err
}

type migrator struct {
	gorm.Migrator
	dialector gorm.Dialector
	db        *gorm.DB
	binder    *binder
}

// FullDataTypeOf gives ID fields without an explicit type the column type
// of KSUIDColumnType or ObjectIDColumnType; other fields get the
// dialector's.
func (m migrator) FullDataTypeOf(field *schema.Field) clause.Expr {
	expr := m.Migrator.FullDataTypeOf(field)
	k := fieldKind(field)
	if _, typed := field.TagSettings["TYPE"]; typed || k == nil {
		return expr
	}
	idColumnType := columnType(m.dialector.Name(), k)
	if k == idkind.UUIDv7 {
		idColumnType = UUIDColumnType(m.dialector.Name())
	} else if domain := m.postgresIDType(k); domain != "" {
		idColumnType = domain
	}
	if idColumnType == "" {
		return expr
	}
	// Keep what GORM adds after the type (NOT NULL, DEFAULT, ...). The
	// migrator's DataTypeOf is what FullDataTypeOf starts with; MySQL's
	// migrator hides it (two embedded types both have one), and there it
	// is the dialector's.
	var base string
	if typer, ok := m.Migrator.(interface{ DataTypeOf(*schema.Field) string }); ok {
		base = typer.DataTypeOf(field)
	} else {
		base = m.dialector.DataTypeOf(field)
	}
	if !strings.HasPrefix(expr.SQL, base) {
		return expr
	}
	expr.SQL = idColumnType + expr.SQL[len(base):]
	return expr
}

// BuildIndexOptions passes through to the dialect's migrator. GORM's own
// CreateTable and CreateIndex, which the MySQL dialect uses, look for it on
// db.Migrator() with a type assertion, and without it AutoMigrate of a
// model with an index panics.
func (m migrator) BuildIndexOptions(opts []schema.IndexOption, stmt *gorm.Statement) []any {
	if b, ok := m.Migrator.(gormmigrator.BuildIndexOptionsInterface); ok {
		return b.BuildIndexOptions(opts, stmt)
	}
	// Every GORM migrator has it; this is only a plain fallback: the
	// indexed columns by name.
	columns := make([]any, len(opts))
	for i, opt := range opts {
		columns[i] = clause.Column{Name: opt.DBName}
	}
	return columns
}

// KSUIDColumnType returns the column type the plugin gives a KSUID field
// in AutoMigrate for the named GORM dialect ("postgres", "sqlite",
// "mysql"), or "" where it leaves the dialect's choice. Every type keeps
// time order whatever the database's default collation: bytea on
// PostgreSQL, where the plugin adds a CHECK on the length, so that the
// column holds the raw bytes or the write fails; on SQLite and MySQL the
// text form, which is what the IDs' driver.Valuer writes there, under a
// binary collation.
func KSUIDColumnType(dialect string) string { return columnType(dialect, idkind.KSUID) }

// ObjectIDColumnType is KSUIDColumnType for an ObjectID field.
func ObjectIDColumnType(dialect string) string { return columnType(dialect, idkind.ObjectID) }

func columnType(dialect string, k *idkind.Kind) string {
	n := strconv.Itoa(k.TextLen)
	switch dialect {
	case "postgres":
		return "bytea"
	case "sqlite":
		return "text" // SQLite compares text bytewise (BINARY) by default
	case "mysql":
		return "char(" + n + ") CHARACTER SET ascii COLLATE ascii_bin"
	}
	return ""
}

// postgresIDType returns, on PostgreSQL, the name of the type of k
// (ksuid, objectid) as the search path finds it: the sortid extension's,
// or the domain that `sortid sql` installs; "" where there is neither.
func (m migrator) postgresIDType(k *idkind.Kind) string {
	if m.dialector.Name() != "postgres" {
		return ""
	}
	var domain *string
	err := m.db.Raw(`SELECT format_type(t.oid, NULL) FROM pg_type t
		WHERE t.oid = to_regtype(?) AND (t.typtype = 'd' AND t.typbasetype = 'bytea'::regtype
			OR t.typtype = 'b' AND EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
				WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND e.extname = 'sortid'))`, k.PGType).Row().Scan(&domain)
	if err != nil || domain == nil {
		return ""
	}
	return *domain
}

// CreateTable, AddColumn and MigrateColumn give the bytea ID columns
// the plugin makes on PostgreSQL a CHECK on their length (see
// addLengthChecks). It is a constraint of its own rather than part of the
// column type, where GORM would take its digits for a size to migrate.
func (m migrator) CreateTable(values ...any) error {
	defer m.forgetColumns()
	if err := m.Migrator.CreateTable(values...); err != nil {
		return err
	}
	for _, value := range values {
		if err := m.addLengthChecks(value, nil); err != nil {
			return err
		}
	}
	return nil
}

// DropTable forgets the column types the plugin has read, as the
// migrations that change them do.
func (m migrator) DropTable(values ...any) error {
	defer m.forgetColumns()
	return m.Migrator.DropTable(values...)
}

func (m migrator) AddColumn(value any, name string) error {
	defer m.forgetColumns()
	if err := m.Migrator.AddColumn(value, name); err != nil {
		return err
	}
	return m.addLengthChecks(value, &name)
}

// MigrateColumn keeps AutoMigrate from changing the type of an existing ID
// column on PostgreSQL. Where the domains or the extension are installed,
// a domain column (which PostgreSQL reports as bytea) and a bytea one keep
// their type (converting a bytea column to the extension's type is a table
// rewrite, for the user to run: see docs/postgresql.md); a bytea column
// gets its length check. GORM would convert a text ID column with a cast
// that turns each 27-character text into 27 bytes, a second format that
// lookups by ID miss; and the plugin sends IDs to PostgreSQL as bytes,
// which a text column would not find. So an untagged text ID column is an
// error that names the column and the fix (or, under a collation that
// misorders IDs, ErrMisorderingColumn); with WithTextIDColumns one under a
// bytewise collation is kept.
func (m migrator) MigrateColumn(value any, field *schema.Field, columnType gorm.ColumnType) error {
	defer m.forgetColumns()
	if !m.ownsPostgresColumn(field) {
		return m.Migrator.MigrateColumn(value, field, columnType)
	}
	switch strings.ToLower(columnType.DatabaseTypeName()) {
	case "text", "varchar", "bpchar":
		if err := m.checkTextColumnOrder(value, field); err != nil || m.binder.textIDs {
			return err
		}
		_, table := m.tableOf(value)
		return fmt.Errorf("%w: gormplugin: column %s.%s holds IDs as text, and the plugin sends IDs to PostgreSQL as bytes; "+
			"convert it with ALTER TABLE %s ALTER COLUMN %s TYPE %s USING %s_from_text(%s) (after `sortid sql`), "+
			"or keep text ID columns with gormplugin.WithTextIDColumns()",
			ErrTextIDColumn, table, field.DBName, table, field.DBName, fieldKind(field).PGType, fieldKind(field).PGType, field.DBName)
	case "bytea":
		// GORM would ALTER the column to the domain on every AutoMigrate:
		// PostgreSQL reports a domain column as its base type, bytea. A
		// bytea column where the extension is installed stays bytea.
		if m.postgresIDType(fieldKind(field)) == "" {
			if err := m.Migrator.MigrateColumn(value, field, columnType); err != nil {
				return err
			}
		}
		return m.addLengthChecks(value, &field.DBName)
	}
	return m.Migrator.MigrateColumn(value, field, columnType)
}

// tableOf returns the table AutoMigrate works on for value (the one of
// db.Table(...), or the model's): as SQL, quoted and qualified by its
// schema where it has one ("MixedCase", "inv"."items"), and its name
// without the schema. GORM keeps a qualified name whole only in the
// statement's TableExpr.
func (m migrator) tableOf(value any) (sql, name string) {
	stmt := m.db.Statement
	if stmt.Table == "" {
		stmt = &gorm.Statement{DB: m.db}
		if err := stmt.Parse(value); err != nil {
			return "", ""
		}
	}
	if stmt.TableExpr != nil {
		return stmt.TableExpr.SQL, stmt.Table
	}
	return quoteIdent(stmt.Table), stmt.Table
}

// ownsPostgresColumn reports whether field is an ID column whose type the
// plugin chooses on PostgreSQL: an ID field without a type tag.
func (m migrator) ownsPostgresColumn(field *schema.Field) bool {
	_, typed := field.TagSettings["TYPE"]
	k := fieldKind(field)
	return !typed && m.dialector.Name() == "postgres" && k != nil &&
		k != idkind.UUIDv7 // uuid is PostgreSQL's own; GORM migrates it as any other
}

// addLengthChecks adds, where it is missing, CHECK (octet_length(col) =
// 20 or 12) to the plain bytea ID columns of value's table on PostgreSQL
// (only to column only, if not nil); columns of the ksuid and objectid
// domains have the check in their type. A bytea column takes any bytes;
// the check turns a value in another format into an error instead of a
// row that lookups miss. The table is the one of db.Table(...) if set,
// and may be qualified by its schema.
func (m migrator) addLengthChecks(value any, only *string) error {
	if m.dialector.Name() != "postgres" {
		return nil
	}
	stmt := &gorm.Statement{DB: m.db}
	if err := stmt.Parse(value); err != nil {
		return err
	}
	tableSQL, table := m.tableOf(value)
	for _, field := range stmt.Schema.Fields {
		if !m.ownsPostgresColumn(field) || field.DBName == "" || only != nil && *only != field.DBName {
			continue
		}
		name := checkName(table, field.DBName)
		var columnType *string
		var exists bool
		err := m.db.Raw(`SELECT (SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = to_regclass(?) AND attname = ?),
			EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass(?) AND conname = ?)`,
			tableSQL, field.DBName, tableSQL, name).Row().Scan(&columnType, &exists)
		if err != nil {
			return fmt.Errorf("gormplugin: looking for the check %s: %w", name, err)
		}
		if columnType == nil {
			return fmt.Errorf("gormplugin: adding the length check of %s.%s: no such column", table, field.DBName)
		}
		if exists || *columnType != "bytea" {
			continue
		}
		err = m.db.Exec("ALTER TABLE "+tableSQL+" ADD CONSTRAINT ? CHECK (octet_length(?) = "+strconv.Itoa(fieldKind(field).Size)+")",
			clause.Column{Name: name}, clause.Column{Name: field.DBName}).Error
		if err != nil {
			return fmt.Errorf("gormplugin: adding the length check of %s.%s: %w", table, field.DBName, err)
		}
	}
	return nil
}

// checkName names the length check of a column, within PostgreSQL's 63
// bytes. A longer name is cut and ends in a hash of the whole: cut alone,
// two columns of a long table name that differ only past the cut would
// get one name, and addLengthChecks, finding it, would leave the second
// column without its check.
func checkName(table, column string) string {
	const maxLen = 63
	name := "chk_" + table + "_" + column + "_length"
	if len(name) <= maxLen {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	suffix := fmt.Sprintf("_%08x", h.Sum32())
	cut := maxLen - len(suffix)
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut-- // never split a character of a non-ASCII name
	}
	return name[:cut] + suffix
}

// checkTextColumnOrder asks PostgreSQL whether the column's collation
// sorts base62 and hex digits by their bytes.
func (m migrator) checkTextColumnOrder(value any, field *schema.Field) error {
	tableSQL, table := m.tableOf(value)
	var schemaName, collation string
	err := m.db.Raw(`SELECT n.nspname, c.collname FROM pg_attribute a
		JOIN pg_collation c ON c.oid = a.attcollation JOIN pg_namespace n ON n.oid = c.collnamespace
		WHERE a.attrelid = to_regclass(?) AND a.attname = ?`, tableSQL, field.DBName).Row().Scan(&schemaName, &collation)
	if err != nil {
		return fmt.Errorf("gormplugin: reading the collation of %s.%s: %w", table, field.DBName, err)
	}
	// Pairs that byte order sorts one way and linguistic collations
	// (ICU, glibc locales) the other, or mix up by case.
	var bytewise bool
	err = m.db.Raw(`SELECT bool_and((lo COLLATE ` + quoteIdent(schemaName) + "." + quoteIdent(collation) + `) < hi)
		FROM (VALUES ('9'::text, 'A'::text), ('Z', 'a'), ('B', 'a'), ('Y', 'b')) AS pairs(lo, hi)`).Row().Scan(&bytewise)
	if err != nil {
		return fmt.Errorf("gormplugin: testing the collation %q of %s.%s: %w", collation, table, field.DBName, err)
	}
	if bytewise {
		return nil
	}
	return fmt.Errorf("%w: gormplugin: column %s.%s holds IDs as text under the collation %q, which does not sort them by time; "+
		"AutoMigrate leaves it alone. Fix it with ALTER TABLE %s ALTER COLUMN %s TYPE text COLLATE \"C\" "+
		"(or convert it to bytea with ksuid_from_text from `sortid sql`)",
		ErrMisorderingColumn, table, field.DBName, collation, table, field.DBName)
}

// forgetColumns drops the column types the plugin has read of this
// database, which a migration may have changed.
func (m migrator) forgetColumns() { m.binder.columns.forget() }

// ErrMisorderingColumn is wrapped by the AutoMigrate error for an existing
// ID column whose collation does not sort IDs by time.
var ErrMisorderingColumn = errors.New("ID column in a misordering collation")

func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
