package pgsql

import (
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

//go:embed check.sql
var checkQuery string

// CheckQuery returns the query behind sortid check: one SELECT, which
// changes nothing, that returns as one JSON document each column of the
// database's tables that may hold IDs, with a sample of its values. Run
// it in a READ ONLY transaction with any role that has USAGE on the
// schemas and SELECT on the tables, and give its result to Check.
func CheckQuery() string { return checkQuery }

// ErrCheckResult is wrapped by Check's error for a result it cannot read.
var ErrCheckResult = errors.New("not the result of CheckQuery")

// A Finding is what sortid check says of one column that holds IDs.
type Finding struct {
	Table  string `json:"table"`  // schema-qualified, as the catalog names it (unquoted)
	Column string `json:"column"` // its name
	Type   string `json:"type"`   // as the database writes it, with its collation where that matters
	Holds  string `json:"holds"`  // what the sample holds: "KSUID text", "KSUID raw bytes", …
	// Silent is whether the column can give a silent wrong answer: rows
	// of another time, a lookup that misses, a DELETE of other rows.
	Silent  bool     `json:"silent"`
	Problem string   `json:"problem"`
	Fixes   []string `json:"fixes,omitempty"` // the online fix first, where there is one
	Notes   []string `json:"notes,omitempty"` // what a conversion must carry: foreign keys, partitioning, functions
}

// String is the finding as sortid check prints it.
func (f Finding) String() string {
	var b strings.Builder
	mark := "note"
	if f.Silent {
		mark = "SILENT"
	}
	fmt.Fprintf(&b, "%s.%s (%s): %s\n  %s: %s\n", f.Table, f.Column, f.Type, f.Holds, mark, f.Problem)
	for _, fix := range f.Fixes {
		fmt.Fprintf(&b, "  fix: %s\n", fix)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	return b.String()
}

// checkColumn is one element of CheckQuery's result.
type checkColumn struct {
	Schema, Table, Column, Type, Typname, Base, Collation string
	Bytewise, Readable                                    bool
	Relkind                                               string // "r", "p", "v" (a view), "m" (materialized)
	Generated                                             string // a generated column's expression
	Distribution                                          string // Citus's method ("h" hash, "a", "r") where the table is distributed by it
	PartitionKey                                          bool   `json:"partition_key"`
	PartitionStrategy                                     string `json:"partition_strategy"`
	Sample                                                []string
	ReferencedBy                                          []string `json:"referenced_by"`
	References                                            []string
	Functions                                             []string
	Zero                                                  *bool
}

// Check reads CheckQuery's result and returns what can go wrong in each
// column that holds IDs, and how many columns it looked at. A column's
// IDs are told by its type, or by a sample in which every value is one
// ID type's text or bytes (raw bytes only where each one's time is
// plausible: 20 bytes of a hash are not taken for a KSUID).
func Check(result []byte, now time.Time) (findings []Finding, columns int, err error) {
	var cols []checkColumn
	if err := json.Unmarshal(result, &cols); err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrCheckResult, err)
	}
	for _, c := range cols {
		if f, ok := c.finding(now); ok {
			findings = append(findings, f)
		}
	}
	return findings, len(cols), nil
}

