package gormplugin

import (
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	gormmigrator "gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"
)

// dialector wraps the database's dialector so that its migrator gives ID
// columns a type that keeps time order. GORM asks db.Migrator() for each
// column's type while it creates or alters a table, so the wrapper's
// migrator is the one consulted.
type dialector struct{ gorm.Dialector }

func (d dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return migrator{Migrator: d.Dialector.Migrator(db), dialector: d.Dialector}
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
}

// FullDataTypeOf gives ID fields without an explicit type the column type
// of ColumnType; other fields get the dialector's.
func (m migrator) FullDataTypeOf(field *schema.Field) clause.Expr {
	expr := m.Migrator.FullDataTypeOf(field)
	if _, typed := field.TagSettings["TYPE"]; typed || !isIDType(field.IndirectFieldType) {
		return expr
	}
	columnType := ColumnType(m.dialector.Name(), field.IndirectFieldType == tKSUID)
	if columnType == "" {
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
	expr.SQL = columnType + expr.SQL[len(base):]
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

// ColumnType returns the column type the plugin gives a KSUID (isKSUID)
// or ObjectID field in AutoMigrate for the named GORM dialect, or "" where
// it leaves the dialect's choice. Every type holds the text form, which is
// what the IDs' driver.Valuer writes, under a binary collation, so that
// ORDER BY id is time order whatever the database's default collation.
func ColumnType(dialect string, isKSUID bool) string {
	n := "24"
	if isKSUID {
		n = "27"
	}
	switch dialect {
	case "postgres":
		return `text COLLATE "C"`
	case "sqlite":
		return "text" // SQLite compares text bytewise (BINARY) by default
	case "mysql":
		return "char(" + n + ") CHARACTER SET ascii COLLATE ascii_bin"
	}
	return ""
}
