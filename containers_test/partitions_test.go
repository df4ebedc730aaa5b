package containers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// partitionNow is the "now" of the partition tests: the partitions run
// from partitionNow's period Back before to Ahead after.
var partitionNow = time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC)

// partitionKinds are the ID types a table can be partitioned by: the
// column type, its default, and what makes an ID of a given time.
var partitionKinds = []struct {
	idType, column string
	newAt          func(time.Time) (any, error)
}{
	{"ksuid", "ksuid NOT NULL DEFAULT ksuid_generate()", func(t time.Time) (any, error) { return ksuid.NewAt(t) }},
	{"objectid", "objectid NOT NULL", func(t time.Time) (any, error) { return objectid.NewAt(t) }},
	{"uuidv7", "uuid NOT NULL DEFAULT uuidv7_generate()", func(t time.Time) (any, error) { return uuidv7.NewAt(t) }},
}

// partitionedTable creates a table partitioned by range on its ID for t
// alone, and drops it (with its partitions) when t ends.
func partitionedTable(t *testing.T, ctx context.Context, column string) string {
	t.Helper()
	name := strings.ToLower(fmt.Sprintf("%s_%d", sanitize(t.Name()), tableSeq.Add(1)))
	if len(name) > 40 {
		name = "t" + strings.TrimLeft(name[len(name)-40:], "_0123456789")
	}
	if _, err := servers.pg.Exec(ctx, "CREATE TABLE "+name+" (id "+column+", n int NOT NULL DEFAULT 0) PARTITION BY RANGE (id)"); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() { servers.pg.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

// partitionOf returns the partition that holds the row with id.
func partitionOf(t *testing.T, ctx context.Context, table string, id any) string {
	t.Helper()
	var part string
	if err := servers.pg.QueryRow(ctx, "SELECT tableoid::regclass::text FROM "+table+" WHERE id = $1", id).Scan(&part); err != nil {
		t.Fatalf("finding %v in %s: %v", id, table, err)
	}
	return part
}

// partitionBounds returns the partitions of table with their bounds as
// PostgreSQL prints them, by name.
func partitionBounds(t *testing.T, ctx context.Context, table string) map[string]string {
	t.Helper()
	rows, err := servers.pg.Query(ctx, `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid)
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, table)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for rows.Next() {
		var name, bound string
		if err := rows.Scan(&name, &bound); err != nil {
			t.Fatal(err)
		}
		out[name] = bound
	}
	return out
}

// TestPartitionsByID creates daily, weekly and monthly partitions of a
// table keyed by each ID type and checks: the names and bounds (each
// period's upper bound is the next one's lower bound), a row at each
// period's first and last instant lands in its own partition, a second
// run changes nothing, a row outside every period fails without a
// DEFAULT partition and lands in it with one, and retention drops the old
// partitions with their rows.
func TestPartitionsByID(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	for _, kind := range partitionKinds {
		for _, period := range []sqltype.Period{sqltype.Day, sqltype.Week, sqltype.Month} {
			t.Run(kind.idType+"/"+period.String(), func(t *testing.T) {
				table := partitionedTable(t, ctx, kind.column)
				spec := sqltype.PartitionSpec{Table: table, IDType: kind.idType, Period: period, Back: 2, Ahead: 3}
				for range 2 { // idempotent
					if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
						t.Fatal(err)
					}
				}
				bounds := partitionBounds(t, ctx, table)
				if len(bounds) != 6 {
					t.Fatalf("%d partitions, want 6: %v", len(bounds), bounds)
				}
				// The periods, worked out here by calendar.
				var starts []time.Time
				for i := -2; i <= 4; i++ {
					switch period {
					case sqltype.Day:
						starts = append(starts, time.Date(2026, 12, 2+i, 0, 0, 0, 0, time.UTC))
					case sqltype.Week: // 2026-11-30 is a Monday
						starts = append(starts, time.Date(2026, 11, 30+7*i, 0, 0, 0, 0, time.UTC))
					case sqltype.Month:
						starts = append(starts, time.Date(2026, time.Month(12+i), 1, 0, 0, 0, 0, time.UTC))
					}
				}
				for i := range 6 {
					lo, hi := starts[i], starts[i+1]
					var name string
					switch period {
					case sqltype.Day:
						name = table + "_p" + lo.Format("20060102")
					case sqltype.Week:
						y, w := lo.ISOWeek()
						name = fmt.Sprintf("%s_p%04dw%02d", table, y, w)
					case sqltype.Month:
						name = table + "_p" + lo.Format("200601")
					}
					if _, ok := bounds[name]; !ok {
						t.Fatalf("no partition %s among %v", name, bounds)
					}
					// A row at the first and at the last instant of the period.
					for _, at := range []time.Time{lo, hi.Add(-time.Millisecond)} {
						id := must(kind.newAt(at))
						if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", id); err != nil {
							t.Fatalf("inserting an ID of %v: %v", at, err)
						}
						if got := partitionOf(t, ctx, table, id); got != name {
							t.Errorf("an ID of %v is in %s, want %s", at, got, name)
						}
					}
				}
				// Outside every period: loud without a DEFAULT partition.
				far := must(kind.newAt(starts[6].AddDate(0, 2, 0)))
				_, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", far)
				if e := (*pgconn.PgError)(nil); !errors.As(err, &e) || e.Code != "23514" {
					t.Fatalf("an ID after every partition: %v; want no partition found (23514)", err)
				}
				spec.Default = true
				if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
					t.Fatal(err)
				}
				if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", far); err != nil {
					t.Fatal(err)
				}
				if got := partitionOf(t, ctx, table, far); got != table+"_default" {
					t.Errorf("an ID after every partition is in %s, want the DEFAULT partition", got)
				}
				// The period of that row cannot get its partition now:
				// the DEFAULT partition holds a row of it.
				later := spec
				later.Back, later.Ahead = 0, 0
				if err := sqltype.Partitions(ctx, servers.pg, later, far.(interface{ Time() time.Time }).Time()); err == nil || !strings.Contains(err.Error(), "default partition") {
					t.Errorf("a partition for a row in the DEFAULT partition: %v; want PostgreSQL's refusal", err)
				}
				// Retention: keep the current period and the one before.
				spec.Retain = 1
				if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
					t.Fatal(err)
				}
				after := partitionBounds(t, ctx, table)
				if len(after) != 6 { // the oldest dropped, DEFAULT added before
					t.Errorf("after retention: %d partitions %v, want the 5 newest and DEFAULT", len(after), after)
				}
				if n := rowCount(t, ctx, table); n != 5*2+1 {
					t.Errorf("after retention the table holds %d rows, want %d", n, 5*2+1)
				}
				for name := range after {
					if name == table+"_default" {
						continue
					}
					if _, kept := bounds[name]; !kept {
						t.Errorf("retention made %s", name)
					}
				}
			})
		}
	}
}

// TestPartitionsRefuse: a table not partitioned by range on an ID
// column, and a table of a partition's name that is not its partition,
// are errors, and nothing is created.
func TestPartitionsRefuse(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	plain := pgTable(t, ctx, servers.pg, "id ksuid PRIMARY KEY")
	err := sqltype.Partitions(ctx, servers.pg, sqltype.PartitionSpec{Table: strings.Trim(plain, `"`), IDType: "ksuid", Period: sqltype.Day}, partitionNow)
	if err == nil || !strings.Contains(err.Error(), "is not partitioned BY RANGE") {
		t.Errorf("a table not partitioned: %v", err)
	}
	table := partitionedTable(t, ctx, "uuid NOT NULL")
	err = sqltype.Partitions(ctx, servers.pg, sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day}, partitionNow)
	if err == nil || !strings.Contains(err.Error(), `a ksuid or objectid column, or text COLLATE "C"`) {
		t.Errorf("a uuid table partitioned as KSUIDs: %v", err)
	}
	squatter := table + "_p20261202"
	if _, err := servers.pg.Exec(ctx, "CREATE TABLE "+squatter+" (id uuid)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { servers.pg.Exec(context.Background(), "DROP TABLE IF EXISTS "+squatter) })
	err = sqltype.Partitions(ctx, servers.pg, sqltype.PartitionSpec{Table: table, IDType: "uuidv7", Period: sqltype.Day, Back: 1, Ahead: 1}, partitionNow)
	if err == nil || !strings.Contains(err.Error(), "is not a partition of") {
		t.Errorf("a table of a partition's name: %v", err)
	}
	if n := len(partitionBounds(t, ctx, table)); n != 0 {
		t.Errorf("after the error the table has %d partitions, want none (one transaction)", n)
	}
	if _, err := sqltype.PartitionsSQL(sqltype.PartitionSpec{Table: table, IDType: "ulid", Period: sqltype.Day}, partitionNow); !errors.Is(err, sqltype.ErrPartitions) {
		t.Errorf("IDType ulid: %v", err)
	}
}

// TestPartitionsThroughPsql pipes `sortid sql partitions` into psql, as
// a cron job does, twice.
func TestPartitionsThroughPsql(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is missing (Debian package postgresql-client; scripts/install-packages.sh installs it)")
	}
	table := partitionedTable(t, ctx, "ksuid NOT NULL DEFAULT ksuid_generate()")
	c := servers.pgConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database)
	for range 2 {
		out, err := exec.CommandContext(ctx, "go", "run", "github.com/sortid/sortid/cmd/sortid", "sql", "partitions",
			"--back", "3", "--ahead", "2", "--default", table).Output()
		if err != nil {
			t.Fatalf("sortid sql partitions: %v", err)
		}
		cmd := exec.CommandContext(ctx, psql, "-q", "-v", "ON_ERROR_STOP=1", url)
		cmd.Stdin = strings.NewReader(string(out))
		if msg, err := cmd.CombinedOutput(); err != nil || len(msg) != 0 {
			t.Fatalf("psql: %v, printed %q", err, msg)
		}
	}
	if n := len(partitionBounds(t, ctx, table)); n != 7 {
		t.Errorf("%d partitions, want 3 back, today, 2 ahead and DEFAULT", n)
	}
	// The parent's default makes a KSUID of now, which today's partition holds.
	var part string
	if err := servers.pg.QueryRow(ctx, "INSERT INTO "+table+" DEFAULT VALUES RETURNING tableoid::regclass::text").Scan(&part); err != nil {
		t.Fatal(err)
	}
	if want := table + "_p" + time.Now().UTC().Format("20060102"); part != want {
		t.Errorf("DEFAULT ksuid_generate() row is in %s, want %s", part, want)
	}
}

// explainedPartitions returns the partitions a plan reads, from
// EXPLAIN (FORMAT JSON): the relations of its scans.
func explainedPartitions(plan []byte) (scanned []string, removed int) {
	var doc []struct{ Plan map[string]any }
	if json.Unmarshal(plan, &doc) != nil || len(doc) == 0 {
		return nil, -1
	}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		if rel, ok := n["Relation Name"].(string); ok {
			scanned = append(scanned, rel)
		}
		if r, ok := n["Subplans Removed"].(float64); ok {
			removed += int(r)
		}
		if kids, ok := n["Plans"].([]any); ok {
			for _, k := range kids {
				if m, ok := k.(map[string]any); ok {
					walk(m)
				}
			}
		}
	}
	walk(doc[0].Plan)
	slices.Sort(scanned)
	return slices.Compact(scanned), removed
}

