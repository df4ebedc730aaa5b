// Package gormplugin gives GORM models KSUID, ObjectID or UUIDv7 primary
// keys with one line, in columns that hold each ID's text in time order:
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
// serves writers other than GORM. In a database with Citus the plugin
// fills it in Go too when several records are created at once, and puts
// each record's key back after GORM has read RETURNING: Citus returns
// the rows of a distributed table shard by shard, and GORM gives them to
// the records by position (other columns the database fills are still
// read back so, by GORM).
//
// KSUIDs come from a monotonic generator by default: ordered to a
// fraction of a second, also across application instances, and each a
// random step of up to 2^72 from its neighbour, so they are safe in URLs.
// ObjectIDs come from objectid.New. WithKSUIDGenerator and
// WithObjectIDGenerator replace either.
//
// AutoMigrate gives ID fields (the ID types and their Null types) without a
// `gorm:"type:..."` tag a column that holds the ID's text under a
// collation that sorts it by its bytes, and so by time, whatever the
// database's default collation:
//
//   - PostgreSQL: the sortid extension's ksuid or objectid type, or the
//     domain of `sortid sql` (sqltype.Install), where installed; otherwise
//     varchar(27) (24) COLLATE "C" with a CHECK of the ID's text, on the
//     table AutoMigrate works on (db.Table(...), a schema-qualified
//     TableName). UUIDs: uuid.
//   - SQLite: text (bytewise by default).
//   - MySQL: char(27), char(24) or char(36) CHARACTER SET ascii COLLATE
//     ascii_bin.
//
// # No SQL rewriting
//
// The plugin binds nothing and rewrites no SQL: every ID goes as its text,
// its driver.Valuer, which each of those columns reads, so an ID, a
// pointer, a Null type and a string find the same rows in every statement
// GORM builds and in SQL written whole (db.Raw, db.Exec), in both
// protocols. In a callback before each statement runs (never under
// DryRun, and not while GORM builds SQL), it fails the statement, before
// anything is sent, if a column the statement gives an ID (the model's ID
// fields, and columns its conditions compare with an ID value, with or
// without a model) cannot hold the ID's text in byte order: a bytea or
// binary column wraps ErrColumnType, a text column under a collation that
// does not sort IDs by their bytes wraps ErrMisorderingColumn, a table
// that Citus distributes by a column of sortid sql's domains (by which
// Citus 14 finds no row) wraps ErrDistributedDomain, each naming the
// column and the fix. The table is the one the statement reaches
// (db.Table's schema-qualified name, a TablePrefix, the search path of a
// db.Connection). Its column types come from the catalog (MySQL's
// information schema), read once per table in each scope and kept: the
// pool, until it opens or closes a connection; a db.Connection or a
// transaction, for its life. A string compared with a column of a model
// with no ID field is not known to be an ID, and is not checked.
// WithEqualityOnly accepts named tables under a misordering collation for
// statements that compare their IDs by equality only. AutoMigrate keeps an existing ID column that
// passes the check and fails with the same errors on one that does not;
// it never converts one (GORM's cast would turn each ID into other
// bytes). To do this the plugin wraps db.Dialector; code that
// type-asserts db.Dialector to a concrete driver type sees the wrapper.
//
// # Upserts
//
// With clause.OnConflict{DoUpdates: ...} or UpdateAll, a row that already
// exists keeps its ID, and the struct must end up holding that ID rather
// than the one the plugin made. Where every ID field is a conflict column
// (as in GORM's saves of associations) a conflicting row holds the
// record's IDs, and nothing is read. Otherwise, on PostgreSQL and SQLite,
// the plugin adds a RETURNING clause for the ID columns to the upsert of
// one record; for several records, and where the update has a WHERE, it
// reads the IDs back by the conflict columns after the upsert: GORM gives
// RETURNING's rows to the records by position, a WHERE leaves skipped rows
// out, and Citus returns a distributed table's rows shard by shard. MySQL
// has no RETURNING: there the plugin reads the IDs back by the conflict
// columns, so name them in OnConflict.Columns (MySQL itself ignores them).
// An upsert on MySQL that names none is an error wrapping ErrUpsertID when
// it could leave a struct with an ID no row has: at once for several
// records, and for one record when it updated a row (in GORM's default
// transaction the upsert is then rolled back). Records given as maps are not read back. With DoNothing a
// conflicting row is not written and the struct keeps the unused new ID;
// check RowsAffected.
//
// # What it does not do
//
// It does not fill IDs on Update, or in raw SQL (Exec). It does not
// convert existing columns: that is ALTER TABLE orders ALTER COLUMN id
// TYPE ksuid USING bytea_to_ksuid(id) (from bytea) or USING id::ksuid
// (from text).
package gormplugin
