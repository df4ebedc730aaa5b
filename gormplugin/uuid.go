package gormplugin

import (
	"reflect"

	"github.com/sortid/sortid/gormplugin/internal/idkind"
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
// PostgreSQL's uuid; on MySQL and MariaDB char(36) CHARACTER SET ascii
// COLLATE ascii_bin, the text form that a UUID's Value method writes and
// any string compared with it is, in byte order, which is time order; and
// text on SQLite, which compares bytewise.
func UUIDColumnType(dialect string) string {
	switch dialect {
	case "postgres":
		return "uuid"
	case "sqlite":
		return "text"
	case "mysql":
		return "char(36) CHARACTER SET ascii COLLATE ascii_bin"
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

// mysqlColumnType is the column type the plugin makes on MySQL for k.
func mysqlColumnType(k *idkind.Kind) string {
	if k == idkind.UUIDv7 {
		return UUIDColumnType("mysql")
	}
	return columnType("mysql", k)
}