// TestPartitionPruning: on 10 daily partitions, a window of MinAt and
// MaxAt reads only the partitions of its days, with constants at plan
// time and with parameters of a generic plan at run time; id = $1 reads
// one; and keyset pages across a partition boundary come back whole and
// in order.
func TestPartitionPruning(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := partitionedTable(t, ctx, "ksuid NOT NULL")
	if err := sqltype.Partitions(ctx, servers.pg, sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day, Back: 5, Ahead: 4}, partitionNow); err != nil {
		t.Fatal(err)
	}
	// Two rows an hour over the ten days.
	first := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	var rows [][]any
	var ids []ksuid.KSUID
	for at := first; at.Before(first.AddDate(0, 0, 10)); at = at.Add(30 * time.Minute) {
		id := must(ksuid.NewAt(at))
		ids = append(ids, id)
		rows = append(rows, []any{id})
	}
	if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := servers.pg.Exec(ctx, "ANALYZE "+table); err != nil {
		t.Fatal(err)
	}
	day := func(d time.Time) string { return table + "_p" + d.Format("20060102") }
	explain := func(conn *pgx.Conn, sql string, args ...any) ([]string, int) {
		var plan []byte
		if err := conn.QueryRow(ctx, sql, args...).Scan(&plan); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return explainedPartitions(plan)
	}
	conn, err := servers.pg.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	pc := conn.Conn()
	from, to := time.Date(2026, 11, 29, 23, 30, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 29, 59, 0, time.UTC)
	lo, hi := must(ksuid.MinAt(from)), must(ksuid.MaxAt(to))
	want := []string{day(from), day(to)} // the hour straddles midnight
	// Constants: pruned when the plan is made.
	got, _ := explain(pc, fmt.Sprintf("EXPLAIN (FORMAT JSON) SELECT * FROM %s WHERE id BETWEEN '%s' AND '%s'", table, lo, hi))
	if !slices.Equal(got, want) {
		t.Errorf("a window of constants reads %v, want %v", got, want)
	}
	inDay := must(ksuid.MinAt(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	inDayEnd := must(ksuid.MaxAt(time.Date(2026, 12, 1, 12, 59, 59, 0, time.UTC)))
	got, _ = explain(pc, fmt.Sprintf("EXPLAIN (FORMAT JSON) SELECT * FROM %s WHERE id BETWEEN '%s' AND '%s'", table, inDay, inDayEnd))
	if !slices.Equal(got, []string{table + "_p20261201"}) {
		t.Errorf("an hour within one day reads %v", got)
	}
	// Parameters of a generic plan: pruned when it runs.
	if _, err := pc.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	defer pc.Exec(context.Background(), "RESET plan_cache_mode")
	if _, err := pc.Exec(ctx, "PREPARE win(ksuid, ksuid) AS SELECT * FROM "+table+" WHERE id BETWEEN $1 AND $2"); err != nil {
		t.Fatal(err)
	}
	defer pc.Exec(context.Background(), "DEALLOCATE win")
	got, removed := explain(pc, fmt.Sprintf("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE win('%s', '%s')", lo, hi))
	if !slices.Equal(got, want) || removed != 8 {
		t.Errorf("a generic plan's window reads %v (%d subplans removed), want %v and 8 removed", got, removed, want)
	}
	if _, err := pc.Exec(ctx, "PREPARE one(ksuid) AS SELECT * FROM "+table+" WHERE id = $1"); err != nil {
		t.Fatal(err)
	}
	defer pc.Exec(context.Background(), "DEALLOCATE one")
	got, removed = explain(pc, fmt.Sprintf("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE one('%s')", ids[100]))
	if !slices.Equal(got, []string{day(ids[100].Time())}) || removed != 9 {
		t.Errorf("id = $1 reads %v (%d removed), want %s alone", got, removed, day(ids[100].Time()))
	}
	// Keyset pagination through the whole table, 7 rows a page, across
	// every partition boundary: every ID once, in order.
	var paged []ksuid.KSUID
	var after ksuid.KSUID
	for {
		page, err := servers.pg.Query(ctx, "SELECT id FROM "+table+" WHERE id > $1 ORDER BY id LIMIT 7", after)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(page, pgx.RowTo[ksuid.KSUID])
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			break
		}
		paged, after = append(paged, got...), got[len(got)-1]
	}
	if !slices.Equal(paged, ids) {
		t.Errorf("keyset pages gave %d IDs, want the %d in order", len(paged), len(ids))
	}
}

