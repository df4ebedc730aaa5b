// Package sqltype makes sortid's ID types native to pgx v5 and ships the
// SQL that makes them native to PostgreSQL.
//
// Where the server can load a C extension, the column types are the
// sortid extension's ksuid and objectid (CREATE EXTENSION sortid, built
// from extension/ in sortid's source): real types whose input function
// reads the text form, so that a psql literal or a Go string finds its
// row with every operator. AfterConnect registers them (raw bytes in
// binary format). A slice of IDs needs AfterConnect: without it pgx knows
// neither the types' arrays nor the ID slices. In QueryExecModeExec and
// the simple protocol (PgBouncer) the rules below hold as for the
// domains: AfterConnect refuses an ID value there, and AfterConnectBytea
// sends its \x form, which the types read too.
//
// Elsewhere (managed services that load no new C extension) the column
// types are the domains ksuid (bytea of exactly 20 bytes) and objectid
// (12 bytes), which InstallSQL's script defines together with SQL
// functions to make and read IDs (ksuid_generate, ksuid_to_text,
// ksuid_time, ...); one database has one or the other. Install them once,
// then register on every connection:
//
//	sqltype.Install(ctx, conn, "") // or: sortid sql | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
//	cfg.AfterConnect = sqltype.AfterConnect   // pgxpool.Config
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
// AfterConnect registers the domains' OIDs, so that IDs go into them as
// raw bytes in binary format, and the ID types for every column type: raw
// bytes into bytea, the text form into text, char and varchar. It covers
// ksuid.KSUID, ksuid.NullKSUID, objectid.ObjectID, objectid.NullObjectID,
// uuidv7.UUID and uuidv7.NullUUID, pointers to them (a nil pointer is
// NULL) and slices of them as array parameters (id = ANY($1)). Scanning needs no registration: the types
// implement sql.Scanner, which takes the raw bytes, the text form and the
// \x hex form of a bytea. A pool with a hook of its own keeps it with
// AfterConnectThen.
//
// # Query modes where pgx cannot know the column type
//
// pgx's default mode, QueryExecModeCacheStatement, works through
// PgBouncer 1.22 and later in transaction pooling (its
// max_prepared_statements, 200 by default, keeps prepared statements
// across server connections; on 1.21 set it above 0): keep it and
// AfterConnect there. Before 1.21 (Debian bookworm's 1.18) a statement
// prepared on one server connection is run on another, and the query
// fails (prepared statement "stmtcache_..." does not exist, or already
// exists). Use QueryExecModeExec or the simple protocol there.
//
// In QueryExecModeExec and the simple protocol (PgBouncer in transaction
// mode, default_query_exec_mode=exec) pgx sends every parameter untyped,
// and PostgreSQL types it by the column it meets. No one form of an ID is
// right for every column: the text form is the right one for a text
// column, and a ksuid, objectid or bytea column reads it as 27 (24) other
// bytes, which no row holds and which sort before every ID (so that
// DELETE ... WHERE id < $1 would delete every row); bytea's \x form is the
// other way round. So Register refuses an ID there, with an error
// wrapping ErrUntypedParameter that says what to pass instead: id[:] for a
// binary column, id.String() for a text one. A database whose ID columns
// are all binary (the domains, bytea) can say so with AfterConnectBytea
// (or RegisterBytea), and IDs then go as bytes in those modes too.
//
// A UUIDv7 is the exception: it goes into PostgreSQL's own uuid type,
// which reads the text form as the same 16 bytes, so in those modes it
// goes as its text form, under either hook, and finds its rows in uuid
// and text columns alike. Keep UUIDs in uuid columns, not bytea, which
// would take the 36 characters as bytes.
//
// The same error comes for a domain installed after the connection was
// made, whose type the connection has not registered: reconnect (a pool
// made after the install does), or use AfterConnectBytea, which sends
// bytes there as well.
//
// # What the domains check
//
// A column of the domain holds the raw bytes, or the write fails: a value
// of any other length is an error whose constraint name says what to write
// instead ("20 raw bytes; for the 27-character text use
// ksuid_from_text()"). The install script also defines <, <=, > and >= on
// two values of a domain, so that a comparison with an untyped value (a
// literal in psql, a Go string, the text form from a driver without the
// hook) makes that value a ksuid first: the text form is then the same
// error instead of matching the wrong rows. = and = ANY still compare as
// bytea, and there the text form matches nothing, silently: in SQL write
// ksuid_from_text('...'), and in Go parse strings with ksuid.Parse and pass
// the ID. A plain bytea column checks nothing: use the domains.
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
// Over pgx's stdlib driver, register in the same way,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
//
// and the rules above apply to database/sql too. Drivers that see only
// driver.Valuer (lib/pq, for one) send the text form: the domains refuse
// it in writes and in <, >, BETWEEN; use the sqlbytes types with them.
package sqltype
