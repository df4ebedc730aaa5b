package gormplugin

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	gormmigrator "gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/gormplugin/internal/idkind"
)

// dialector wraps the database's dialector so that its migrator gives ID
// columns a type that keeps time order. GORM asks db.Migrator() for each
// column's type while it creates or alters a table, so the wrapper's
// migrator is the one consulted.
type dialector struct {
	gorm.Dialector
	columns  *columnCache    // the columns checkColumns has read
	accepted *acceptedTables // WithEqualityOnly's tables
	citus    *citusProbe     // whether the database has Citus
}

func (d dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return migrator{Migrator: d.Dialector.Migrator(db), dialector: d, db: db}
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
	dialector dialector
	db        *gorm.DB
}

// FullDataTypeOf gives ID fields without an explicit type the column type
// of KSUIDColumnType, ObjectIDColumnType or UUIDColumnType, or on
// PostgreSQL the ksuid or objectid type installed there; other fields get
// the dialector's.
func (m migrator) FullDataTypeOf(field *schema.Field) clause.Expr {
	expr := m.Migrator.FullDataTypeOf(field)
	if !m.owns(field) {
		return expr
	}
	idColumnType := m.columnTypeOf(fieldKind(field))
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
	if idColumnType == "" || !strings.HasPrefix(expr.SQL, base) {
		return expr
	}
	expr.SQL = idColumnType + expr.SQL[len(base):]
	return expr
}

// owns reports whether the plugin picks the column type of field: an ID
// field without a type tag.
func (m migrator) owns(field *schema.Field) bool {
	_, typed := field.TagSettings["TYPE"]
	return !typed && fieldKind(field) != nil
}

// columnTypeOf is the column type for IDs of k on this database.
func (m migrator) columnTypeOf(k *idkind.Kind) string {
	dialect := m.dialector.Name()
	if dialect == "postgres" && k != idkind.UUIDv7 {
		if installed := m.installedType(k); installed != "" {
			return installed
		}
	}
	if k == idkind.UUIDv7 {
		return UUIDColumnType(dialect)
	}
	return columnType(dialect, k)
}

