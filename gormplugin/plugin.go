package gormplugin

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/gormplugin/internal/idkind"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// Plugin assigns new IDs on create and gives ID columns a type that keeps
// time order. Make one with New and install it with db.Use.
type Plugin struct {
	newKSUID     func() (ksuid.KSUID, error)
	newObjectID  func() (objectid.ObjectID, error)
	newUUID      func() (uuidv7.UUID, error)
	equalityOnly map[string]bool // tables, as WithEqualityOnly names them
}

// An Option configures the Plugin.
type Option func(*Plugin)

// WithKSUIDGenerator makes the plugin take KSUIDs from g. The default is
// ksuid.NewGenerator(ksuid.WithMonotonic()): see New.
func WithKSUIDGenerator(g *ksuid.Generator) Option {
	return func(p *Plugin) { p.newKSUID = g.New }
}

// WithObjectIDGenerator makes the plugin take ObjectIDs from g. The
// default is objectid.New, which never repeats an ID: when a second's
// 2^24 counter values are used up, it waits for the next second. With a
// Generator, a used-up second is an error (objectid.ErrExhausted) that
// fails the create.
func WithObjectIDGenerator(g *objectid.Generator) Option {
	return func(p *Plugin) { p.newObjectID = g.New }
}

// WithEqualityOnly accepts text ID columns of the named tables under a
// collation that does not sort IDs by time (ErrMisorderingColumn), for
// statements that compare their IDs by equality only: a table adopted
// from another tool, used so while its migration is planned (see
// docs/migrating.md). A statement on such a table that compares an ID by
// order (Where("id > ?", id)), or orders by an ID column (First, Last,
// Order("id")), is still refused, as is a column whose type does not hold
// the text (ErrColumnType). A table is named as the statement reaches it:
// "orders" for the model's table and db.Table("orders") under any search
// path, "inv.items" for db.Table("inv.items"). The plugin logs a warning
// through GORM's logger the first time it accepts each table.
func WithEqualityOnly(tables ...string) Option {
	return func(p *Plugin) {
		if p.equalityOnly == nil {
			p.equalityOnly = map[string]bool{}
		}
		for _, t := range tables {
			p.equalityOnly[t] = true
		}
	}
}

