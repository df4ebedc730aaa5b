package pgsql

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/sortid/sortid/internal/excerpt"
)

// The install script is its head (transaction, lock, the refusal on a
// database with the extension), then the part of each ID type asked for,
// then COMMIT.
var (
	//go:embed install_head.sql
	scriptHead string
	//go:embed install_ksuid.sql
	scriptKSUID string
	//go:embed install_objectid.sql
	scriptObjectID string
	//go:embed install_uuidv7.sql
	scriptUUIDv7 string
)

// partOrder is the parts of the install script, in the order Script puts
// them; no part named means all of them.
var partOrder = []string{"ksuid", "objectid", "uuidv7"}

var scriptParts = map[string]*string{"ksuid": &scriptKSUID, "objectid": &scriptObjectID, "uuidv7": &scriptUUIDv7}

// ErrIDType is wrapped by the error for a part Script does not have.
// Like ErrSchemaName it has no package prefix.
var ErrIDType = errors.New("unknown ID type")

// script joins the head and the parts idTypes names (all with none), each
// once and in the order of partOrder.
func script(idTypes []string) (string, error) {
	want := make(map[string]bool)
	for _, t := range idTypes {
		if scriptParts[t] == nil {
			return "", fmt.Errorf("ID type %s: %w (want ksuid, objectid or uuidv7)", excerpt.Text(t), ErrIDType)
		}
		want[t] = true
	}
	var b strings.Builder
	b.WriteString(scriptHead)
	for _, t := range partOrder {
		if len(want) == 0 || want[t] {
			b.WriteString(*scriptParts[t])
		}
	}
	b.WriteString("\nCOMMIT;\n")
	return b.String(), nil
}

//go:embed to_extension.sql
var toExtension string

// ToExtension returns the script that converts a database from the
// domains of Script to the sortid extension's types, in place and in one
// transaction (`sortid sql to-extension`); its comments say what it does.
func ToExtension() string { return toExtension }

// ErrSchemaName is wrapped by the error for a schema name Script does not
// take. The error has no package prefix: its callers add theirs.
var ErrSchemaName = errors.New("invalid schema name")

// Script returns the install script of the ID types named ("ksuid",
// "objectid", "uuidv7"; all three with none) with its objects in schema,
// or unqualified (in the first schema of the search path) if schema is "".
// A schema is created if it does not exist.
func Script(schema string, idTypes ...string) (string, error) {
	script, err := script(idTypes)
	if err != nil {
		return "", err
	}
	if schema == "" {
		return strings.ReplaceAll(script, "@SCHEMA@", ""), nil
	}
	if !validSchema(schema) {
		return "", fmt.Errorf("schema %s: %w (lowercase letters, digits and underscores, not a digit first, at most 63 bytes)",
			excerpt.Text(schema), ErrSchemaName)
	}
	quoted := `"` + schema + `"`
	s := strings.ReplaceAll(script, "@SCHEMA@", quoted+".")
	lock := "DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('sortid install')); END $$;\n"
	return strings.Replace(s, lock, lock+"CREATE SCHEMA IF NOT EXISTS "+quoted+";\n", 1), nil
}

// ScriptForOneQuery is Script without its BEGIN and COMMIT, for sending
// as one simple-protocol query: PostgreSQL runs such a query in one
// transaction of its own, and after an error leaves no transaction open.
func ScriptForOneQuery(schema string, idTypes ...string) (string, error) {
	s, err := Script(schema, idTypes...)
	if err != nil {
		return "", err
	}
	return OneQuery(s), nil
}

// OneQuery is a script of this package (Script, PartitionsSQL) without its
// BEGIN and COMMIT, for sending as one simple-protocol query.
func OneQuery(script string) string {
	script = strings.Replace(script, "\nBEGIN;\n", "\n", 1)
	return strings.TrimSuffix(script, "COMMIT;\n")
}

// validSchema accepts the names that need no quoting in PostgreSQL (bar
// keywords, which Script quotes anyway) and can appear inside the script's
// dollar-quoted bodies as they are.
func validSchema(name string) bool {
	if len(name) == 0 || len(name) > 63 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
