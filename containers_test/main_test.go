package containers

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/sqltype"
)

const (
	defaultPostgresImage = "postgres:18"
	defaultMongoImage    = "mongo:8"
)

// servers is what TestMain started, shared by every test in the binary.
var servers struct {
	unavailable string // why the servers could not be had; empty if they run

	pgImage, pgVersion string
	pgConfig           *pgxpool.Config // for the test database
	pg                 *pgxpool.Pool

	mongoImage, mongoVersion string
	mongo                    *mongo.Client   // bsoncodec registry: KSUIDs as binary
	mongoDB                  *mongo.Database // on mongo
	mongoStringDB            *mongo.Database // bsoncodec registry with KSUIDAsString
}

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	flag.Parse()
	if !testing.Verbose() {
		// testcontainers narrates every container step; -v shows it.
		tclog.SetDefault(tclog.NewNoopLogger())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	stop, err := startServers(ctx)
	cancel()
	defer stop()
	if err != nil {
		msg := "integration tests need a Docker engine and the test images (make test runs scripts/testenv.sh to set them up): " + err.Error()
		if os.Getenv("CI") != "" || os.Getenv("SORTID_REQUIRE_INTEGRATION") != "" {
			fmt.Fprintln(os.Stderr, "FAIL:", msg)
			return 1
		}
		servers.unavailable = msg
		fmt.Println("SKIP:", msg)
	} else {
		fmt.Printf("PostgreSQL: image %s, %s\n", servers.pgImage, servers.pgVersion)
		fmt.Printf("MongoDB:    image %s, %s\n", servers.mongoImage, servers.mongoVersion)
	}
	return m.Run()
}

// needServers skips t, with the reason, where TestMain could not start
// the servers. In CI TestMain has already failed the run by then.
func needServers(t *testing.T) {
	t.Helper()
	if servers.unavailable != "" {
		t.Skip(servers.unavailable)
	}
}

