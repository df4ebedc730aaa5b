// Package gormplugin gives GORM models KSUID (or ObjectID) primary keys
// with one line:
//
//	db.Use(gormplugin.New())
//
//	type User struct {
//		ID   ksuid.KSUID
//		Name string
//	}
//	db.Create(&user) // user.ID is now a new KSUID
//
// # What it does
//
// On every create path (a struct pointer, []T, []*T, CreateInBatches,
// Save of a new record, FirstOrCreate, embedded structs, associations
// created with their parent) it assigns a new ID to each zero field of type
// ksuid.KSUID, *ksuid.KSUID, objectid.ObjectID or *objectid.ObjectID that
// is a primary key or tagged `sortid:"auto"`; a pointer to the zero ID
// counts as zero, and gets a new pointer rather than a write through the
// caller's. An ID set by the caller, or by a BeforeCreate hook, is left
// alone. Create(map[string]any{...}) on a model gets the new ID under the
// column name unless the map sets it. Create of a value that is not a
// pointer is a gorm.ErrInvalidValue error. Inputs the plugin does not
// handle (a nil element or a nil map, say) are left to GORM, which then
// does what it does without the plugin.
//
// KSUIDs come from a monotonic generator by default: ordered to a
// fraction of a second, also across application instances, and each a
// random step of up to 2^72 from its neighbour, so they are safe in URLs.
// ObjectIDs come from objectid.New. WithGenerator and
// WithObjectIDGenerator replace either.
//
// AutoMigrate gives ID fields without a `gorm:"type:..."` tag a column that
// keeps time order under ORDER BY, whatever the database's default
// collation: text COLLATE "C" on PostgreSQL, text on SQLite (bytewise by
// default), char(27) or char(24) CHARACTER SET ascii COLLATE ascii_bin on
// MySQL. The columns hold the text form, which is what the IDs' Value
// method writes through any database/sql driver. To do this the plugin
// wraps db.Dialector; code that type-asserts db.Dialector to a concrete
// driver type sees the wrapper.
//
// # Upserts
//
// With clause.OnConflict{DoUpdates: ...} or UpdateAll, a row that already
// exists keeps its ID, and the plugin adds a RETURNING clause for the ID
// columns on PostgreSQL and SQLite so that the struct ends up holding the
// row's ID rather than the one the plugin made. With DoNothing a
// conflicting row is not written and the struct keeps the unused new ID;
// check RowsAffected. On MySQL, which has no RETURNING, read the row back
// after an upsert.
//
// # What it does not do
//
// It does not fill IDs on Update, or in raw SQL (Exec), and it does not
// register sqltype's binary encoding: the columns it creates hold text.
package gormplugin
