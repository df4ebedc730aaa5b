// Package pgsql is sortid's SQL for PostgreSQL, as text: the install
// script of the domains and functions (Script, by ID type and schema),
// the script that moves a database from them to the sortid extension
// (ToExtension), and the statements that keep a table partitioned by
// its ID (PartitionStatements), and the read-only query behind sortid
// check (CheckQuery) with the reading of its result (Check). The sortid
// command prints or runs them and sqltype runs them; a migration tool
// can embed them as they are.
//
// The scripts are idempotent and need no superuser. Errors wrap
// ErrIDType, ErrSchemaName, ErrPartitions or ErrCheckResult, without a package prefix:
// their callers add theirs.
package pgsql
