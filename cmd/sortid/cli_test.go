package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// sortid runs the command in-process, as main does, and returns its
// output and exit code, so that the tests see the race detector and
// coverage. TestBuiltBinary runs the real binary once.
func sortid(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestBuiltBinary builds the command and runs it: main's wiring of
// arguments, streams and exit status.
func TestBuiltBinary(t *testing.T) {
	binary := filepath.Join(t.TempDir(), "sortid")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(binary, "inspect", "--json")
	cmd.Stdin = strings.NewReader("0qjBBlJIfbVLKwnJn4xpLGDr00e\n")
	out, err := cmd.Output()
	var info Info
	if err != nil || json.Unmarshal(out, &info) != nil || info.Timestamp != 100000000 {
		t.Errorf("sortid inspect --json: %v, %s", err, out)
	}
	err = exec.Command(binary, "-t", "ulid").Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != exitUsage {
		t.Errorf("sortid -t ulid: %v; want exit status %d", err, exitUsage)
	}
}

// The golden outputs are written by hand from the ID formats.
func TestInspectGolden(t *testing.T) {
	tests := []struct{ id, want string }{
		{"0qjBBlJIfbVLKwnJn4xpLGDr00e", `0qjBBlJIfbVLKwnJn4xpLGDr00e
  type       KSUID
  time       2017-07-14T02:40:00Z (unix 1500000000)
  timestamp  100000000 (seconds since 2014-05-13T16:53:20Z)
  payload    0102030405060708090a0b0c0d0e0f10
  hex        05f5e1000102030405060708090a0b0c0d0e0f10
`},
		{"000000000000000000000000000", `000000000000000000000000000
  type       KSUID
  time       2014-05-13T16:53:20Z (unix 1400000000)
  timestamp  0 (seconds since 2014-05-13T16:53:20Z)
  payload    00000000000000000000000000000000
  hex        0000000000000000000000000000000000000000
`},
		{"aWgEPTl1tmebfsQzFP4bxwgy80V", `aWgEPTl1tmebfsQzFP4bxwgy80V
  type       KSUID
  time       2150-06-19T23:21:35Z (unix 5694967295)
  timestamp  4294967295 (seconds since 2014-05-13T16:53:20Z)
  payload    ffffffffffffffffffffffffffffffff
  hex        ffffffffffffffffffffffffffffffffffffffff
`},
		{"60C468E6101BF215DC9FA835", `60c468e6101bf215dc9fa835
  type       ObjectID
  time       2021-06-12T07:57:26Z (unix 1623484646)
  random     101bf215dc
  counter    10463285 (0x9fa835)
  if legacy  machine 101bf2, pid 5596 (0x15dc), counter 10463285 (the layout of drivers before 2018)
  hex        60c468e6101bf215dc9fa835
`},
	}
	for _, tt := range tests {
		out, errOut, code := sortid(t, "", "inspect", "--hex", tt.id)
		if code != 0 || out != tt.want || errOut != "" {
			t.Errorf("inspect %s: exit %d, stderr %q\n got:\n%s\nwant:\n%s", tt.id, code, errOut, out, tt.want)
		}
	}
}

// TestInspectDatabaseForms reads IDs in the forms databases show: psql's
// \x hex of a bytea, 40 plain hex digits, and base64 as mongosh shows
// BinData. 0qjBBlJIfbVLKwnJn4xpLGDr00e is timestamp 0x05f5e100 and payload
// 0x01..0x10; 60c468e6101bf215dc9fa835 is an ObjectID.
func TestInspectDatabaseForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\x05f5e1000102030405060708090a0b0c0d0e0f10`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`\x05F5E1000102030405060708090A0B0C0D0E0F10`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{"05f5e1000102030405060708090a0b0c0d0e0f10", "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{"BfXhAAECAwQFBgcICQoLDA0ODxA=", "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`\x60c468e6101bf215dc9fa835`, "60c468e6101bf215dc9fa835"},
		{"YMRo5hAb8hXcn6g1", "60c468e6101bf215dc9fa835"},
		// As mongosh prints them, and as the old shell did.
		{`Binary.createFromBase64('BfXhAAECAwQFBgcICQoLDA0ODxA=', 0)`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`Binary.createFromBase64("BfXhAAECAwQFBgcICQoLDA0ODxA=")`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`BinData(0,"BfXhAAECAwQFBgcICQoLDA0ODxA=")`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`HexData(0, "05f5e1000102030405060708090a0b0c0d0e0f10")`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`HexData(0, "60c468e6101bf215dc9fa835")`, "60c468e6101bf215dc9fa835"},
		{`ObjectId('60c468e6101bf215dc9fa835')`, "60c468e6101bf215dc9fa835"},
		{` ObjectId("60c468e6101bf215dc9fa835") `, "60c468e6101bf215dc9fa835"},
		{`BinData(0, "YMRo5hAb8hXcn6g1")`, "60c468e6101bf215dc9fa835"},
		// As Node.js prints them, and copied from a line of a document.
		{`new ObjectId('60c468e6101bf215dc9fa835')`, "60c468e6101bf215dc9fa835"},
		{`new ObjectId("60c468e6101bf215dc9fa835"),`, "60c468e6101bf215dc9fa835"},
		{`ObjectId('60c468e6101bf215dc9fa835'), `, "60c468e6101bf215dc9fa835"},
		{`Binary.createFromBase64("BfXhAAECAwQFBgcICQoLDA0ODxA=", 0),`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`0qjBBlJIfbVLKwnJn4xpLGDr00e,`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		// Extended JSON, version 2 (canonical and relaxed alike) and 1.
		{`{"$oid": "60c468e6101bf215dc9fa835"}`, "60c468e6101bf215dc9fa835"},
		{`{"$oid":"60c468e6101bf215dc9fa835"},`, "60c468e6101bf215dc9fa835"},
		{`{"$binary": {"base64": "BfXhAAECAwQFBgcICQoLDA0ODxA=", "subType": "00"}}`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`{"$binary":{"subType":"0","base64":"YMRo5hAb8hXcn6g1"}}`, "60c468e6101bf215dc9fa835"},
		{`{"$binary": "BfXhAAECAwQFBgcICQoLDA0ODxA=", "$type": "00"}`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
	} {
		out, errOut, code := sortid(t, "", "inspect", "--json", tc.in)
		var info Info
		if err := json.Unmarshal([]byte(out), &info); code != 0 || err != nil || info.ID != tc.want || info.Input != tc.in {
			t.Errorf("inspect %s: exit %d, %+v (%v) %s; want %s", tc.in, code, info, err, errOut, tc.want)
		}
	}
	for _, tc := range []struct{ in, msg string }{
		{`\x05f5e1000102030405060708090a0b0c0d0e0fzz`, `invalid character 'z' at offset 40`},
		{"05f5e1000102030405060708090a0b0c0d0e0fzz", "is not the hex of a KSUID's 20 bytes"},
		{"BfXhAAECAwQFBgcICQoLDA0ODx!=", "is not base64 of a KSUID's 20 bytes or an ObjectID's 12"},
		{`BinData(4, "BfXhAAECAwQFBgcICQoLDA0ODxA=")`, "binary of subtype 4 and 20 bytes; a UUID is 16"},
		{`Binary.createFromBase64("BfXhAAECAwQFBgcICQoLDA0ODxA=", 3)`, "binary subtype 3"},
		{`HexData(0, "05f5e1")`, "6 hex digits; a KSUID is 40, an ObjectID 24 (subtype 0) and a UUID 32 (subtype 4)"},
		{`ObjectId(60c468e6101bf215dc9fa835)`, "argument 1 is not a quoted string or a number"},
		{`BinData("BfXhAAECAwQFBgcICQoLDA0ODxA=")`, `want BinData(0, "<base64>")`},
		{`ObjectId(1, "60c468e6101bf215dc9fa835")`, `want ObjectId("<24 hex digits>")`},
		// Decoded, not told apart by length: base64 of 18 bytes whose 24
		// characters are all hex digits, and a KSUID inside ObjectId().
		{`BinData(0, "0123456789abcdef01234567")`, "base64 of 18 bytes; a KSUID is 20 bytes and an ObjectID 12"},
		{`Binary.createFromBase64("AAECAwQFBgcICQoLDA0ODxAR", 0)`, "base64 of 18 bytes"},
		{`BinData(0, "BfXhAAECAwQFBgcICQoLDA0ODx!=")`, "not base64"},
		{`ObjectId("0qjBBlJIfbVLKwnJn4xpLGDr00e")`, "ObjectId() holds 24 hex digits"},
		{`ObjectId("60c468e6101bf215dc9fa83g")`, "ObjectId() holds 24 hex digits"},
		{`new Date(1500000000)`, `not a form sortid reads; it reads ObjectId("<24 hex digits>")`},
		{`{"_id": {"$oid": "60c468e6101bf215dc9fa835"}}`, `not an ObjectId or binary; want {"$oid": "<24 hex digits>"}`},
		{`{"$oid": "60c468e6101bf215dc9fa83"}`, "$oid holds 24 hex digits"},
		{`{"$oid": 7}`, "$oid is not a string"},
		{`{"$binary": {"base64": "BfXhAAECAwQFBgcICQoLDA0ODxA=", "subType": "04"}}`, "binary of subtype 4 and 20 bytes; a UUID is 16"},
		{`{"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODxAR", "subType": "00"}}`, "base64 of 18 bytes"},
		{`{"$binary": "BfXhAAECAwQFBgcICQoLDA0ODxA="}`, `$binary is not {"base64": …, "subType": …}`},
		{`{"$oid": "60c468e6101bf215dc9fa835"`, "not JSON"},
	} {
		out, errOut, code := sortid(t, "", "inspect", tc.in)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, strings.ReplaceAll(tc.in[:10], `"`, `\"`)) {
			t.Errorf("inspect %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.in, code, out, errOut, tc.msg)
		}
	}
}

