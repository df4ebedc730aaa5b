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
// collation:
//
//   - PostgreSQL: bytea with a CHECK constraint on its length (20 or 12
//     bytes). The IDs go in as their raw bytes through
//     gorm.io/driver/postgres as it is usually opened, postgres.Open(dsn);
//     with PreferSimpleProtocol (PgBouncer) pgx sends the text form, and the
//     check makes that an error instead of a second stored format.
//   - SQLite: text (bytewise by default).
//   - MySQL: char(27) or char(24) CHARACTER SET ascii COLLATE ascii_bin,
//     the text form that the IDs' Value method writes through any driver.
//
// On PostgreSQL an existing text ID column is never converted: GORM's cast
// would turn each ID's text into 27 bytes. A text column under a
// collation that sorts IDs by their bytes (such as "C", which earlier
// versions of the plugin created) is kept; under any other collation
// AutoMigrate fails with an error that wraps ErrMisorderingColumn and
// names the column and the fix. To do all this the plugin wraps
// db.Dialector; code that type-asserts db.Dialector to a concrete driver
// type sees the wrapper.
//
// # Upserts
//
// With clause.OnConflict{DoUpdates: ...} or UpdateAll, a row that already
// exists keeps its ID, and the struct must end up holding that ID rather
// than the one the plugin made. On PostgreSQL and SQLite the plugin adds a
// RETURNING clause for the ID columns. MySQL has no RETURNING: there the
// plugin reads the IDs back by the conflict columns, so name them in
// OnConflict.Columns (MySQL itself ignores them). An upsert on MySQL that
// names none is an error wrapping ErrUpsertID when it could leave a struct
// with an ID no row has: at once for several records, and for one record
// when it updated a row (in GORM's default transaction the upsert is then
// rolled back). Records given as maps are not read back. With DoNothing a
// conflicting row is not written and the struct keeps the unused new ID;
// check RowsAffected.
//
// # What it does not do
//
// It does not fill IDs on Update, or in raw SQL (Exec). It does not use
// the ksuid and objectid domains of sqltype.InstallSQL: pgx needs
// sqltype.AfterConnect to write into them, which postgres.Open(dsn) does
// not run.
package gormplugin
