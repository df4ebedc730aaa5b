package gormplugin

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// ErrTextIDColumn is wrapped by the AutoMigrate error for an existing
// PostgreSQL ID column of a text type whose field has no type tag: the
// plugin sends IDs to PostgreSQL as bytes, which such a column would read
// as text that no row holds.
var ErrTextIDColumn = errors.New("ID column of a text type")

// BindVarTo writes the placeholder of the value GORM has just added to
// stmt.Vars. On PostgreSQL the plugin first turns an ID there into its raw
// bytes (nil for NULL), and a string compared with an ID column into the
// ID's bytes, or an error if it is not that ID's text form.
//
// PostgreSQL needs the bytes: the columns the plugin makes are binary (the
// ksuid and objectid domains of `sortid sql`, or bytea), and the text form
// that an ID's driver.Valuer gives would be read there as 27 (24) other
// bytes wherever pgx cannot name the column type: in the simple protocol
// (PreferSimpleProtocol, PgBouncer) every lookup missed and
// Where("id < ?", t) matched every row, and a domain column, which
// postgres.Open's connections do not know, refused every write. As bytes,
// pgx sends the \x form there, which PostgreSQL reads as the ID in a bytea
// or domain column. An ID compared with a column of the model that is no
// ID column (a string field's text column) keeps its text form. A model
// that keeps an ID column as text says so with a type tag
// (gorm:"type:text"), and its IDs go as text; a database that keeps them
// all as text says so with WithTextIDColumns. Raw SQL against a text
// column of no model gets the bytes: pass id.String() there.
//
// On MySQL a UUID goes as its 16 bytes (see UUIDColumnType); on
// PostgreSQL it keeps the text form its driver.Valuer gives, which the
// uuid column reads as the same UUID in every query mode.
func (d dialector) BindVarTo(writer clause.Writer, stmt *gorm.Statement, v any) {
	switch d.Dialector.Name() {
	case "postgres":
		if !d.textIDs {
			bindPostgres(writer, stmt, v)
		}
	case "mysql":
		bindMySQLUUID(writer, stmt, v)
	}
	d.Dialector.BindVarTo(writer, stmt, v)
}

// bindPostgres replaces the last of stmt.Vars, which GORM has just added
// as v, with what PostgreSQL must be sent for it.
func bindPostgres(writer clause.Writer, stmt *gorm.Statement, v any) {
	last := len(stmt.Vars) - 1
	if last < 0 || stmt.Schema != nil && hasTextIDColumn(stmt.Schema) {
		return
	}
	lookBack := stmt.Schema != nil && writer == clause.Writer(stmt)
	switch id := v.(type) {
	case ksuid.KSUID, *ksuid.KSUID, ksuid.NullKSUID, objectid.ObjectID, *objectid.ObjectID, objectid.NullObjectID:
		if stmt.Vars[last] != v {
			return
		}
		// An ID compared with a column of the model that is no ID column
		// (a text one, say) keeps its text form.
		if lookBack {
			if f := columnBefore(stmt); f != nil && !isColumnIDType(f.IndirectFieldType) {
				return
			}
		}
		stmt.Vars[last] = idBytes(id)
	case string:
		if stmt.Vars[last] != v || !lookBack {
			return
		}
		field := columnBefore(stmt)
		if field == nil || !isColumnIDType(field.IndirectFieldType) || isUUIDColumn(field.IndirectFieldType) {
			return // a uuid column parses a string itself, or refuses it
		}
		b, err := parseIDText(field, id)
		if err != nil {
			stmt.AddError(fmt.Errorf("gormplugin: a string compared with the ID column %s.%s: %w", stmt.Table, field.DBName, err))
			return
		}
		stmt.Vars[last] = b
	}
}