func imageFromEnv(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// startServers starts PostgreSQL and MongoDB side by side. stop removes
// whatever was started, also on error.
func startServers(ctx context.Context) (stop func(), err error) {
	var (
		mu       sync.Mutex
		stoppers []func()
		errs     []error
		wg       sync.WaitGroup
	)
	stop = func() {
		for _, f := range stoppers {
			f()
		}
	}
	defer func() {
		// testcontainers panics on some set-up failures; report them.
		if r := recover(); r != nil {
			err = fmt.Errorf("testcontainers: %v", r)
		}
	}()
	for _, start := range []func(context.Context) (func(), error){startPostgres, startMongo} {
		wg.Go(func() {
			s, err := safely(func() (func(), error) { return start(ctx) })
			mu.Lock()
			defer mu.Unlock()
			if s != nil {
				stoppers = append(stoppers, s)
			}
			if err != nil {
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	return stop, errors.Join(errs...)
}

func safely(f func() (func(), error)) (stop func(), err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func terminate(c testcontainers.Container) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// The data is throwaway: no need to wait for a clean shutdown.
		if err := c.Terminate(ctx, testcontainers.StopTimeout(time.Second)); err != nil {
			fmt.Fprintln(os.Stderr, "removing container:", err)
		}
	}
}

func startPostgres(ctx context.Context) (func(), error) {
	if url := os.Getenv("SORTID_TEST_POSTGRES_URL"); url != "" {
		servers.pgImage = "none (SORTID_TEST_POSTGRES_URL)"
		return connectPostgres(ctx, url, func() {})
	}
	servers.pgImage = imageFromEnv("SORTID_TEST_POSTGRES_IMAGE", defaultPostgresImage)
	c, err := postgres.Run(ctx, servers.pgImage,
		postgres.WithDatabase("sortid"),
		postgres.WithUsername("sortid"),
		postgres.WithPassword("sortid"),
		postgres.BasicWaitStrategies(),
	)
	var stop func()
	if c != nil {
		stop = terminate(c)
	}
	if err != nil {
		return stop, fmt.Errorf("starting PostgreSQL from %s: %w", servers.pgImage, err)
	}
	url, err := c.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		return stop, err
	}
	return connectPostgres(ctx, url, stop)
}

func connectPostgres(ctx context.Context, url string, stop func()) (func(), error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return stop, err
	}
	cfg.AfterConnect = sqltype.AfterConnect
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return stop, err
	}
	if err := pool.QueryRow(ctx, "SELECT version()").Scan(&servers.pgVersion); err != nil {
		pool.Close()
		return stop, fmt.Errorf("querying PostgreSQL: %w", err)
	}
	servers.pgConfig, servers.pg = cfg, pool
	return func() { pool.Close(); stop() }, nil
}

func startMongo(ctx context.Context) (func(), error) {
	if uri := os.Getenv("SORTID_TEST_MONGO_URI"); uri != "" {
		servers.mongoImage = "none (SORTID_TEST_MONGO_URI)"
		return connectMongo(ctx, uri, func() {})
	}
	servers.mongoImage = imageFromEnv("SORTID_TEST_MONGO_IMAGE", defaultMongoImage)
	// A port check from outside the container fits both mongod and the
	// FerretDB stand-in, which log differently and whose image has no
	// shell to check from inside; the ping below waits for the server.
	c, err := testcontainers.Run(ctx, servers.mongoImage,
		testcontainers.WithExposedPorts("27017/tcp"),
		testcontainers.WithWaitStrategy(wait.ForListeningPort("27017/tcp").SkipInternalCheck()),
	)
	var stop func()
	if c != nil {
		stop = terminate(c)
	}
	if err != nil {
		return stop, fmt.Errorf("starting MongoDB from %s: %w", servers.mongoImage, err)
	}
	endpoint, err := c.PortEndpoint(ctx, "27017/tcp", "mongodb")
	if err != nil {
		return stop, err
	}
	return connectMongo(ctx, endpoint+"/?directConnection=true", stop)
}

func connectMongo(ctx context.Context, uri string, stop func()) (func(), error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetRegistry(bsoncodec.NewRegistry()))
	if err != nil {
		return stop, err
	}
	stringClient, err := mongo.Connect(options.Client().ApplyURI(uri).SetRegistry(bsoncodec.NewRegistry(bsoncodec.KSUIDAsString())))
	if err != nil {
		client.Disconnect(context.Background())
		return stop, err
	}
	prevStop := stop
	stop = func() {
		stringClient.Disconnect(context.Background())
		prevStop()
	}
	var info bson.M
	if err := client.Database("admin").RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		client.Disconnect(context.Background())
		return stop, fmt.Errorf("querying MongoDB: %w", err)
	}
	servers.mongoVersion = fmt.Sprintf("MongoDB %v", info["version"])
	if _, ok := info["ferretdbVersion"]; ok {
		servers.mongoVersion += " compatible (FerretDB)"
	}
	servers.mongo, servers.mongoDB = client, client.Database("sortid")
	servers.mongoStringDB = stringClient.Database("sortid")
	return func() { client.Disconnect(context.Background()); stop() }, nil
}

// testContext is a context for one test, bounded so a hung server fails
// the test instead of the whole run.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

var tableSeq atomic.Int64

// pgTable creates a table with the given column definitions for t alone
// and drops it when t ends. It returns the quoted table name.
func pgTable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, columns string) string {
	t.Helper()
	name := pgx.Identifier{fmt.Sprintf("%s_%d", sanitize(t.Name()), tableSeq.Add(1))}.Sanitize()
	if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "CREATE TABLE "+name+" ("+columns+")"); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() { pool.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

// mongoCollection returns an empty collection of db for t alone, dropped
// when t ends.
func mongoCollection(t *testing.T, ctx context.Context, db *mongo.Database) *mongo.Collection {
	t.Helper()
	coll := db.Collection(sanitize(t.Name()))
	if err := coll.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { coll.Drop(context.Background()) })
	return coll
}

// sanitize turns a test name into an SQL or collection name.
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '_'
	}, name)
}