// gormEvent is a model over a table partitioned by its KSUID.
type gormEvent struct {
	ID ksuid.KSUID
	N  int
}

// TestPartitionsWithGORM: with the plugin, AutoMigrate leaves a table
// partitioned by its ID as it is, creates go to the partition of their
// time, and lookups find them.
func TestPartitionsWithGORM(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := partitionedTable(t, ctx, "ksuid NOT NULL")
	if _, err := servers.pg.Exec(ctx, "ALTER TABLE "+table+" ADD PRIMARY KEY (id)"); err != nil {
		t.Fatal(err)
	}
	if err := sqltype.Partitions(ctx, servers.pg, sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day, Back: 2, Ahead: 2}, time.Now()); err != nil {
		t.Fatal(err)
	}
	before := partitionBounds(t, ctx, table)
	// A new session, so that each call starts from the table alone
	// rather than from the conditions of the call before.
	db := openGORMWith(t, gormpostgres.Open(gormDSN(servers.pgConfig.ConnConfig.Database))).Table(table).Session(&gorm.Session{})
	for range 2 {
		if err := db.AutoMigrate(&gormEvent{}); err != nil {
			t.Fatalf("AutoMigrate of a partitioned table: %v", err)
		}
	}
	var strategy string
	if err := servers.pg.QueryRow(ctx, "SELECT partstrat::text FROM pg_partitioned_table WHERE partrelid = $1::regclass", table).Scan(&strategy); err != nil || strategy != "r" {
		t.Fatalf("after AutoMigrate the table is partitioned %q (%v)", strategy, err)
	}
	if after := partitionBounds(t, ctx, table); len(after) != len(before) {
		t.Errorf("AutoMigrate changed the partitions: %v, was %v", after, before)
	}
	events := make([]gormEvent, 50)
	for i := range events {
		events[i].N = i
	}
	if err := db.CreateInBatches(events, 20).Error; err != nil {
		t.Fatal(err)
	}
	today := table + "_p" + time.Now().UTC().Format("20060102")
	for _, e := range []gormEvent{events[0], events[49]} {
		if got := partitionOf(t, ctx, table, e.ID); got != today && got != table+"_p"+e.ID.Time().UTC().Format("20060102") {
			t.Errorf("event %d (%v) is in %s", e.N, e.ID, got)
		}
		var back gormEvent
		if err := db.First(&back, "id = ?", e.ID).Error; err != nil || back != e {
			t.Errorf("reading event %d back: %+v, %v", e.N, back, err)
		}
	}
	var n int64
	lo, hi := must(ksuid.MinAt(events[0].ID.Time())), must(ksuid.MaxAt(events[49].ID.Time()))
	if err := db.Model(&gormEvent{}).Where("id BETWEEN ? AND ?", lo, hi).Count(&n).Error; err != nil || n != 50 {
		t.Errorf("a window over the events: %d, %v", n, err)
	}
}
