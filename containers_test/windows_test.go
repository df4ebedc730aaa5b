package containers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// TestWindowsTile: the documented windows, id >= min_at(since) AND id <
// min_at(until), in SQL on PostgreSQL 18 (the domains' ksuid_min_at and
// objectid_min_at, uuidv7_min_at on uuid), over IDs made around the edges of
// each unit, incl. the smallest and largest ID of each time. Two windows
// that meet at b hold every row of [a, c) once; BETWEEN min_at AND
// max_at, the closed form, counts b's unit twice.
func TestWindowsTile(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	a := time.Now().Add(-time.Hour).Truncate(time.Second)
	// A connection made after the install, with the hook, as an
	// application's.
	conn, err := pgx.ConnectConfig(ctx, servers.pgConfig.ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := sqltype.AfterConnect(ctx, conn); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, column, lower, upper string
		unit                       time.Duration
		ids                        func(at time.Time) []any // IDs made at at
		bound                      func(at time.Time) any   // a bound param
		closed                     func(at time.Time) any   // the closed form's upper bound
	}{
		{"KSUID", "ksuid", "ksuid_min_at($%d)", "ksuid_max_at($%d)", time.Second,
			func(at time.Time) []any {
				return []any{must(ksuid.NewAt(at)), must(ksuid.MinAt(at)), must(ksuid.MaxAt(at))}
			},
			func(at time.Time) any { return at }, func(at time.Time) any { return at }},
		{"UUIDv7", "uuid", "uuidv7_min_at($%d)", "uuidv7_max_at($%d)", time.Millisecond,
			func(at time.Time) []any {
				return []any{must(uuidv7.NewAt(at)), must(uuidv7.MinAt(at)), must(uuidv7.MaxAt(at))}
			},
			func(at time.Time) any { return at }, func(at time.Time) any { return at }},
		{"ObjectID", "objectid", "objectid_min_at($%d)", "objectid_max_at($%d)", time.Second,
			func(at time.Time) []any {
				return []any{must(objectid.NewAt(at)), must(objectid.MinAt(at)), must(objectid.MaxAt(at))}
			},
			func(at time.Time) any { return at }, func(at time.Time) any { return at }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, "id "+tc.column+" NOT NULL") // MinAt and MaxAt repeat within a unit
			unit := tc.unit
			b := a.Add(3*unit + unit/2) // mid-unit: truncated to its unit
			c := b.Add(2 * unit)
			want := map[string]int{}
			var rows [][]any
			for at := a.Add(-2 * unit); at.Before(c.Add(2 * unit)); at = at.Add(unit / 4) {
				u := at.Truncate(unit)
				for _, id := range tc.ids(at) {
					rows = append(rows, []any{id})
					switch {
					case !u.Before(a) && u.Before(b.Truncate(unit)):
						want["[a, b)"]++
					case !u.Before(b.Truncate(unit)) && u.Before(c.Truncate(unit)):
						want["[b, c)"]++
					}
				}
			}
			if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
				t.Fatal(err)
			}
			count := func(where string, args ...any) int {
				t.Helper()
				var n int
				if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE "+where, args...).Scan(&n); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				return n
			}
			halfOpen := fmt.Sprintf("id >= "+tc.lower+" AND id < "+tc.lower, 1, 2)
			got := map[string]int{
				"[a, b)": count(halfOpen, tc.bound(a), tc.bound(b)),
				"[b, c)": count(halfOpen, tc.bound(b), tc.bound(c)),
			}
			if got["[a, b)"] != want["[a, b)"] || got["[b, c)"] != want["[b, c)"] || want["[a, b)"] == 0 || want["[b, c)"] == 0 {
				t.Errorf("half-open windows hold %v rows, want %v", got, want)
			}
			both := fmt.Sprintf("id >= "+tc.lower+" AND id < "+tc.lower+" AND id >= "+tc.lower+" AND id < "+tc.lower, 1, 2, 2, 3)
			if n := count(both, tc.bound(a), tc.bound(b), tc.bound(c)); n != 0 {
				t.Errorf("%d rows in both half-open windows", n)
			}
			// The closed form counts b's unit in both windows: why the docs
			// say half-open.
			closedBoth := fmt.Sprintf("id BETWEEN "+tc.lower+" AND "+tc.upper+" AND id BETWEEN "+tc.lower+" AND "+tc.upper, 1, 2, 3, 4)
			if n := count(closedBoth, tc.bound(a), tc.closed(b), tc.bound(b), tc.closed(c)); n == 0 {
				t.Errorf("no row in both closed windows; the docs' reason for half-open windows is wrong")
			}
		})
	}
}