func (c checkColumn) finding(now time.Time) (Finding, bool) {
	f := Finding{Table: c.Schema + "." + c.Table, Column: c.Column, Type: c.Type}
	// The fixes' SQL quotes every name: nothing to guess about key words.
	col, table := quoteIdent(c.Column), quoteIdent(c.Schema)+"."+quoteIdent(c.Table)
	if !c.Readable {
		f.Holds, f.Silent = "unknown", true
		f.Problem = "the role may not read it (no SELECT), so it was not checked"
		f.Fixes = []string{"run sortid check as a role with SELECT on " + f.Table}
		return f, true
	}
	if c.Typname == "ksuid" || c.Typname == "objectid" || c.Base == "uuid" {
		if c.Distribution != "" && c.Base != c.Typname {
			// sortid sql's domain as Citus's distribution column.
			f.Holds = map[string]string{"ksuid": "KSUID", "objectid": "ObjectID"}[c.Typname] + " text (sortid sql's domain)"
			f.Type += " (Citus's distribution column)"
			f.Silent = true
			f.Problem = "Citus 14 does not route by a domain: a lookup by = of this key finds no row, in every pgx mode and as a psql literal, and an INSERT of a literal fails"
			lit := strings.ReplaceAll(table, "'", "''")
			f.Fixes = []string{fmt.Sprintf("SELECT undistribute_table('%s'); then sortid sql to-extension (the extension's %s type), then SELECT create_distributed_table('%s', '%s')", lit, c.Typname, lit, strings.ReplaceAll(c.Column, "'", "''"))}
			return f, true
		}
		return f, false // sortid's types and domains, and uuid, compare as their IDs
	}
	holds, kind := classify(c.Base, c.Sample, now)
	if kind == "" {
		return f, false
	}
	f.Holds = holds
	typ := kindType[kind]
	view := c.Relkind == "v" || c.Relkind == "m"
	switch {
	case view:
		f.Type += " in a view"
		if c.Relkind == "m" {
			f.Type = strings.Replace(f.Type, "a view", "a materialized view", 1)
		}
	case c.Generated != "":
		f.Type += " GENERATED ALWAYS AS (" + c.Generated + ")"
	}
	convert := fmt.Sprintf("convert: ALTER TABLE %s ALTER COLUMN %s TYPE %s", table, col, typ)
	switch {
	case view:
		convert = fmt.Sprintf("define the view's column as %s (DROP VIEW and CREATE VIEW: CREATE OR REPLACE VIEW cannot change a column's type or collation)", typ)
	case c.Generated != "":
		convert = "compare the column it is generated from, or generate it in the ID's type"
	}
	switch {
	case c.Base == "bytea":
		f.Silent = true
		f.Problem = "a bytea column: pgx sends a typed ID as raw bytes in its prepared modes and as its text in exec mode and the simple protocol, and strings, lib/pq and psql send the text; where the form is not the one stored, a lookup misses and NOT IN matches every row (sqltype's hook refuses a typed ID here, nothing guards a string)"
		if !view && c.Generated == "" {
			convert = fmt.Sprintf("convert it: ALTER TABLE %s ALTER COLUMN %s TYPE %s USING %s", table, col, typ, byteaConversion(holds, kind, col))
		}
		f.Fixes = []string{convert}
	case kind == "ksuid" && !c.Bytewise:
		f.Type += fmt.Sprintf(" COLLATE %q", c.Collation)
		f.Silent = true
		f.Problem = fmt.Sprintf("KSUIDs' text under the collation %q does not sort by time: a window (%s >= $1 AND %s < $2), ORDER BY %s, keyset pages and range partition bounds give rows of other times; =, IN and NOT IN are right", c.Collation, col, col, col)
		online := fmt.Sprintf(`online: CREATE INDEX CONCURRENTLY ON %s ((%s COLLATE "C")); then compare and order by %s COLLATE "C"`, table, col, col)
		if view {
			online = fmt.Sprintf(`compare and order by %s COLLATE "C" in every query of the view`, col)
		} else if c.Generated == "" {
			convert += " (rewrites the table under an exclusive lock; docs/migrating.md converts it online)"
		}
		f.Fixes = []string{online, convert}
		if !view {
			f.Notes = append(f.Notes, fmt.Sprintf("GORM: sortid's plugin refuses the table until it is converted; gormplugin.WithEqualityOnly(%q) accepts it for lookups by equality meanwhile", gormTableName(c.Schema, c.Table)))
		}
	case !c.Bytewise:
		f.Type += fmt.Sprintf(" COLLATE %q", c.Collation)
		f.Problem = fmt.Sprintf("%s as text under %q, which sorts lowercase hex as its bytes: right, but unchecked and larger than the %s type", holds, c.Collation, typ)
		f.Fixes = []string{convert}
	default:
		return f, false // the text in byte order: right
	}
	for _, r := range c.ReferencedBy {
		f.Notes = append(f.Notes, "referenced by the foreign key "+r+": a conversion converts that column too, in the same transaction")
	}
	for _, r := range c.References {
		f.Notes = append(f.Notes, "refers through the foreign key "+r+": a conversion converts the key it refers to too")
	}
	if c.PartitionKey {
		f.Notes = append(f.Notes, fmt.Sprintf("the table is partitioned by it (%s): its bounds are in this type and collation", map[string]string{"r": "RANGE", "l": "LIST", "h": "HASH"}[c.PartitionStrategy]))
	}
	if len(c.Functions) > 0 {
		f.Notes = append(f.Notes, "functions whose bodies name it (read them before a conversion): "+strings.Join(c.Functions, ", "))
	}
	if c.Zero != nil && *c.Zero {
		f.Notes = append(f.Notes, "holds a zero ID: segmentio/ksuid writes NULL for ksuid.Nil, sortid writes zeros")
	}
	return f, true
}

