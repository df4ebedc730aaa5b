package gormplugin

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/uuidv7"
)

// The UUID types whose zero primary keys the plugin fills with UUIDv7s:
// sortid's, Go 1.27's standard uuid.UUID and github.com/google/uuid's.
// The last two are recognised by name, so that the plugin builds on Go
// 1.26 and imports neither: each is a [16]byte named UUID.
var (
	tUUID     = reflect.TypeFor[uuidv7.UUID]()
	tNullUUID = reflect.TypeFor[uuidv7.NullUUID]()
)

// uuidPackages are the import paths of the other UUID types filled.
var uuidPackages = map[string]bool{"uuid": true, "github.com/google/uuid": true}

// isUUIDType reports whether t is a UUID type the plugin fills.
func isUUIDType(t reflect.Type) bool {
	if t == tUUID {
		return true
	}
	return t.Kind() == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8 &&
		t.Name() == "UUID" && uuidPackages[t.PkgPath()]
}

// isUUIDColumn reports whether an ID column of type t holds UUIDs.
func isUUIDColumn(t reflect.Type) bool { return isUUIDType(t) || t == tNullUUID }

// WithUUIDGenerator makes the plugin take UUIDv7s from g. The default is
// a uuidv7.NewGenerator() of its own: strictly increasing keys, ordered
// across application instances by the fraction of the millisecond.
func WithUUIDGenerator(g *uuidv7.Generator) Option {
	return func(p *Plugin) { p.newUUID = g.New }
}

// UUIDColumnType returns the column type the plugin gives a UUID field
// (uuidv7.UUID, Go 1.27's uuid.UUID, google/uuid's UUID) in AutoMigrate
// for the named GORM dialect, or "" where it leaves the dialect's choice:
// PostgreSQL's uuid; BINARY(16) on MySQL and MariaDB, where the plugin
// writes the 16 bytes, which sort by time; and text on SQLite, which
// compares the text form bytewise, in time order.
func UUIDColumnType(dialect string) string {
	switch dialect {
	case "postgres":
		return "uuid"
	case "sqlite":
		return "text"
	case "mysql":
		return "binary(16)"
	}
	return ""
}

// newUUIDOf returns a new UUIDv7 as a value of t, one of the UUID types.
func (p *Plugin) newUUIDOf(t reflect.Type) (any, error) {
	id, err := p.newUUID()
	if err != nil {
		return nil, err
	}
	return reflect.ValueOf(id).Convert(t).Interface(), nil
}

// isZeroUUIDPointer reports whether v is a pointer to one of the UUID
// types that is nil or points at the nil UUID.
func isZeroUUIDPointer(v any) (zero, ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || !isUUIDType(rv.Type().Elem()) {
		return false, false
	}
	return rv.IsNil() || rv.Elem().IsZero(), true
}

// bindMySQLUUID turns a UUID GORM has just bound on MySQL into its 16
// bytes, for the BINARY(16) column the plugin makes; the types' own
// driver.Valuer would write 36 characters there, which a strict server
// refuses and any other truncates. A string compared with a UUID column
// of the model is parsed into its 16 bytes too. A model that types a UUID
// column itself (gorm:"type:char(36)") keeps the text form. Any other
// value passes untouched.
func bindMySQLUUID(writer clause.Writer, stmt *gorm.Statement, v any) {
	last := len(stmt.Vars) - 1
	if last < 0 {
		return
	}
	var (
		raw  []byte // the bytes to send; nil is NULL
		uuid bool   // v is one of the UUID types (nil pointers too)
	)
	switch id := v.(type) {
	case string:
		raw, uuid = uuidTextCompared(writer, stmt, id)
	case uuidv7.NullUUID:
		uuid = true
		if id.Valid {
			raw = id.UUID.Bytes()
		}
	default:
		// The kinds first: they rule out most values GORM binds at once.
		rv := reflect.ValueOf(v)
		switch {
		case rv.Kind() == reflect.Array && isUUIDType(rv.Type()):
			uuid, raw = true, uuidBytes(rv)
		case rv.Kind() == reflect.Pointer && isUUIDType(rv.Type().Elem()):
			uuid = true
			if !rv.IsNil() {
				raw = uuidBytes(rv.Elem())
			}
		default:
			return
		}
	}
	// The types above are all comparable, so the check that v is the
	// value GORM has just added cannot panic.
	if !uuid || stmt.Vars[last] != v || stmt.Schema != nil && hasTypedUUIDColumn(stmt.Schema) {
		return
	}
	if raw == nil {
		stmt.Vars[last] = nil
		return
	}
	stmt.Vars[last] = raw
}

// uuidBytes copies the 16 bytes of rv, a value of one of the UUID types.
func uuidBytes(rv reflect.Value) []byte {
	b := make([]byte, 16)
	reflect.Copy(reflect.ValueOf(b), rv)
	return b
}

// uuidTextCompared returns the 16 bytes of text when the SQL written so
// far compares it with a UUID column of the model, and adds an error to
// stmt when text is not a UUID there. ok is false for any other string.
func uuidTextCompared(writer clause.Writer, stmt *gorm.Statement, text string) (raw []byte, ok bool) {
	if stmt.Schema == nil || writer != clause.Writer(stmt) {
		return nil, false
	}
	field := columnBefore(stmt)
	if field == nil || !isUUIDColumn(field.IndirectFieldType) || hasTypedUUIDColumn(stmt.Schema) {
		return nil, false
	}
	b, err := parseUUIDText(text)
	if err != nil {
		stmt.AddError(fmt.Errorf("gormplugin: a string compared with the UUID column %s.%s: %w", stmt.Table, field.DBName, err))
		return nil, false
	}
	return b, true
}

// ErrUUIDText is wrapped by the error for a string compared with a UUID
// column on MySQL that is not the text form of a UUID.
var ErrUUIDText = errors.New("not the text form of a UUID")

// parseUUIDText returns the 16 bytes of a UUID of any version in its text
// form, 8-4-4-4-12 hex digits.
func parseUUIDText(s string) ([]byte, error) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, fmt.Errorf("%q: %w (want 8-4-4-4-12 hex digits)", excerpt(s), ErrUUIDText)
	}
	b, err := hex.DecodeString(s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:])
	if err != nil {
		return nil, fmt.Errorf("%q: %w (want 8-4-4-4-12 hex digits)", excerpt(s), ErrUUIDText)
	}
	return b, nil
}

// excerpt bounds text quoted in an error.
func excerpt(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// typedUUIDColumns caches hasTypedUUIDColumn per parsed model, as
// textIDColumns does hasTextIDColumn.
var typedUUIDColumns sync.Map // *schema.Schema -> bool

// hasTypedUUIDColumn reports whether s has a UUID field with a type tag.
func hasTypedUUIDColumn(s *schema.Schema) bool {
	if v, ok := typedUUIDColumns.Load(s); ok {
		return v.(bool)
	}
	has := false
	for _, f := range s.Fields {
		if _, typed := f.TagSettings["TYPE"]; typed && isUUIDColumn(f.IndirectFieldType) {
			has = true
		}
	}
	typedUUIDColumns.Store(s, has)
	return has
}
