// Package sqltype makes sortid's ID types native to PostgreSQL and pgx v5:
// the SQL that gives a database KSUID and ObjectID columns, the partitions
// of tables keyed by them, and an optional pgx hook.
//
// A KSUID column holds what a KSUID writes, its 27-character text, and an
// ObjectID column its 24 hex digits, on every install:
//
//   - where the server can load a C extension, the sortid extension's
//     types ksuid and objectid (CREATE EXTENSION sortid, built from
//     extension/ in sortid's source): 20 and 12 bytes on disk, read and
//     written as text (and binary);
//   - elsewhere (managed services), the domains ksuid and objectid over
//     text COLLATE "C" that InstallSQL's script defines, with a CHECK of
//     the text's grammar and SQL functions to make and read IDs
//     (ksuid_generate, ksuid_time, ksuid_min_at, ...). Under "C" the text
//     sorts by its bytes, which is time order.
//
// Either way every client is right with no hook: the IDs' driver.Valuer
// writes the text, which the types and the domains read, and a psql
// literal or a string from any program finds its row with =, IN, NOT IN,
// <>, ranges and IS DISTINCT FROM. One database has one or the other:
//
//	sqltype.Install(ctx, conn, "") // or: sortid sql | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
//
//	CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), ...);
//
// UUIDv7s need neither: they go into PostgreSQL's own uuid. On
// PostgreSQL 18, DEFAULT uuidv7() needs no install; before 18,
// Install(ctx, conn, "", "uuidv7") (sortid sql uuidv7) adds only
// uuidv7_generate, uuidv7_time, uuidv7_min_at and uuidv7_max_at. Install
// takes "ksuid" and "objectid" the same way; with no name it installs
// all three parts.
//
// # The hook: an optimisation
//
// AfterConnect registers the ID types with a pgx connection, and the
// extension's types where the database has them, so that IDs go in and
// come out of those as raw bytes in binary format, and a slice of IDs
// goes as an array parameter (id = ANY($1)) in every query mode:
//
//	cfg.AfterConnect = sqltype.AfterConnect // pgxpool.Config
//
// Without it, pgx sends a []ksuid.KSUID only where it knows the
// parameter's type (its three prepared modes); in QueryExecModeExec and
// the simple protocol that one case is pgx's "cannot find encode plan"
// error, as for a []uuid. With it, an ID whose parameter type pgx does not
// know goes as its text, as without it. It covers ksuid.KSUID,
// ksuid.NullKSUID, objectid.ObjectID, objectid.NullObjectID, uuidv7.UUID
// and uuidv7.NullUUID, pointers to them (a nil pointer is NULL) and slices
// of them. An ID for a bytea parameter is an error wrapping
// ErrByteaParameter: such a column, made by another tool, may hold the raw
// bytes or the text, and pgx would send one or the other by query mode;
// pass id[:] or id.String(). Scanning needs no registration: the types
// implement sql.Scanner, which takes the text form and the raw bytes. A pool with a
// hook of its own keeps it with AfterConnectThen.
//
// # PgBouncer
//
// pgx's default mode, QueryExecModeCacheStatement, works through
// PgBouncer 1.22 and later in transaction pooling (its
// max_prepared_statements, 200 by default, keeps prepared statements
// across server connections; on 1.21 set it above 0). Before 1.21
// (Debian bookworm's 1.18) a statement prepared on one server connection
// is run on another, and the query fails (prepared statement
// "stmtcache_..." does not exist, or already exists): use
// QueryExecModeExec or the simple protocol there, where IDs go as text
// and stay right, with or without the hook.
//
// # Partitions
//
// A table partitioned BY RANGE on its ID gets its day, week or month
// partitions from Partitions (or the SQL of PartitionsSQL, which `sortid
// sql partitions` prints), each bounded by the smallest ID of its
// period's first midnight and of the next period's; with Retain it drops
// the old ones. A row whose ID falls in no partition fails its insert,
// unless the spec asks for a DEFAULT partition.
//
// # database/sql
//
// Over pgx's stdlib driver, register in the same way if you want the
// binary transfer,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
//
// Drivers that see only driver.Valuer (lib/pq, for one) send the text
// form, which is right.
package sqltype
