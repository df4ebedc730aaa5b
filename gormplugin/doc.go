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
// ObjectIDs come from objectid.New. WithKSUIDGenerator and
// WithObjectIDGenerator replace either.
//
// AutoMigrate gives ID fields (the ID types and their Null types) without a
// `gorm:"type:..."` tag a column that keeps time order under ORDER BY,
// whatever the database's default collation:
//
//   - PostgreSQL: the ksuid or objectid domain where `sortid sql` (or
//     sqltype.Install) has installed it, the same type as tables made with
//     SQL; otherwise bytea with a CHECK constraint on its length (20 or 12
//     bytes), on the table AutoMigrate works on (db.Table(...), a
//     schema-qualified TableName).
//   - SQLite: text (bytewise by default).
//   - MySQL: char(27) or char(24) CHARACTER SET ascii COLLATE ascii_bin,
//     the text form that the IDs' Value method writes through any driver.
//
// # PostgreSQL: IDs go as bytes
//
// On PostgreSQL the plugin sends every ID value GORM binds (a field, a
// Where argument, a pointer, a Null type) as its raw bytes, so that GORM
// opened as users open it, postgres.Open(dsn) with no hook, reads and
// writes the binary columns right in the default mode and with
// PreferSimpleProtocol (PgBouncer) alike. A string compared with an ID
// column, Where("id = ?", s), First(&o, "id = ?", s), IN and BETWEEN
// included, is parsed as that column's ID: the row is found, or the query
// fails with the parse error; it never matches the string's own bytes.
//
// An ID compared with a column of the model that is not an ID field (a
// string field's column) keeps its text form; in raw SQL against a text
// column that no model describes, pass id.String().
//
// An existing text ID column is never converted: GORM's cast would turn
// each ID's text into 27 bytes. AutoMigrate fails on one with an error
// wrapping ErrTextIDColumn that names the column and the conversion
// (ErrMisorderingColumn where its collation also misorders IDs). A
// database that keeps its ID columns as text uses WithTextIDColumns; a
// model with a text type tag on its ID field gets its IDs sent as text.
// To do all this the plugin wraps db.Dialector; code that type-asserts
// db.Dialector to a concrete driver type sees the wrapper.
//
// # Upserts
//
// With clause.OnConflict{DoUpdates: ...} or UpdateAll, a row that already
// exists keeps its ID, and the struct must end up holding that ID rather
// than the one the plugin made. On PostgreSQL and SQLite the plugin adds a
// RETURNING clause for the ID columns; where the update has a WHERE, which
// may skip rows that RETURNING then leaves out, it reads the IDs back by
// the conflict columns after the upsert instead. MySQL has no RETURNING: there the
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
// It does not fill IDs on Update, or in raw SQL (Exec). It does not
// convert existing columns between text, bytea and the domains: that is
// ALTER TABLE orders ALTER COLUMN id TYPE ksuid USING id::ksuid (from
// bytea) or USING ksuid_from_text(id) (from text).
package gormplugin