// New returns the plugin. By default it makes KSUIDs with a monotonic
// generator (ksuid.WithMonotonic): each key sorts after the one before to
// a fraction of a second, keys from several application instances
// interleave in time order, and each key is a random step of up to 2^72
// from its neighbour, so keys in URLs cannot be enumerated. In
// PostgreSQL such keys load faster and leave a smaller primary-key index
// than random payloads, because each insert lands near the right edge of
// the index (see the README).
func New(opts ...Option) *Plugin {
	p := &Plugin{
		newKSUID:    ksuid.NewGenerator(ksuid.WithMonotonic()).New,
		newObjectID: func() (objectid.ObjectID, error) { return objectid.New(), nil },
		newUUID:     uuidv7.NewGenerator().New,
	}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// Name implements gorm.Plugin.
func (*Plugin) Name() string { return "sortid" }

// Initialize implements gorm.Plugin: it registers the create callback
// that assigns IDs, the check of each table's ID columns before the first
// statement on it runs (see checkColumns), and wraps the dialector so
// that AutoMigrate picks order-keeping column types.
func (p *Plugin) Initialize(db *gorm.DB) error {
	d, ok := db.Dialector.(dialector)
	if !ok {
		// A record of read columns of its own per database, so that a
		// Plugin installed on two keeps them apart.
		d = dialector{Dialector: db.Dialector, columns: new(columnCache), accepted: new(acceptedTables), citus: new(citusProbe)}
	}
	d.accepted.tables = p.equalityOnly
	db.Dialector = d
	cb := db.Callback()
	// Writes are checked before GORM opens its own transaction, so that
	// they use the pool's scope of read columns (see columnCache), not a
	// new one for each transaction.
	checks := []struct {
		name   string
		before func(string) callbackRegisterer
	}{
		{"gorm:query", func(n string) callbackRegisterer { return cb.Query().Before(n) }},
		{"gorm:begin_transaction", func(n string) callbackRegisterer { return cb.Create().Before(n) }},
		{"gorm:begin_transaction", func(n string) callbackRegisterer { return cb.Update().Before(n) }},
		{"gorm:begin_transaction", func(n string) callbackRegisterer { return cb.Delete().Before(n) }},
		{"gorm:row", func(n string) callbackRegisterer { return cb.Row().Before(n) }},
	}
	for _, c := range checks {
		if err := c.before(c.name).Register("sortid:check_columns", d.checkColumns); err != nil {
			return fmt.Errorf("gormplugin: registering the column check: %w", err)
		}
	}
	err := cb.Create().
		After("gorm:before_create").
		Before("gorm:save_before_associations").
		Register("sortid:assign_ids", p.assignIDs)
	if err != nil {
		return fmt.Errorf("gormplugin: registering the ID callback: %w", err)
	}
	err = cb.Create().
		After("gorm:create").
		Before("gorm:save_after_associations").
		Register("sortid:restore_keys", restoreKeys)
	if err != nil {
		return fmt.Errorf("gormplugin: registering the key callback: %w", err)
	}
	// After restore_keys: an upsert's rows read back by their conflict
	// columns are the answer, over the keys the plugin made.
	err = cb.Create().
		After("sortid:restore_keys").
		Before("gorm:commit_or_rollback_transaction").
		Register("sortid:upsert_ids", readBackUpsertIDs)
	if err != nil {
		return fmt.Errorf("gormplugin: registering the upsert callback: %w", err)
	}
	return nil
}

// callbackRegisterer is what GORM's processor.Before returns.
type callbackRegisterer interface {
	Register(name string, fn func(*gorm.DB)) error
}

// Tag is the struct tag that asks the plugin to fill a field other than
// the primary key: `sortid:"auto"`.
const Tag = "sortid"

// idFields returns the fields of s the plugin fills: primary keys and
// fields tagged sortid:"auto", of the ID types or pointers to them.
func idFields(s *schema.Schema) []*schema.Field {
	var out []*schema.Field
	for _, f := range s.Fields {
		if !isIDType(f.IndirectFieldType) {
			continue
		}
		if f.PrimaryKey || strings.EqualFold(f.Tag.Get(Tag), "auto") {
			out = append(out, f)
		}
	}
	return out
}

// isIDType reports whether t is an ID type the plugin fills: an ID type
// (not its Null type), pointers removed.
func isIDType(t reflect.Type) bool {
	k, null := idkind.Of(t)
	return k != nil && !null
}

// newID returns a new ID of type t, an ID type.
// allConflictColumns reports whether each of fields is one of columns.
func allConflictColumns(fields []*schema.Field, columns []clause.Column) bool {
	for _, f := range fields {
		if !slices.ContainsFunc(columns, func(c clause.Column) bool { return c.Name == f.DBName }) {
			return false
		}
	}
	return true
}

func (p *Plugin) newID(t reflect.Type) (any, error) {
	k, _ := idkind.Of(t)
	switch k {
	case idkind.UUIDv7:
		return p.newUUIDOf(t)
	case idkind.ObjectID:
		return p.newObjectID()
	}
	return p.newKSUID()
}

// assignIDs fills every zero ID field of the records being created. What
// it does not understand it leaves to GORM, which then does what it would
// do without the plugin; and should it ever panic, the panic becomes the
// statement's error, so that GORM still closes its transaction.
func (p *Plugin) assignIDs(db *gorm.DB) {
	if db.Error != nil || db.Statement.Schema == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok {
				err = fmt.Errorf("%v", r)
			}
			db.AddError(fmt.Errorf("gormplugin: assigning IDs to %s: %w", db.Statement.Schema.Name, err))
		}
	}()
	fields := slices.DeleteFunc(idFields(db.Statement.Schema), func(f *schema.Field) bool { return databaseFillsHere(db, f) })
	if len(fields) == 0 {
		return
	}
	defer keepKeys(db, fields)
	rv := db.Statement.ReflectValue
	made := false
	switch rv.Kind() {
	case reflect.Map:
		made = p.fillMap(db, fields, rv)
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			elem := reflect.Indirect(rv.Index(i))
			switch elem.Kind() {
			case reflect.Map:
				made = p.fillMap(db, fields, elem) || made
			case reflect.Struct:
				made = p.fillStruct(db, fields, elem) || made
			}
			// Anything else, such as a nil element, is GORM's to refuse.
		}
	case reflect.Struct:
		made = p.fillStruct(db, fields, rv)
	}
	if made {
		db.Statement.Settings.Store(settingMadeIDs, true)
	}
	if rv.Kind() == reflect.Map {
		return
	}
	p.returnIDsOnConflict(db, fields)
	refuseBlindMySQLUpsert(db)
}

// databaseFills reports whether the database, not the plugin, gives f
// its value on create: f's tag gives the column a default the database
// computes (`gorm:"default:uuidv7()"`), which GORM leaves out of the
// INSERT for a zero field and reads back with RETURNING. Where the
// dialect has no RETURNING (MySQL; MariaDB before 10.5), GORM could not
// read the key back, and the record would keep the zero ID: the plugin
// fills it as it does a field without a default.
func databaseFills(db *gorm.DB, f *schema.Field) bool {
	return slices.Contains(db.Statement.Schema.FieldsWithDefaultDBValue, f) &&
		slices.Contains(db.Callback().Create().Clauses, "RETURNING")
}

// isUnset reports whether a field holds no ID yet: the zero ID, a nil
// pointer, or a pointer to the zero ID.
func isUnset(ctx context.Context, f *schema.Field, rv reflect.Value) bool {
	v, zero := f.ValueOf(ctx, rv)
	if zero {
		return true
	}
	// GORM reports a zero ID or a nil pointer as zero; a pointer to the
	// zero ID it does not.
	id, ok := idkind.ValueOf(v)
	return ok && (id.Bytes == nil || isZeroBytes(id.Bytes))
}