// installedType returns the name of the PostgreSQL type of k (ksuid,
// objectid) as the search path finds it: the sortid extension's, or the
// domain over text that `sortid sql` installs; "" where there is
// neither.
func (m migrator) installedType(k *idkind.Kind) string {
	var name *string
	err := m.db.Raw(`SELECT format_type(t.oid, NULL) FROM pg_type t
		WHERE t.oid = to_regtype(?) AND (t.typtype = 'd' AND t.typbasetype = 'text'::regtype
			OR t.typtype = 'b' AND EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
				WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND e.extname = 'sortid'))`, k.PGType).Row().Scan(&name)
	if err != nil || name == nil {
		return ""
	}
	return *name
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
// "mysql") where no ksuid type is installed, or "" where it leaves the
// dialect's choice. Each holds the text form, which is what the IDs'
// Value method writes through any driver, under a collation that sorts it
// by its bytes and so by time: varchar(27) COLLATE "C" on PostgreSQL,
// with a CHECK of the text's grammar that the plugin adds; text on
// SQLite, which compares bytewise by default; char(27) CHARACTER SET
// ascii COLLATE ascii_bin on MySQL.
func KSUIDColumnType(dialect string) string { return columnType(dialect, idkind.KSUID) }

// ObjectIDColumnType is KSUIDColumnType for an ObjectID field: 24
// characters, lowercase hex digits on PostgreSQL.
func ObjectIDColumnType(dialect string) string { return columnType(dialect, idkind.ObjectID) }

func columnType(dialect string, k *idkind.Kind) string {
	n := strconv.Itoa(k.TextLen)
	switch dialect {
	case "postgres":
		return "varchar(" + n + `) COLLATE "C"`
	case "sqlite":
		return "text" // SQLite compares text bytewise (BINARY) by default
	case "mysql":
		return "char(" + n + ") CHARACTER SET ascii COLLATE ascii_bin"
	}
	return ""
}

// textCheck is the CHECK the plugin adds to a varchar ID column it makes
// on PostgreSQL: the grammar of the ID's text, as the domains of
// `sortid sql` check it, so that a value in another form is an error
// rather than a row that lookups miss.
func textCheck(k *idkind.Kind, column string) string {
	c := quoteIdent(column)
	if k == idkind.ObjectID {
		return `octet_length(` + c + `) = 24 AND ` + c + ` COLLATE "C" !~ '[^0-9a-f]'`
	}
	return `octet_length(` + c + `) = 27 AND ` + c + ` COLLATE "C" !~ '[^0-9A-Za-z]' AND ` + c + ` COLLATE "C" <= 'aWgEPTl1tmebfsQzFP4bxwgy80V'`
}

// CreateTable and AddColumn give the varchar ID columns the plugin makes
// on PostgreSQL their CHECK (see addTextChecks). It is a constraint of its
// own rather than part of the column type, where GORM would take it for
// part of the type to migrate.
func (m migrator) CreateTable(values ...any) error {
	defer m.forgetChecked()
	if err := m.Migrator.CreateTable(values...); err != nil {
		return err
	}
	for _, value := range values {
		if err := m.addTextChecks(value, nil); err != nil {
			return err
		}
	}
	return nil
}

// DropTable forgets the tables the plugin has checked, as the migrations
// that change them do.
func (m migrator) DropTable(values ...any) error {
	defer m.forgetChecked()
	return m.Migrator.DropTable(values...)
}

func (m migrator) AddColumn(value any, name string) error {
	defer m.forgetChecked()
	if err := m.Migrator.AddColumn(value, name); err != nil {
		return err
	}
	return m.addTextChecks(value, &name)
}

// MigrateColumn keeps AutoMigrate from changing the type of an existing ID
// column: GORM's cast of bytea to text would write each ID's 20 bytes as
// their \x form, and of text to bytea each ID's text as 27 other bytes.
// Such a column, or one whose collation misorders IDs, is an error naming
// the column and the conversion (see checkColumns); one of the types the
// plugin makes (varchar under a bytewise collation, a domain or the
// extension's type) is kept.
func (m migrator) MigrateColumn(value any, field *schema.Field, columnType gorm.ColumnType) error {
	defer m.forgetChecked()
	if !m.owns(field) {
		return m.Migrator.MigrateColumn(value, field, columnType)
	}
	tableSQL, table := m.tableOf(value)
	cols, err := readColumns(m.db.Statement.Context, m.db.Statement.ConnPool, m.dialector.Name(), tableSQL)
	if err != nil {
		return err
	}
	if c, ok := cols[field.DBName]; ok {
		if err := c.check(table, field.DBName, fieldKind(field)); err != nil {
			return err
		}
		return nil
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
	return m.db.Statement.Quote(stmt.Table), stmt.Table
}

// addTextChecks adds, where it is missing, the CHECK of textCheck to the
// varchar KSUID and ObjectID columns of value's table on PostgreSQL (to
// column only, if not nil); columns of the domains and the extension's
// types check their values themselves. The table is the one of
// db.Table(...) if set, and may be qualified by its schema.
func (m migrator) addTextChecks(value any, only *string) error {
	if m.dialector.Name() != "postgres" {
		return nil
	}
	stmt := &gorm.Statement{DB: m.db}
	if err := stmt.Parse(value); err != nil {
		return err
	}
	tableSQL, table := m.tableOf(value)
	for _, field := range stmt.Schema.Fields {
		k := fieldKind(field)
		if !m.owns(field) || k == idkind.UUIDv7 || field.DBName == "" || only != nil && *only != field.DBName {
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
			return fmt.Errorf("gormplugin: adding the check of %s.%s: no such column", table, field.DBName)
		}
		if exists || !strings.HasPrefix(*columnType, "character varying") {
			continue
		}
		err = m.db.Exec("ALTER TABLE " + tableSQL + " ADD CONSTRAINT " + quoteIdent(name) + " CHECK (" + textCheck(k, field.DBName) + ")").Error
		if err != nil {
			return fmt.Errorf("gormplugin: adding the check of %s.%s: %w", table, field.DBName, err)
		}
	}
	return nil
}

// checkName names the CHECK of a column, within PostgreSQL's 63 bytes. A
// longer name is cut and ends in a hash of the whole: cut alone, two
// columns of a long table name that differ only past the cut would get
// one name, and addTextChecks, finding it, would leave the second column
// without its check.
func checkName(table, column string) string {
	const maxLen = 63
	name := "chk_" + table + "_" + column + "_id"
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

// forgetChecked drops the columns checkColumns has read, which a
// migration may have changed.
func (m migrator) forgetChecked() { m.dialector.columns.forget() }

func fieldKind(field *schema.Field) *idkind.Kind {
	if field == nil {
		return nil
	}
	k, _ := idkind.Of(field.FieldType)
	return k
}

func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
