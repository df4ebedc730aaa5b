// Package gormplugin gives GORM models KSUID, ObjectID or UUIDv7 primary
// keys with one line, and sends every ID, and every string compared with
// an ID column, in the form of the column it meets:
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
// A key whose tag asks the database for it, `gorm:"default:uuidv7()"` or
// `gorm:"default:ksuid_generate()"` (any default the server computes), is
// the database's to fill: the plugin leaves it zero, GORM leaves it out of
// the INSERT and reads the server's key back into the struct (or the map)
// with RETURNING, on PostgreSQL, SQLite and MariaDB 10.5 or later. Where
// the dialect has no RETURNING (MySQL, or gorm.io/driver/mysql with
// DisableWithReturning), GORM could not read it back, so the plugin fills
// it in Go as it does a key without a default; the column's default then
// serves writers other than GORM.
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
// # Each value in its column's form
//
// The plugin binds the values of WHERE, SET, VALUES, ON CONFLICT and
// JOIN clauses by what it knows for sure: the value's Go type, the real
// type of the column it meets, and GORM's clause tree. It reads each
// table's column types once from the database's catalog (MySQL's
// information schema), tables GORM did not create and joined tables
// included, and keeps them for a minute (its own AutoMigrate drops them
// at once). An ID, or a string compared with an ID
// column, goes as raw bytes to bytea and the ksuid and objectid domains,
// as the text form to text, varchar and char columns, and as text to
// uuid, which parses it: right with postgres.Open(dsn) as it is and with
// PreferSimpleProtocol (PgBouncer). A string is parsed as the column's ID
// first, so a bad one fails the statement and nothing is sent. A fragment
// of SQL, Where("id NOT IN ?", strs), is read whole by a tokenizer to tell
// which column each placeholder meets (qualified names, aliases of
// joined tables, NOT, IS DISTINCT FROM, the placeholder on either side).
//
// What it cannot tell is an error: a value in an expression over an ID
// column (coalesce(parent, id) = ?) or in SQL it does not read wraps
// ErrUnclearColumn; an ID of another type than its column's,
// ErrWrongIDType; <, > or BETWEEN with a text ID column whose collation
// does not sort IDs by time, ErrMisorderingColumn. SQL written whole
// (db.Raw, db.Exec) is read the same way before it is sent, by the
// tables it names and the column each placeholder meets; a placeholder
// in a place it does not read keeps its value as given (an ID as bytes,
// text with WithTextIDColumns). GORM's logger prints bound IDs as their
// text.
//
// On MySQL a UUID goes as its 16 bytes to a BINARY(16) column (the one
// the plugin makes), and a string compared with it is parsed; KSUIDs and
// ObjectIDs keep their text form, which their char columns hold.
//
// An existing text ID column is never converted: GORM's cast would turn
// each ID's text into 27 bytes. AutoMigrate fails on one with an error
// wrapping ErrTextIDColumn that names the column and the conversion
// (ErrMisorderingColumn where its collation also misorders IDs). A
// database that keeps its ID columns as text uses WithTextIDColumns; a
// model with a text type tag on its ID field keeps it too. To do all this
// the plugin wraps db.Dialector and db.ClauseBuilders; code that
// type-asserts db.Dialector to a concrete driver type sees the wrapper.
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