func isZeroBytes(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// fillStruct sets each unset ID field of the struct rv, and reports
// whether it made an ID.
func (p *Plugin) fillStruct(db *gorm.DB, fields []*schema.Field, rv reflect.Value) (made bool) {
	ctx := db.Statement.Context
	for _, f := range fields {
		if !isUnset(ctx, f, rv) {
			continue
		}
		if !rv.CanAddr() {
			db.AddError(fmt.Errorf("gormplugin: cannot set %s.%s on a value that is not addressable (pass a pointer to Create): %w",
				db.Statement.Schema.Name, f.Name, gorm.ErrInvalidValue))
			return made
		}
		id, err := p.newID(f.IndirectFieldType)
		if err != nil {
			db.AddError(err)
			return made
		}
		// A pointer field gets a pointer of its own, never a write through
		// the caller's pointer, which other records may share.
		value := id
		if f.FieldType.Kind() == reflect.Pointer {
			ptr := reflect.New(f.IndirectFieldType)
			ptr.Elem().Set(reflect.ValueOf(id))
			value = ptr.Interface()
		}
		if err := f.Set(ctx, rv, value); err != nil {
			db.AddError(err)
			return made
		}
		made = true
	}
	return made
}

// fillMap adds a new ID under the column name of every ID field the map
// does not set. The caller's map is changed, as GORM changes it for
// default values. A nil map, or one whose keys or values cannot hold a
// column name and an ID, is left to GORM. It reports whether it made an
// ID.
func (p *Plugin) fillMap(db *gorm.DB, fields []*schema.Field, m reflect.Value) (made bool) {
	mt := m.Type()
	if m.IsNil() || mt.Key().Kind() != reflect.String {
		return false
	}
	key := func(name string) reflect.Value { return reflect.ValueOf(name).Convert(mt.Key()) }
	for _, f := range fields {
		if m.MapIndex(key(f.Name)).IsValid() || m.MapIndex(key(f.DBName)).IsValid() {
			continue
		}
		if !f.IndirectFieldType.AssignableTo(mt.Elem()) {
			db.AddError(errors.New("gormplugin: cannot store a new " + f.IndirectFieldType.String() + " in a " + mt.String()))
			return made
		}
		id, err := p.newID(f.IndirectFieldType)
		if err != nil {
			db.AddError(err)
			return made
		}
		m.SetMapIndex(key(f.DBName), reflect.ValueOf(id))
		made = true
	}
	return made
}

// returnIDsOnConflict makes an upsert report the IDs of the rows it
// updated: with ON CONFLICT ... DO UPDATE the row keeps the ID it had, so
// the ID the plugin assigned must be replaced by the stored one.
//
// Where every ID field is a conflict column there is nothing to replace:
// a row conflicts only by holding the IDs the record holds (GORM saves
// associations so). Otherwise RETURNING does it for one record; for
// several, and for an update with a WHERE, the IDs are read back by the
// conflict columns after the upsert ran (readBackUpsertIDs). GORM hands
// RETURNING's rows to the records by position: a WHERE that skips a row
// shifts every later record onto the next row's ID, and Citus returns
// the rows of a distributed table shard by shard, not in the order of
// VALUES, so that on a cluster records would trade IDs.
func (p *Plugin) returnIDsOnConflict(db *gorm.DB, fields []*schema.Field) {
	c, ok := db.Statement.Clauses["ON CONFLICT"]
	if !ok {
		return
	}
	onConflict, ok := c.Expression.(clause.OnConflict)
	if !ok || onConflict.DoNothing {
		return
	}
	switch db.Dialector.Name() {
	case "postgres", "sqlite":
	default:
		return
	}
	if len(onConflict.Columns) == 0 && onConflict.OnConstraint == "" && onConflict.UpdateAll {
		// GORM's conflict target for UpdateAll with none named.
		for _, f := range db.Statement.Schema.PrimaryFields {
			onConflict.Columns = append(onConflict.Columns, clause.Column{Name: f.DBName})
		}
	}
	if len(onConflict.Columns) > 0 && allConflictColumns(fields, onConflict.Columns) {
		return
	}
	if len(onConflict.Where.Exprs) > 0 || len(onConflict.Columns) > 0 && len(records(db)) > 1 {
		db.Statement.Settings.Store(settingReadBackUpsert, onConflict)
		return
	}
	returning := clause.Returning{}
	if c, ok := db.Statement.Clauses["RETURNING"]; ok {
		if r, ok := c.Expression.(clause.Returning); ok {
			if len(r.Columns) == 0 {
				return // RETURNING * already brings the IDs back
			}
			returning = r
		}
	}
	for _, f := range fields {
		returning.Columns = append(returning.Columns, clause.Column{Name: f.DBName})
	}
	db.Statement.AddClause(returning)
}
