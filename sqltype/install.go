package sqltype

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sortid/sortid/pgsql"
)

// InstallSQL returns sortid's PostgreSQL install script of the ID types
// named, the text that `sortid sql [ksuid|objectid|uuidv7]` prints; with
// none, of all three. Its parts:
//
//   - "ksuid": the domain ksuid (text COLLATE "C", checked to be 27
//     base62 characters no greater than the largest KSUID), the functions
//     ksuid_generate, ksuid_to_text, ksuid_from_text, ksuid_to_bytea,
//     bytea_to_ksuid, ksuid_time, ksuid_min_at and ksuid_max_at, the
//     extension's names and results; ksuid_time_encoder and
//     ksuid_time_decoder for pg_partman. It creates the pgcrypto
//     extension (ksuid_generate's random source) if missing.
//   - "objectid": the domain objectid (text COLLATE "C", 24 lowercase hex
//     digits), objectid_to_text, objectid_from_text, objectid_to_bytea,
//     bytea_to_objectid, objectid_time, objectid_min_at,
//     objectid_max_at, objectid_time_encoder and objectid_time_decoder.
//   - "uuidv7": uuidv7_generate, uuidv7_time, uuidv7_min_at,
//     uuidv7_max_at, uuidv7_time_encoder and uuidv7_time_decoder on
//     PostgreSQL's uuid type, and nothing else; pgcrypto only on a
//     server before 18 (on 18 uuidv7_generate is uuidv7()).
//
// A name it does not know is an error wrapping ErrIDType. It needs no
// superuser. It is idempotent: run again, it replaces the functions and
// keeps the domains.
// On a database that has the sortid extension, which is the better
// install where the server can load it, the script changes nothing and
// fails (see ErrExtensionInstalled).
//
// With schema "", the objects go into the first schema of the search path
// (usually public); otherwise into schema, created if missing. A schema
// name must be lowercase letters, digits and underscores.
func InstallSQL(schema string, idTypes ...string) (string, error) {
	script, err := pgsql.Script(schema, idTypes...)
	if err != nil {
		return "", fmt.Errorf("sqltype: %w", err)
	}
	return script, nil
}

// ErrSchemaName is wrapped by the error of InstallSQL and Install for a
// schema name they do not take.
var ErrSchemaName = pgsql.ErrSchemaName

// ErrIDType is wrapped by the error of InstallSQL and Install for an ID
// type they do not know: they take "ksuid", "objectid" and "uuidv7".
var ErrIDType = pgsql.ErrIDType

// Execer is what Install needs of a connection: *pgx.Conn, *pgxpool.Pool
// and pgx.Tx all have it.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Install runs the install script of InstallSQL(schema, idTypes...) on
// db, in one transaction: after an error nothing of it is installed.
// Install(ctx, db, "", "uuidv7") installs only the UUIDv7 functions. The script takes an advisory lock, so that installs from
// several processes at once wait for each other.
func Install(ctx context.Context, db Execer, schema string, idTypes ...string) error {
	script, err := pgsql.ScriptForOneQuery(schema, idTypes...)
	if err != nil {
		return fmt.Errorf("sqltype: %w", err)
	}
	// Without arguments pgx sends the script as one simple-protocol query,
	// which may hold many statements and which PostgreSQL runs as one
	// transaction: all of it or, after an error, nothing, with no
	// transaction left open on the connection.
	if _, err := db.Exec(ctx, script); err != nil {
		if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok && pgErr.Code == extensionInstalledCode {
			return fmt.Errorf("sqltype: installing sortid's SQL: %w (%w)", ErrExtensionInstalled, err)
		}
		return fmt.Errorf("sqltype: installing sortid's SQL: %w", err)
	}
	return nil
}

// ErrExtensionInstalled is wrapped by Install's error for a database that
// has the sortid extension (CREATE EXTENSION sortid), whose types and
// functions the script's domains would shadow: the script stops before
// changing anything. The extension has all of it, so a program that
// calls Install at start-up may take this error as success.
var ErrExtensionInstalled = errors.New("the sortid extension is installed; nothing to install")

// extensionInstalledCode is the SQLSTATE with which the install script
// stops on a database that has the extension.
const extensionInstalledCode = "55S01"
