package gormplugin

import (
	"errors"
	"reflect"
	"sync"

	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/internal/idkind"
	"github.com/sortid/sortid/uuidv7"
)

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

// ErrUUIDText is wrapped, beside uuidv7's parse error, by the error for a
// string compared with a UUID column on MySQL (BINARY(16)) that is not
// the text form of a UUID.
var ErrUUIDText = errors.New("not the text form of a UUID")

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
		if _, typed := f.TagSettings["TYPE"]; typed && fieldKind(f) == idkind.UUIDv7 {
			has = true
		}
	}
	typedUUIDColumns.Store(s, has)
	return has
}
