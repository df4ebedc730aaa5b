package containers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/network"
)

// citusCluster is a Citus 14 cluster of three PostgreSQL 18 servers on a
// Docker network of their own: a coordinator and two workers, each with
// shared_preload_libraries=citus and the sortid extension's files. The
// tests reach the coordinator; the nodes reach each other by name.
type citusCluster struct {
	image, version string
	url            string        // the coordinator's database "sortid", from this host
	pool           *pgxpool.Pool // on url, with sqltype.AfterConnect
	workers        []*pgxpool.Pool
	nodeURLs       []string // each node's database "sortid", from this host; the coordinator's first
}

// citusNodes names the nodes on their network; the first is the
// coordinator.
var citusNodes = []string{"coordinator", "worker1", "worker2"}

// startCitus starts the three nodes at once and joins them into one
// cluster: CREATE EXTENSION citus in the database "sortid" on each (Citus
// does not propagate CREATE DATABASE), then the coordinator's host and
// the workers added on the coordinator.
func startCitus(ctx context.Context) (func(), error) {
	image := os.Getenv("SORTID_TEST_CITUS_IMAGE")
	if image == "" {
		return func() {}, errors.New("no Citus image: scripts/testenv.sh builds it and names it in SORTID_TEST_CITUS_IMAGE")
	}
	servers.citus.image = image
	nw, err := network.New(ctx)
	if err != nil {
		return func() {}, fmt.Errorf("a Docker network for the Citus cluster: %w", err)
	}
	var (
		mu       sync.Mutex
		stoppers []func()
		errs     []error
		urls     = make([]string, len(citusNodes))
		wg       sync.WaitGroup
	)
	stop := func() {
		for _, p := range append([]*pgxpool.Pool{servers.citus.pool}, servers.citus.workers...) {
			if p != nil {
				p.Close()
			}
		}
		for _, s := range stoppers {
			s()
		}
		nw.Remove(context.Background())
	}
	for i, name := range citusNodes {
		wg.Go(func() {
			c, err := postgres.Run(ctx, image,
				postgres.WithDatabase("sortid"), postgres.WithUsername("sortid"), postgres.WithPassword("sortid"),
				testcontainers.WithEnv(map[string]string{
					"POSTGRES_INITDB_ARGS": "--locale-provider=icu --icu-locale=en-US",
					// The nodes connect to each other as sortid, with no
					// password: trust on the cluster's own network.
					"POSTGRES_HOST_AUTH_METHOD": "trust",
				}),
				// citus.local_hostname: a node reaches itself by its name
				// on the network, where trust holds, not as localhost
				// (the shard rebalancer does).
				testcontainers.WithCmdArgs("-c", "shared_preload_libraries=citus", "-c", "citus.enable_statistics_collection=off",
					"-c", "max_prepared_transactions=50", "-c", "max_connections=200", "-c", "citus.local_hostname="+name),
				network.WithNetwork([]string{name}, nw),
				postgres.BasicWaitStrategies(), labelled)
			mu.Lock()
			defer mu.Unlock()
			if c != nil {
				stoppers = append(stoppers, terminate(c))
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("starting the Citus node %s: %w", name, err))
				return
			}
			if urls[i], err = c.ConnectionString(ctx, "sslmode=disable"); err != nil {
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return stop, err
	}
	pools := make([]*pgxpool.Pool, len(urls))
	for i, url := range urls {
		if _, pools[i], err = openPool(ctx, url); err != nil {
			return stop, err
		}
		if _, err := pools[i].Exec(ctx, "CREATE EXTENSION citus"); err != nil {
			return stop, fmt.Errorf("CREATE EXTENSION citus on %s: %w", citusNodes[i], err)
		}
	}
	servers.citus.pool, servers.citus.workers, servers.citus.url, servers.citus.nodeURLs = pools[0], pools[1:], urls[0], urls
	coord := pools[0]
	for _, sql := range append(citusJoin(), "CREATE EXTENSION sortid") {
		if _, err := coord.Exec(ctx, sql); err != nil {
			return stop, fmt.Errorf("%s on the Citus coordinator: %w", sql, err)
		}
	}
	// The pools' connections were made before the extension: the hook
	// registers its types per connection.
	for _, p := range pools {
		p.Reset()
	}
	err = coord.QueryRow(ctx, "SELECT 'Citus ' || extversion || ', ' || version() FROM pg_extension WHERE extname = 'citus'").Scan(&servers.citus.version)
	return stop, err
}

// citusJoin is what the coordinator runs to make its database one of the
// cluster's: its own host, then the workers.
func citusJoin() []string {
	out := []string{"SELECT citus_set_coordinator_host('coordinator', 5432)"}
	for _, w := range citusNodes[1:] {
		out = append(out, fmt.Sprintf("SELECT citus_add_node('%s', 5432)", w))
	}
	return out
}

// citusDatabase makes a database of the cluster for t alone, with Citus
// and nothing of sortid: created on every node (Citus does not propagate
// CREATE DATABASE), CREATE EXTENSION citus on each, joined on the
// coordinator. It returns pools on each node's (the coordinator's
// first) and the coordinator's URL, and drops it everywhere when t ends.
func citusDatabase(t *testing.T, ctx context.Context) (pools []*pgxpool.Pool, url string) {
	t.Helper()
	name := "sortid_" + sanitize(t.Name())
	for i, nodeURL := range servers.citus.nodeURLs {
		cfg, err := pgxpool.ParseConfig(nodeURL)
		if err != nil {
			t.Fatal(err)
		}
		admin := servers.citus.pool
		if i > 0 {
			admin = servers.citus.workers[i-1]
		}
		admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
			t.Fatalf("creating %s on %s: %v", name, citusNodes[i], err)
		}
		t.Cleanup(func() { admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
		c := cfg.ConnConfig
		u := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, name)
		_, pool, err := openPool(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if _, err := pool.Exec(ctx, "CREATE EXTENSION citus"); err != nil {
			t.Fatalf("CREATE EXTENSION citus on %s: %v", citusNodes[i], err)
		}
		pools = append(pools, pool)
		if i == 0 {
			url = u
		}
	}
	for _, sql := range citusJoin() {
		if _, err := pools[0].Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return pools, url
}
