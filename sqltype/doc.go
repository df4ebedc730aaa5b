// Package sqltype makes sortid's ID types native to pgx v5, so that each
// ID is sent in the form its column holds: 20 (KSUID) or 12 (ObjectID) raw
// bytes in binary format into bytea, and the text form into text, char and
// varchar, with no detour through strings for binary columns.
//
// One call per connection does it, for example from pgxpool:
//
//	cfg.AfterConnect = sqltype.AfterConnect
//
// Register covers ksuid.KSUID, ksuid.NullKSUID, objectid.ObjectID and
// objectid.NullObjectID, pointers to them (a nil pointer is NULL) and
// slices of them as array parameters (id = ANY($1)). Scanning needs no
// registration: the types implement sql.Scanner, which pgx calls with the
// raw bytes of a bytea column or the text of a text column.
//
// # Where pgx does not know the column type
//
// With pgx.QueryExecModeExec and pgx.QueryExecModeSimpleProtocol, pgx
// sends parameters as untyped text and PostgreSQL decides their type from
// the query, so no driver can tell a bytea column from a text one. There an
// ID is sent as its text form: right for text columns; a bytea column
// stores the 27 (24) ASCII bytes of the text, which Scan reads back as the
// same ID and which still sort by time, but take 7 (12) bytes more. For
// bytea columns in those modes pass id[:] instead, which pgx sends as
// bytea. pgx.CopyFrom, prepared statements and the default
// QueryExecModeCacheStatement all know the column type.
//
// # database/sql
//
// Without this package, database/sql sends IDs through driver.Valuer as
// text. Over pgx's stdlib driver, register in the same way,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
//
// and the rules above apply to database/sql too.
package sqltype
