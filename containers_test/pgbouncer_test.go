package containers

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// TestPgBouncerModes: lookups by KSUID through PgBouncer in transaction
// pooling from a pool of more connections than PgBouncer has server
// connections. Through 1.18 (Debian bookworm's), in pgx's default mode
// (QueryExecModeCacheStatement) each connection prepares its statements on
// whichever server connection it has at the time, and later runs them on
// another: PostgreSQL answers `prepared statement "stmtcache_…" does not
// exist` (or "already exists"). The test asserts that this happens,
// loudly, and that no lookup returns other rows; that QueryExecModeExec
// and the simple protocol, the docs' advice for such a PgBouncer, answer
// every lookup right with sqltype.AfterConnect and without a hook; and that through
// 1.26 (Debian sid's), whose max_prepared_statements (1.21 and later, on
// by default since 1.22) keeps prepared statements across server
// connections, pgx's default mode answers every lookup right.
func TestPgBouncerModes(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := pgTable(t, ctx, servers.pg, "id ksuid PRIMARY KEY")
	ids := make([]ksuid.KSUID, 40)
	rows := make([][]any, len(ids))
	for i := range ids {
		ids[i] = ksuid.New()
		rows[i] = []any{ids[i].String()}
	}
	if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	// Several statements, each run many times by every connection.
	queries := []string{
		"SELECT id::text FROM " + table + " WHERE id = $1",
		"SELECT id::text FROM " + table + " WHERE id = ANY($1)",
		"SELECT id::text FROM " + table + " WHERE id >= $1 AND id <= $1",
	}
	run := func(t *testing.T, bouncer *pgx.ConnConfig, mode pgx.QueryExecMode, hook func(context.Context, *pgx.Conn) error) (correct, loud, wrong int, errs map[string]int) {
		cfg, err := pgxpool.ParseConfig("")
		if err != nil {
			t.Fatal(err)
		}
		cfg.ConnConfig = bouncer.Copy()
		cfg.ConnConfig.DefaultQueryExecMode = mode
		cfg.MaxConns, cfg.MinConns = 4*bouncerServerConns, 4*bouncerServerConns
		cfg.AfterConnect = hook
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		errs = make(map[string]int)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range int(cfg.MaxConns) {
			wg.Go(func() {
				for i := range 60 {
					id := ids[(w*7+i)%len(ids)]
					q := queries[i%len(queries)]
					var arg any = id
					switch {
					case strings.Contains(q, "ANY") && hook == nil:
						arg = []string{id.String()} // pgx alone cannot encode []ksuid.KSUID untyped
					case strings.Contains(q, "ANY"):
						arg = []ksuid.KSUID{id}
					}
					got, err := func() ([]string, error) {
						r, err := pool.Query(ctx, q, arg)
						if err != nil {
							return nil, err
						}
						return pgx.CollectRows(r, pgx.RowTo[string])
					}()
					mu.Lock()
					switch {
					case err != nil:
						loud++
						msg := err.Error()
						if i := strings.Index(msg, "stmtcache_"); i >= 0 {
							msg = msg[:i] + "stmtcache_…" + msg[strings.IndexByte(msg[i:], '"')+i:]
						}
						errs[msg]++
					case len(got) == 1 && got[0] == id.String():
						correct++
					default:
						wrong++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return correct, loud, wrong, errs
	}
	const lookups = 4 * bouncerServerConns * 60
	t.Run("1.26 default mode", func(t *testing.T) {
		if servers.bouncer126Config == nil {
			t.Skip("PgBouncer 1.26 runs in the PostgreSQL 18 container, and SORTID_TEST_POSTGRES_URL names a server without one")
		}
		correct, loud, wrong, errs := run(t, servers.bouncer126Config, pgx.QueryExecModeCacheStatement, sqltype.AfterConnect)
		if loud != 0 || wrong != 0 || correct != lookups {
			t.Errorf("%d correct, %d errors, %d wrong; want all %d correct; errors: %v", correct, loud, wrong, lookups, errs)
		}
	})
	t.Run("1.18 default mode", func(t *testing.T) {
		correct, loud, wrong, errs := run(t, servers.bouncerConfig, pgx.QueryExecModeCacheStatement, sqltype.AfterConnect)
		t.Logf("%d correct, %d errors, %d wrong; errors: %v", correct, loud, wrong, errs)
		if wrong != 0 {
			t.Errorf("%d lookups returned other rows", wrong)
		}
		stmtErrors := 0
		for msg, n := range errs {
			if strings.Contains(msg, `prepared statement "stmtcache_…" does not exist`) || strings.Contains(msg, `prepared statement "stmtcache_…" already exists`) {
				stmtErrors += n
			}
		}
		if stmtErrors == 0 {
			t.Errorf("no prepared-statement error in pgx's default mode through PgBouncer in transaction pooling; the docs say there are (errors: %v)", errs)
		}
	})
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		for _, hook := range []struct {
			name string
			fn   func(context.Context, *pgx.Conn) error
		}{{"AfterConnect", sqltype.AfterConnect}, {"no hook", nil}} {
			t.Run(fmt.Sprint("1.18 ", mode, " ", hook.name), func(t *testing.T) {
				correct, loud, wrong, errs := run(t, servers.bouncerConfig, mode, hook.fn)
				if loud != 0 || wrong != 0 || correct != lookups {
					t.Errorf("%d correct, %d errors, %d wrong; want all %d correct; errors: %v", correct, loud, wrong, lookups, errs)
				}
			})
		}
	}
}
