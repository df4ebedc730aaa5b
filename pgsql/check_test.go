package pgsql_test

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/pgsql"
)

// TestCheckClassifies: Check tells a column's IDs by its sample, every
// value one form, and reports each with the fix for its form; it leaves
// mixed samples, 20-byte hashes (implausible times), empty samples and
// right columns alone; and a result that is not CheckQuery's is an error.
func TestCheckClassifies(t *testing.T) {
	now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	k1, k2 := ksuid.New(), ksuid.New()
	var hashes []string
	for i := range 20 {
		h := sha1.Sum([]byte{byte(i)})
		hashes = append(hashes, fmt.Sprintf("%q", hex.EncodeToString(h[:])))
	}
	col := func(name, base, collation string, bytewise bool, sample ...string) string {
		return fmt.Sprintf(`{"schema":"public","table":"order","column":%q,"type":%q,"typname":%q,"base":%q,"collation":%q,"bytewise":%v,"readable":true,"sample":[%s]}`,
			name, base, base, base, collation, bytewise, strings.Join(sample, ","))
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	result := "[" + strings.Join([]string{
		col("icu", "varchar", "default (en-US)", false, q(k1.String()), q(k2.String())),
		col("c", "text", "C", true, q(k1.String())),
		col("mixed", "text", "default (en-US)", false, q(k1.String()), q("not an ID")),
		col("raw", "bytea", "", true, q(hex.EncodeToString(k1.Bytes()))),
		col("hashes", "bytea", "", true, hashes...),
		col("empty", "varchar", "default (en-US)", false),
	}, ",") + "]"
	findings, columns, err := pgsql.Check([]byte(result), now)
	if err != nil || columns != 6 {
		t.Fatalf("Check: %d columns, %v", columns, err)
	}
	if len(findings) != 2 {
		t.Fatalf("%d findings; want icu and raw: %v", len(findings), findings)
	}
	icu, raw := findings[0], findings[1]
	if icu.Table != "public.order" || icu.Column != "icu" || !icu.Silent || icu.Holds != "KSUID text" ||
		!strings.Contains(icu.Fixes[0], `CREATE INDEX CONCURRENTLY ON "public"."order" (("icu" COLLATE "C"))`) {
		t.Errorf("the ICU column: %+v", icu)
	}
	if !raw.Silent || raw.Holds != "KSUID raw bytes" || !strings.Contains(raw.Fixes[0], `USING bytea_to_ksuid("raw")`) {
		t.Errorf("the bytea column: %+v", raw)
	}
	for _, bad := range []string{"", "{}", "[{", `[{"sample": 3}]`} {
		if _, _, err := pgsql.Check([]byte(bad), now); !errors.Is(err, pgsql.ErrCheckResult) {
			t.Errorf("Check(%q): %v; want ErrCheckResult", bad, err)
		}
	}
}

// TestCheckCitusDistribution: a table Citus distributes by sortid sql's
// domain is silent (lookups by the key find nothing); by the extension's
// type, by uuid, or a domain column that is not the distribution column,
// it is not.
func TestCheckCitusDistribution(t *testing.T) {
	col := func(name, typname, base, distribution string) string {
		return fmt.Sprintf(`{"schema":"public","table":"orders","column":%q,"type":%q,"typname":%q,"base":%q,"collation":"","bytewise":true,"readable":true,"distribution":%q,"sample":[]}`,
			name, typname, typname, base, distribution)
	}
	result := "[" + strings.Join([]string{
		col("domain_key", "ksuid", "text", "h"),
		col("objectid_key", "objectid", "text", "h"),
		col("extension_key", "ksuid", "ksuid", "h"),
		col("uuid_key", "uuid", "uuid", "h"),
		col("domain_column", "ksuid", "text", ""),
	}, ",") + "]"
	findings, _, err := pgsql.Check([]byte(result), time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) != 2 {
		t.Fatalf("%d findings, want the two domain keys: %v", len(findings), findings)
	}
	for i, want := range []string{"KSUID", "ObjectID"} {
		f := findings[i]
		if !f.Silent || f.Holds != want+" text (sortid sql's domain)" || !strings.Contains(f.Problem, "Citus") ||
			len(f.Fixes) != 1 || !strings.Contains(f.Fixes[0], `undistribute_table('"public"."orders"')`) {
			t.Errorf("finding %d: %+v", i, f)
		}
	}
}
