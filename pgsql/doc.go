// Package pgsql is sortid's SQL for PostgreSQL, as text: the install
// script of the domains and functions (Script, by ID type and schema),
// the script that moves a database from them to the sortid extension
// (ToExtension), and the statements that keep a table partitioned by
// its ID (PartitionStatements). The sortid command prints them and
// sqltype runs them; a migration tool can embed them as they are.
//
// The scripts are idempotent and need no superuser. Errors wrap
// ErrIDType, ErrSchemaName or ErrPartitions, without a package prefix:
// their callers add theirs.
package pgsql
