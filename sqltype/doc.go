// Package sqltype makes sortid's ID types native to pgx v5 and ships the
// SQL that makes them native to PostgreSQL.
//
// The recommended column types are the domains ksuid (bytea of exactly 20
// bytes) and objectid (12 bytes), which InstallSQL's script defines
// together with SQL functions to make and read IDs (ksuid_generate,
// ksuid_to_text, ksuid_time, ...). Install them once, then register on
// every connection:
//
//	sqltype.Install(ctx, conn, "")            // or: sortid sql | psql "$DATABASE_URL"
//	cfg.AfterConnect = sqltype.AfterConnect   // pgxpool.Config
//
//	CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), ...);
//
// AfterConnect registers the domains' OIDs, so that IDs go into them as
// raw bytes in binary format, and the ID types for every column type: raw
// bytes into bytea, the text form into text, char and varchar. It covers
// ksuid.KSUID, ksuid.NullKSUID, objectid.ObjectID and objectid.NullObjectID,
// pointers to them (a nil pointer is NULL) and slices of them as array
// parameters (id = ANY($1)). Scanning needs no registration: the types
// implement sql.Scanner, which takes the raw bytes, the text form and the
// \x hex form of a bytea. A pool with a hook of its own keeps it with
// AfterConnectThen.
//
// # One stored format per column
//
// A column of the domain holds the raw bytes, or the write fails: in the
// query modes where pgx cannot know the column type, QueryExecModeExec and
// QueryExecModeSimpleProtocol, it sends an ID's text form, and the
// domain's CHECK refuses those 27 (24) bytes with an error. A plain bytea
// column has no such check: there, in those two modes, it stores the 27
// (24) ASCII bytes of the text, and lookups made in the other modes miss
// those rows. Use the domain, or pass id[:] in those modes.
//
// Without AfterConnect, pgx still writes the raw bytes into a plain bytea
// column in the other modes (the ID types have the BytesValue method it
// looks for), but it does not know the domains' OIDs and sends the text
// form, which the domain refuses.
//
// # database/sql
//
// Over pgx's stdlib driver, register in the same way,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
//
// and the rules above apply to database/sql too. Drivers that see only
// driver.Valuer (lib/pq, for one) send the text form.
package sqltype