func TestInspectJSONAndStdin(t *testing.T) {
	out, _, code := sortid(t, "0qjBBlJIfbVLKwnJn4xpLGDr00e\n\n60c468e6101bf215dc9fa835\n", "inspect", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines of JSON, want 2:\n%s", len(lines), out)
	}
	var k, o Info
	json.Unmarshal([]byte(lines[0]), &k)
	json.Unmarshal([]byte(lines[1]), &o)
	if k.Type != "ksuid" || k.Time != "2017-07-14T02:40:00Z" || k.Unix != 1500000000 || k.Payload != "0102030405060708090a0b0c0d0e0f10" {
		t.Errorf("KSUID JSON: %s", lines[0])
	}
	if o.Type != "objectid" || o.Legacy == nil || o.Legacy.Machine != "101bf2" || o.Legacy.PID != 0x15dc || *o.Counter != 0x9fa835 {
		t.Errorf("ObjectID JSON: %s", lines[1])
	}
}

func TestInspectBadIDs(t *testing.T) {
	out, errOut, code := sortid(t, "", "inspect", "0qjBBlJIfbVLK-nJn4xpLGDr00e", "0qjBBlJIfbVLKwnJn4xpLGDr00e", "xyz", "60c468e6101bf215dc9fa83g")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.HasPrefix(out, "0qjBBlJIfbVLKwnJn4xpLGDr00e\n  type       KSUID") {
		t.Errorf("the good ID was not decoded:\n%s", out)
	}
	for _, want := range []string{
		`"0qjBBlJIfbVLK-nJn4xpLGDr00e": invalid character '-' at offset 13`,
		`"xyz" is not an ID`,
		`"60c468e6101bf215dc9fa83g": invalid character 'g' at offset 23`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestGenerate(t *testing.T) {
	before := time.Now().Truncate(time.Second)
	out, _, code := sortid(t, "", "-n", "20000")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 20000 {
		t.Fatalf("%d lines, want 20000", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		id, err := ksuid.Parse(l)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if seen[l] {
			t.Fatalf("duplicate %s", l)
		}
		seen[l] = true
		if id.Time().Before(before) || id.Time().After(time.Now()) {
			t.Fatalf("%s made at %v, not now", l, id.Time())
		}
	}

	out, _, _ = sortid(t, "", "--monotonic", "-n", "1000", "--time", "2024-05-01T12:00:00Z")
	lines = strings.Fields(out)
	for i, l := range lines {
		id := ksuid.MustParse(l)
		if id.Time().Format(time.RFC3339) != "2024-05-01T12:00:00Z" {
			t.Fatalf("%s at %v", l, id.Time())
		}
		if i > 0 && l <= lines[i-1] {
			t.Fatalf("--monotonic: %s after %s", l, lines[i-1])
		}
	}

	out, _, _ = sortid(t, "", "-t", "objectid", "-n", "3", "--time", "1623484646")
	for _, l := range strings.Fields(out) {
		if id, err := objectid.Parse(l); err != nil || id.Timestamp() != 1623484646 {
			t.Errorf("ObjectID %s, %v", l, err)
		}
	}

	out, _, _ = sortid(t, "", "--json", "-n", "2", "-t", "objectid")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct{ Type, ID string }
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Type != "objectid" || len(v.ID) != 24 {
			t.Errorf("--json line %q: %+v, %v", l, v, err)
		}
	}
	if out, _, code := sortid(t, "", "-n", "0"); code != 0 || out != "" {
		t.Errorf("-n 0: exit %d, output %q", code, out)
	}
}

func TestRange(t *testing.T) {
	out, _, code := sortid(t, "", "range", "2026-11-30T00:00:00Z", "2026-11-30T23:59:59Z")
	// Computed by hand with base62 arithmetic: 2026-11-30T00:00:00Z is
	// KSUID timestamp 395996800 (Unix 1795996800), 0x179a6e80.
	want := "3Mnqhiv0Q0UYFGD3D9qkgA030zI\n3MqfpNUxdljkx0pIXdFzqLnabdf\n"
	if code != 0 || out != want {
		t.Errorf("range: exit %d\n got %q\nwant %q", code, out, want)
	}
	// The same bounds as psql shows a bytea: the timestamps 0x179a6e80 and
	// 0x179bbfff (2026-11-30T23:59:59Z, from date(1)).
	out, _, code = sortid(t, "", "range", "--hex", "2026-11-30T00:00:00Z", "2026-11-30T23:59:59Z")
	want = `\x179a6e80` + strings.Repeat("00", 16) + "\n" + `\x179bbfff` + strings.Repeat("ff", 16) + "\n"
	if code != 0 || out != want {
		t.Errorf("range --hex: exit %d\n got %q\nwant %q", code, out, want)
	}
	// A bare date as the end is the whole day: the same bounds as above.
	out, _, code = sortid(t, "", "range", "2026-11-30", "2026-11-30")
	if want := "3Mnqhiv0Q0UYFGD3D9qkgA030zI\n3MqfpNUxdljkx0pIXdFzqLnabdf\n"; code != 0 || out != want {
		t.Errorf("range of a bare date: exit %d\n got %q\nwant %q", code, out, want)
	}
	// Times relative to now; -1h would look like a flag to package flag.
	before := time.Now().Truncate(time.Second)
	out, errOut, code := sortid(t, "", "range", "-t", "objectid", "--json", "-1h", "now")
	var rel Bounds
	if err := json.Unmarshal([]byte(out), &rel); code != 0 || err != nil {
		t.Fatalf("range -1h now: exit %d, %v, %s", code, err, errOut)
	}
	lo, hi := objectid.MustParse(rel.Min), objectid.MustParse(rel.Max)
	if d := before.Add(-time.Hour).Sub(lo.Time()); d < 0 || d > 2*time.Second {
		t.Errorf("range -1h now starts at %v, want about %v", lo.Time(), before.Add(-time.Hour))
	}
	if d := hi.Time().Sub(before); d < 0 || d > 2*time.Second {
		t.Errorf("range -1h now ends at %v, want about %v", hi.Time(), before)
	}
	// The flag package's other spellings: --t, -t=, and -- before times.
	for _, args := range [][]string{{"--t", "objectid", "1623484646", "1623484646"}, {"-t=objectid", "--", "1623484646", "1623484646"}} {
		out, errOut, code := sortid(t, "", append([]string{"range"}, args...)...)
		if want := "60c468e60000000000000000\n60c468e6ffffffffffffffff\n"; code != 0 || out != want {
			t.Errorf("range %v: exit %d, %q %s; want %q", args, code, out, errOut, want)
		}
	}
	out, _, _ = sortid(t, "", "range", "-t", "objectid", "--json", "1623484646", "1623484646")
	var b Bounds
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Min != "60c468e60000000000000000" || b.Max != "60c468e6ffffffffffffffff" {
		t.Errorf("range --json: %+v, %v", b, err)
	}
}

// TestSQL checks what `sortid sql` prints by its landmarks; the script
// itself is tested on PostgreSQL in containers_test.
func TestSQL(t *testing.T) {
	out, _, code := sortid(t, "", "sql")
	if code != 0 || !strings.HasPrefix(out, "-- sortid for PostgreSQL") ||
		!strings.Contains(out, "\tCREATE DOMAIN ksuid AS text COLLATE \"C\"\n") || !strings.Contains(out, `CHECK (octet_length(VALUE) = 27 AND VALUE COLLATE "C" !~ '[^0-9A-Za-z]'`) ||
		!strings.Contains(out, "CREATE OR REPLACE FUNCTION ksuid_generate() RETURNS ksuid") || !strings.HasSuffix(out, "COMMIT;\n") {
		t.Errorf("sql: exit %d, script:\n%s", code, out)
	}
	out, _, code = sortid(t, "", "sql", "--schema", "ids")
	if code != 0 || !strings.Contains(out, `CREATE SCHEMA IF NOT EXISTS "ids";`) ||
		!strings.Contains(out, `CREATE OR REPLACE FUNCTION "ids".ksuid_to_text(id "ids".ksuid) RETURNS text`) {
		t.Errorf("sql --schema ids: exit %d, script:\n%s", code, out)
	}
	all, _, _ := sortid(t, "", "sql")
	for _, args := range [][]string{{"all"}, {"uuidv7", "objectid", "ksuid"}, {"ksuid", "all"}} {
		if out, _, code := sortid(t, "", append([]string{"sql"}, args...)...); code != 0 || out != all {
			t.Errorf("sql %v: exit %d, not the whole script", args, code)
		}
	}
	out, _, code = sortid(t, "", "sql", "--schema", "ids", "uuidv7")
	if code != 0 || !strings.Contains(out, `"ids".uuidv7_generate() RETURNS uuid`) || !strings.Contains(out, `"ids".uuidv7_max_at(`) ||
		strings.Contains(out, "CREATE DOMAIN") || strings.Contains(out, "ksuid_generate") || strings.Contains(out, "objectid_to_text") || !strings.HasSuffix(out, "COMMIT;\n") {
		t.Errorf("sql --schema ids uuidv7: exit %d, script:\n%s", code, out)
	}
	out, _, code = sortid(t, "", "sql", "objectid")
	if code != 0 || !strings.Contains(out, "CREATE DOMAIN objectid AS text") || strings.Contains(out, "CREATE DOMAIN ksuid") || strings.Contains(out, "uuidv7_generate") {
		t.Errorf("sql objectid: exit %d, script:\n%s", code, out)
	}
	_, errOut, _ := sortid(t, "", "sql", "-h")
	for _, part := range []string{"ksuid", "objectid", "uuidv7", "uuidv7_min_at", "DEFAULT uuidv7()"} {
		if !strings.Contains(errOut, part) {
			t.Errorf("sql -h does not mention %s:\n%s", part, errOut)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-x"}, 2, "flag provided but not defined"},
		{[]string{"-n", "-1"}, 2, "-n must not be negative"},
		{[]string{"-t", "uuid"}, 2, `unknown ID type "uuid"`},
		{[]string{"--time", "yesterday"}, 2, `cannot read time "yesterday"`},
		{[]string{"--time", "1900-01-01T00:00:00Z"}, 2, "ksuid: time 1900-01-01T00:00:00Z outside"},
		{[]string{"-t", "objectid", "--monotonic"}, 2, "--monotonic applies to KSUIDs"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"range", "2024-01-01T00:00:00Z"}, 2, "range takes two times"},
		{[]string{"range", "2024-02-01T00:00:00Z", "2024-01-01T00:00:00Z"}, 1, "ends (2024-01-01T00:00:00Z) before it starts"},
		{[]string{"range", "1000", "2000"}, 1, "ksuid: time 1970-01-01T00:16:40Z outside"},
		{[]string{"sql", "--schema", "My-IDs"}, 2, `schema "My-IDs": invalid schema name`},
		{[]string{"sql", "public"}, 2, `ID type "public": unknown ID type (want ksuid, objectid or uuidv7)`},
		{[]string{"sql", "uuidv7", "UUIDv7"}, 2, `ID type "UUIDv7": unknown ID type`},
	} {
		out, errOut, code := sortid(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) || out != "" {
			t.Errorf("sortid %v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.msg)
		}
	}
	_, errOut, code := sortid(t, "", "-h")
	if code != 0 || !strings.Contains(errOut, "Examples:") {
		t.Errorf("-h: exit %d, help %q", code, errOut)
	}
	for _, sub := range []string{"inspect", "range", "serve", "sql"} {
		_, errOut, code := sortid(t, "", sub, "-h")
		if code != 0 || !strings.HasPrefix(errOut, "Usage: sortid "+sub) || strings.Contains(errOut, "Examples:") || !strings.Contains(errOut, "Flags:") {
			t.Errorf("%s -h: exit %d, help %q; want that subcommand's usage and flags", sub, code, errOut)
		}
	}
	out, _, code := sortid(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "sortid ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestRangeHalfOpen: --half-open prints MinAt of both ends, so the day
// after 2026-11-30 starts exactly where that day ends (3Mqf…dbdf above is
// 2026-11-30's largest KSUID; 3Mqf…dbdg, one more, is 2026-12-01's
// smallest, computed by hand: KSUID timestamp 0x179bc000 and 16 zero
// bytes).
func TestRangeHalfOpen(t *testing.T) {
	day1 := "3Mnqhiv0Q0UYFGD3D9qkgA030zI\n3MqfpNUxdljkx0pIXdFzqLnabdg\n"
	for _, args := range [][]string{
		{"--half-open", "2026-11-30", "2026-11-30"},
		{"--half-open", "2026-11-30T00:00:00Z", "2026-12-01T00:00:00Z"},
		{"--half-open", "2026-11-30T00:00:00.9Z", "2026-12-01T00:00:00.5Z"}, // truncated to the second
	} {
		if out, errOut, code := sortid(t, "", append([]string{"range"}, args...)...); code != 0 || out != day1 {
			t.Errorf("range %v: exit %d %s\n got %q\nwant %q", args, code, errOut, out, day1)
		}
	}
	// A date as TO is the whole day, which ksuid_min_at('2026-12-01') in
	// SQL is not: the command says what it covers, on stderr.
	for _, tc := range []struct{ args, says string }{
		{"--half-open 2026-11-30 2026-12-01", "sortid: range: from 2026-11-30T00:00:00Z up to, not including, 2026-12-02T00:00:00Z (a date as TO is the whole day)\n"},
		{"2026-11-30 2026-12-01", "sortid: range: from 2026-11-30T00:00:00Z through the end of 2026-12-01 (a date as TO is the whole day)\n"},
		{"--half-open 2026-11-30 2026-12-01T00:00:00Z", ""},
	} {
		if _, errOut, code := sortid(t, "", append([]string{"range"}, strings.Fields(tc.args)...)...); code != 0 || errOut != tc.says {
			t.Errorf("range %s: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.says)
		}
	}
	out, _, _ := sortid(t, "", "range", "--half-open", "2026-12-01", "2026-12-01")
	if !strings.HasPrefix(out, "3MqfpNUxdljkx0pIXdFzqLnabdg\n") {
		t.Errorf("the next day starts at %q, want where 2026-11-30 ends", out)
	}
	out, _, _ = sortid(t, "", "range", "--half-open", "--hex", "2026-11-30", "2026-11-30")
	if want := `\x179a6e80` + strings.Repeat("00", 16) + "\n" + `\x179bc000` + strings.Repeat("00", 16) + "\n"; out != want {
		t.Errorf("range --half-open --hex:\n got %q\nwant %q", out, want)
	}
	// UUIDv7 to the millisecond: 2026-12-01 is 0x01a22ee6b000 ms.
	out, _, _ = sortid(t, "", "range", "-t", "uuidv7", "--half-open", "--json", "2026-12-01T00:00:00.0005Z", "2026-12-01T00:00:00.0015Z")
	var b Bounds
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Min != "01a22ee6-b000-7000-8000-000000000000" ||
		b.Before != "01a22ee6-b001-7000-8000-000000000000" || b.Max != "" {
		t.Errorf("range -t uuidv7 --half-open --json: %s (%v)", out, err)
	}
	out, _, _ = sortid(t, "", "range", "-t", "objectid", "--half-open", "--mongo", "1623484646", "1623484647")
	if want := `{"_id": {$gte: ObjectId("60c468e60000000000000000"), $lt: ObjectId("60c468e70000000000000000")}}` + "\n"; out != want {
		t.Errorf("range --half-open --mongo:\n got %q\nwant %q", out, want)
	}
	if out, errOut, code := sortid(t, "", "range", "--half-open", "1623484646", "1623484646"); code != 1 || out != "" || !strings.Contains(errOut, "holds no time") {
		t.Errorf("an empty half-open window: exit %d, %q %q", code, out, errOut)
	}
}

// TestRangeMongo: 2024-05-01 is Unix 1714521600, 314521600 (0x12bf3800)
// seconds after the KSUID epoch; its last second 0x12c0897f.
func TestRangeMongo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"range", "--mongo", "--field", "order_id", "2024-05-01", "2024-05-01"},
			`{$or: [{"order_id": {$gte: HexData(0, "12bf3800` + strings.Repeat("00", 16) + `"), $lte: HexData(0, "12c0897f` + strings.Repeat("ff", 16) + `")}}, ` +
				`{"order_id": {$gte: "2fqHHW3G6QEInETsnst6ghU8YiG", $lte: "2ft6PAdDKBTVUz688MILqtHg9Md"}}]}` + "\n"},
		{[]string{"range", "-t", "objectid", "--mongo", "2024-05-01", "2024-05-01"},
			`{"_id": {$gte: ObjectId("663186000000000000000000"), $lte: ObjectId("6632d77fffffffffffffffff")}}` + "\n"},
	} {
		out, errOut, code := sortid(t, "", tc.args...)
		if code != 0 || out != tc.want {
			t.Errorf("%v: exit %d, %q %s\nwant %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if _, errOut, code := sortid(t, "", "range", "--mongo", "--json", "2024-05-01", "2024-05-01"); code != 2 || !strings.Contains(errOut, "does not go with --hex or --json") {
		t.Errorf("--mongo --json: exit %d, %s", code, errOut)
	}
}
