package gormplugin

import (
	"errors"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/internal/idkind"
)

// ErrTextIDColumn is wrapped by the AutoMigrate error for an existing
// PostgreSQL ID column of a text type whose field has no type tag: the
// plugin's own columns for such a field are binary, and converting one
// with GORM's cast would store each ID's text as 27 (24) other bytes.
var ErrTextIDColumn = errors.New("ID column of a text type")

// BindVarTo writes the placeholder of the value GORM has just added to
// stmt.Vars. The values of WHERE, SET, VALUES, ON CONFLICT and JOIN
// clauses the plugin has already bound by the column each meets (see
// binder); what reaches this point as an ID is a value outside them, or
// one of SQL written whole (db.Raw, db.Exec), which bindRaw binds again
// by its columns before it is sent. By default, on PostgreSQL, such an
// ID goes as its raw bytes (nil for NULL),
// which bytea, the ksuid and objectid domains and the extension's types
// all read as the ID, and as its text form with WithTextIDColumns; a
// UUID keeps the text form its driver.Valuer gives, which uuid reads. On
// MySQL a UUID goes as its 16 bytes, for the BINARY(16) column the
// plugin makes, unless the model types a UUID column itself.
func (d dialector) BindVarTo(writer clause.Writer, stmt *gorm.Statement, v any) {
	if last := len(stmt.Vars) - 1; last >= 0 {
		if id, ok := idkind.ValueOf(v); ok && stmt.Vars[last] == v {
			stmt.Vars[last] = d.unboundID(stmt, v, id)
		}
	}
	d.Dialector.BindVarTo(writer, stmt, v)
}

// unboundID is what to send for an ID whose column the plugin does not
// know.
func (d dialector) unboundID(stmt *gorm.Statement, v any, id idkind.Value) any {
	dialect := d.Dialector.Name()
	switch dialect {
	case "postgres":
	case "mysql":
		if id.Kind != idkind.UUIDv7 || stmt.Schema != nil && hasTypedUUIDColumn(stmt.Schema) {
			return v
		}
	default:
		return v
	}
	if id.Bytes == nil {
		return nil
	}
	switch defaultForm(dialect, d.binder.textIDs, id.Kind) {
	case formBytes:
		return rawID(id.Bytes)
	case formText:
		return id.Kind.FormatText(id.Bytes)
	}
	return v
}