// idBytes returns a copy of the bytes of an ID value, or nil for NULL.
func idBytes(v any) any {
	switch id := v.(type) {
	case ksuid.KSUID:
		return id.Bytes()
	case *ksuid.KSUID:
		if id != nil {
			return id.Bytes()
		}
	case ksuid.NullKSUID:
		if id.Valid {
			return id.KSUID.Bytes()
		}
	case objectid.ObjectID:
		return id.Bytes()
	case *objectid.ObjectID:
		if id != nil {
			return id.Bytes()
		}
	case objectid.NullObjectID:
		if id.Valid {
			return id.ObjectID.Bytes()
		}
	}
	return nil
}

// parseIDText parses s as the text form of field's ID type.
func parseIDText(field *schema.Field, s string) ([]byte, error) {
	if isKSUIDColumn(field.IndirectFieldType) {
		id, err := ksuid.Parse(s)
		return id[:], err
	}
	id, err := objectid.Parse(s)
	return id[:], err
}

// textIDColumns caches hasTextIDColumn per parsed model, which GORM
// keeps for the life of the process: it is asked for every bound value.
var textIDColumns sync.Map // *schema.Schema -> bool

// hasTextIDColumn reports whether s has an ID field whose type tag makes
// its column text.
func hasTextIDColumn(s *schema.Schema) bool {
	if v, ok := textIDColumns.Load(s); ok {
		return v.(bool)
	}
	has := findTextIDColumn(s)
	textIDColumns.Store(s, has)
	return has
}

func findTextIDColumn(s *schema.Schema) bool {
	for _, f := range s.Fields {
		if !isColumnIDType(f.IndirectFieldType) || isUUIDColumn(f.IndirectFieldType) {
			continue
		}
		t := strings.ToLower(f.TagSettings["TYPE"])
		if strings.Contains(t, "text") || strings.Contains(t, "char") {
			return true
		}
	}
	return false
}

// columnBefore returns the field of stmt's model whose column the SQL
// written so far compares with the placeholder about to be written:
// `col = ?`, `col < ?` (and <=, >, >=, <>, !=), `col IN (?, ?)`,
// `col BETWEEN ? AND ?`, the column quoted or not (in PostgreSQL's or
// MySQL's way), with or without its table (this model's), after
// PostgreSQL's $n or MySQL's ? placeholders. It returns nil for anything
// else.
func columnBefore(stmt *gorm.Statement) *schema.Field {
	sql := stmt.SQL.String()
	if len(sql) > 256 {
		sql = sql[len(sql)-256:]
	}
	rest := strings.TrimRight(sql, " ")
	// Earlier placeholders of an IN list or a BETWEEN.
	for {
		trimmed := strings.TrimRight(rest, " ,(")
		if i := strings.LastIndexAny(trimmed, " ,($"); i >= 0 && trimmed[i] == '$' && isDigits(trimmed[i+1:]) {
			rest = trimmed[:i]
			continue
		}
		if strings.HasSuffix(trimmed, "?") { // MySQL's placeholder
			rest = trimmed[:len(trimmed)-1]
			continue
		}
		if hasSuffixFold(trimmed, " AND") && containsFold(trimmed, " BETWEEN ") {
			rest = trimmed[:len(trimmed)-4]
			continue
		}
		rest = trimmed
		break
	}
	op := ""
	for _, o := range []string{"<=", ">=", "<>", "!=", "=", "<", ">", " IN", " BETWEEN"} {
		if hasSuffixFold(rest, o) {
			op = o
			break
		}
	}
	if op == "" {
		return nil
	}
	rest = strings.TrimRight(rest[:len(rest)-len(op)], " ")
	i := strings.LastIndexAny(rest, " (,")
	column := rest[i+1:]
	if j := strings.LastIndexByte(column, '.'); j >= 0 {
		// A column of another table (a join) is not this model's.
		if table := strings.Trim(column[:j], "\"`"); table != stmt.Table && table != stmt.Schema.Table {
			return nil
		}
		column = column[j+1:]
	}
	column = strings.Trim(column, "\"`") // PostgreSQL's quotes, MySQL's backticks
	for _, f := range stmt.Schema.Fields {
		if f.DBName == column {
			return f
		}
	}
	return nil
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case, without the
// copy strings.ToUpper would make for every bound value.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// containsFold is strings.Contains ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