// kindType is the PostgreSQL type each ID kind converts to.
var kindType = map[string]string{"ksuid": "ksuid", "objectid": "objectid", "uuidv7": "uuid"}

func byteaConversion(holds, kind, col string) string {
	switch {
	case kind == "uuidv7":
		return fmt.Sprintf("encode(%s, 'hex')::uuid", col)
	case strings.HasSuffix(holds, "raw bytes"):
		return fmt.Sprintf("bytea_to_%s(%s)", kind, col)
	}
	return fmt.Sprintf("%s_from_text(convert_from(%s, 'UTF8'))", kind, col)
}

// classify tells which ID every value of a sample is, in which form; ""
// where they are not all one ID type's (or there is no sample).
func classify(base string, sample []string, now time.Time) (holds, kind string) {
	if len(sample) == 0 {
		return "", ""
	}
	type form struct{ holds, kind string }
	var forms []form
	if base == "bytea" {
		forms = []form{{"KSUID raw bytes", "ksuid"}, {"KSUID text bytes", "ksuid"}, {"ObjectID raw bytes", "objectid"}, {"ObjectID text bytes", "objectid"}, {"UUIDv7 raw bytes", "uuidv7"}}
	} else {
		forms = []form{{"KSUID text", "ksuid"}, {"ObjectID text", "objectid"}, {"UUIDv7 text", "uuidv7"}}
	}
	for _, fm := range forms {
		all := true
		for _, v := range sample {
			if !isForm(fm.holds, v, now) {
				all = false
				break
			}
		}
		if all {
			return fm.holds, fm.kind
		}
	}
	return "", ""
}

// plausible reports whether t is a time an ID made by a program could
// hold: from 2009 (MongoDB's first year) to a day from now.
func plausible(t, now time.Time) bool {
	return t.Year() >= 2009 && t.Before(now.Add(24*time.Hour))
}

func isForm(holds, v string, now time.Time) bool {
	text := v
	if strings.HasSuffix(holds, "bytes") {
		b, err := hex.DecodeString(v)
		if err != nil {
			return false
		}
		text = string(b)
	}
	switch holds {
	case "KSUID text", "KSUID text bytes":
		_, err := ksuid.Parse(text)
		return err == nil
	case "ObjectID text", "ObjectID text bytes":
		_, err := objectid.Parse(text)
		return err == nil
	case "UUIDv7 text":
		_, err := uuidv7.Parse(text)
		return err == nil
	case "KSUID raw bytes":
		id, err := ksuid.FromBytes([]byte(text))
		return err == nil && plausible(id.Time(), now)
	case "ObjectID raw bytes":
		id, err := objectid.FromBytes([]byte(text))
		return err == nil && plausible(id.Time(), now)
	case "UUIDv7 raw bytes":
		id, err := uuidv7.FromBytes([]byte(text))
		return err == nil && plausible(id.Time(), now)
	}
	return false
}

// gormTableName is the table as a GORM statement names it: unqualified in
// public, the schema's default.
func gormTableName(schema, table string) string {
	if schema == "public" {
		return table
	}
	return schema + "." + table
}
