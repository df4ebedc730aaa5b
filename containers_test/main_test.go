package containers

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/wait"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// The images when no SORTID_TEST_*_IMAGE names one. The PostgreSQL ones
// are scripts/testenv.sh's (Debian's servers with the sortid extension
// built in: the official images lack it), so they have no default here.
const (
	defaultMySQLImage   = "mysql:9.7"
	defaultMariaDBImage = "mariadb:11.8"
	defaultMongoImage   = "mongo:8"

	// containerLabel marks every container the tests start, so that
	// scripts/test.sh can remove those a killed run left behind.
	containerLabel = "io.sortid.test"
)

// labelled is the option that marks a container as the tests'.
var labelled = testcontainers.WithLabels(map[string]string{containerLabel: "containers_test"})

// servers is what TestMain started, shared by every test in the binary.
var servers struct {
	unavailable string // why the servers could not be had; empty if they run

	pgImage, pgVersion string
	pgConfig           *pgxpool.Config // for the test database
	pg                 *pgxpool.Pool
	pgAddr             string // host:port inside the Docker network

	// PgBouncer in transaction pooling in front of pg's database:
	// Debian bookworm's 1.18 on this host, and sid's 1.26 in pg's
	// container (with max_prepared_statements at its default, 200).
	bouncerVersion, bouncer126Version string
	bouncerConfig, bouncer126Config   *pgx.ConnConfig

	// PostgreSQL 15, for sortid's SQL on a server before 18.
	pg15Image, pg15Version string
	pg15                   *pgxpool.Pool

	// The extension's database on each PostgreSQL release: the
	// extension's tests run on every one.
	ext15, ext17, ext18 *extServer
	citus               citusCluster

	// The extension's database on PostgreSQL 15 (ext15's), for the tests
	// that make databases of their own on that server (pg15Database).
	pgExtConfig *pgxpool.Config
	pgExt       *pgxpool.Pool

	// MySQL 9.7 and MariaDB 11.8: the tests of MySQL run on both.
	mysqlSrv, mariadbSrv mysqlServer

	mongoImage, mongoVersion string
	mongo                    *mongo.Client   // bsoncodec registry: KSUIDs as binary
	mongoDB                  *mongo.Database // on mongo
	mongoBinaryDB            *mongo.Database // a registry that writes KSUIDs as binary, as earlier versions did
	mongoPlainDB             *mongo.Database // the driver's default registry
	mongoAddr                string          // host:port inside the Docker network
	mongoURI                 string          // for clients of a test's own
}

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	flag.Parse()
	if os.Getenv("SORTID_TEST_CONTAINER_LOG") == "" {
		// testcontainers narrates every container step.
		tclog.SetDefault(tclog.NewNoopLogger())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	stop, err := startServers(ctx)
	cancel()
	stop = sync.OnceFunc(stop)
	defer stop()
	// Ctrl-C and kill reach the test binary: remove the containers before
	// going. (A -timeout panic skips this; scripts/test.sh then removes
	// them by their label.)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-signals
		fmt.Fprintf(os.Stderr, "%v: removing the test containers\n", s)
		stop()
		os.Exit(1)
	}()
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
		fmt.Printf("PostgreSQL: image %s, %s\n", servers.ext17.image, servers.ext17.version)
		fmt.Printf("PostgreSQL: image %s, %s\n", servers.pg15Image, servers.pg15Version)
		fmt.Printf("PgBouncer:  %s and %s, in front of PostgreSQL 18\n", servers.bouncerVersion, servers.bouncer126Version)
		fmt.Printf("Citus:      image %s, %s; a coordinator and 2 workers\n", servers.citus.image, servers.citus.version)
		for _, m := range mysqlServers() {
			fmt.Printf("MySQL:      image %s, %s\n", m.image, m.version)
		}
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

// startServers starts PostgreSQL, MySQL and MongoDB side by side. stop removes
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
	// Until the MySQL servers answer over TCP each try is cut off, and
	// the driver would log every one.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	defer mysql.SetLogger(log.New(os.Stderr, "[mysql] ", log.Ldate|log.Ltime|log.Lshortfile))
	defer func() {
		// testcontainers panics on some set-up failures; report them.
		if r := recover(); r != nil {
			err = fmt.Errorf("testcontainers: %v", r)
		}
	}()
	// PgBouncer needs PostgreSQL 18's address: it starts after it.
	postgresThenBouncer := func(ctx context.Context) (func(), error) {
		stopPostgres, err := startPostgres(ctx)
		if err != nil {
			return stopPostgres, err
		}
		stopBouncer, err := startPgBouncer(ctx)
		return func() { stopBouncer(); stopPostgres() }, err
	}
	for _, start := range []func(context.Context) (func(), error){postgresThenBouncer, startPostgres15, startPostgres17, startMySQL, startMariaDB, startMongo, startCitus} {
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
	// A server named by a URL has no container: no PgBouncer 1.26 and no
	// Docker network address (the tests that need them skip, saying so).
	var c testcontainers.Container
	url, stop := os.Getenv("SORTID_TEST_POSTGRES_URL"), func() {}
	servers.pgImage = "none (SORTID_TEST_POSTGRES_URL)"
	if url == "" {
		var err error
		servers.pgImage = os.Getenv("SORTID_TEST_POSTGRES_IMAGE")
		// TimescaleDB must be loaded at start; it does nothing in a
		// database without its extension.
		if c, url, stop, err = runPostgres(ctx, servers.pgImage, testcontainers.WithExposedPorts(bouncerPort),
			testcontainers.WithCmdArgs("-c", "shared_preload_libraries=timescaledb", "-c", "timescaledb.telemetry_level=off")); err != nil {
			return stop, err
		}
		if servers.pgAddr, err = networkAddr(ctx, c, "5432"); err != nil {
			return stop, err
		}
	}
	stop, err := connectPostgres(ctx, url, stop)
	if err != nil {
		return stop, err
	}
	if servers.ext18, err = createExtensionDatabase(ctx, "PostgreSQL 18", servers.pgImage, c, servers.pg, url); err != nil {
		return stop, err
	}
	stopAll := func() { servers.ext18.pool.Close(); stop() }
	if c != nil {
		err = startPgBouncerIn(ctx, c)
	}
	return stopAll, err
}

// startPostgres15 starts the second PostgreSQL, 15, on which the tests of
// sortid's SQL run again.
func startPostgres15(ctx context.Context) (func(), error) {
	if url := os.Getenv("SORTID_TEST_POSTGRES15_URL"); url != "" {
		servers.pg15Image = "none (SORTID_TEST_POSTGRES15_URL)"
		return connectPostgres15(ctx, nil, url, func() {})
	}
	servers.pg15Image = os.Getenv("SORTID_TEST_POSTGRES15_IMAGE")
	c, url, stop, err := runPostgres(ctx, servers.pg15Image)
	if err != nil {
		return stop, err
	}
	return connectPostgres15(ctx, c, url, stop)
}

func connectPostgres15(ctx context.Context, c testcontainers.Container, url string, stop func()) (func(), error) {
	_, pool, err := openPool(ctx, url)
	if err != nil {
		return stop, err
	}
	if err := pool.QueryRow(ctx, "SELECT version()").Scan(&servers.pg15Version); err != nil {
		pool.Close()
		return stop, fmt.Errorf("querying PostgreSQL 15: %w", err)
	}
	servers.pg15 = pool
	ext, err := createExtensionDatabase(ctx, "PostgreSQL 15", servers.pg15Image, c, pool, url)
	if err != nil {
		pool.Close()
		return stop, err
	}
	servers.ext15, servers.pgExtConfig, servers.pgExt = ext, ext.config, ext.pool
	return func() { ext.pool.Close(); pool.Close(); stop() }, nil
}

// startPostgres17 starts PostgreSQL 17, on which the extension's tests run
// again.
func startPostgres17(ctx context.Context) (func(), error) {
	var c testcontainers.Container
	image, url, stop := "none (SORTID_TEST_POSTGRES17_URL)", os.Getenv("SORTID_TEST_POSTGRES17_URL"), func() {}
	if url == "" {
		var err error
		image = os.Getenv("SORTID_TEST_POSTGRES17_IMAGE")
		if c, url, stop, err = runPostgres(ctx, image); err != nil {
			return stop, err
		}
	}
	_, pool, err := openPool(ctx, url)
	if err != nil {
		return stop, err
	}
	ext, err := createExtensionDatabase(ctx, "PostgreSQL 17", image, c, pool, url)
	pool.Close()
	if err != nil {
		return stop, err
	}
	servers.ext17 = ext
	return func() { ext.pool.Close(); stop() }, nil
}

// extServer is a PostgreSQL server's database that has the sortid
// extension and nothing of `sortid sql`: one install per database.
type extServer struct {
	name, image, version string
	major                int
	c                    testcontainers.Container // nil for a server named by a URL
	config               *pgxpool.Config          // the database, with sqltype.AfterConnect
	pool                 *pgxpool.Pool
}

// extServers lists the extension's databases, oldest server first.
func extServers() []*extServer {
	return []*extServer{servers.ext15, servers.ext17, servers.ext18}
}

// forEachExtServer runs test as a subtest on each extension database, at
// once: each is a server of its own.
func forEachExtServer(t *testing.T, test func(t *testing.T, ext *extServer)) {
	t.Helper()
	needServers(t)
	for _, ext := range extServers() {
		t.Run(fmt.Sprintf("pg%d", ext.major), func(t *testing.T) {
			t.Parallel()
			test(t, ext)
		})
	}
}

// extensionDatabase is the database of an extServer.
const extensionDatabase = "sortid_extension"

// createExtensionDatabase makes extensionDatabase afresh on the server
// that admin is a pool on (its url), with the extension, and opens a pool
// on it: a server whose image lacks the extension fails here.
func createExtensionDatabase(ctx context.Context, name, image string, c testcontainers.Container, admin *pgxpool.Pool, url string) (*extServer, error) {
	ext := &extServer{name: name, image: image, c: c}
	if err := admin.QueryRow(ctx, "SELECT version(), current_setting('server_version_num')::int / 10000").Scan(&ext.version, &ext.major); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + extensionDatabase, "CREATE DATABASE " + extensionDatabase} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, sql, err)
		}
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	conn, err := pgx.ConnectConfig(ctx, withDatabase(cfg.ConnConfig, extensionDatabase))
	if err != nil {
		return nil, err
	}
	_, err = conn.Exec(ctx, "CREATE EXTENSION sortid")
	conn.Close(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s (image %s): CREATE EXTENSION sortid: %w", name, image, err)
	}
	cfg.ConnConfig = withDatabase(cfg.ConnConfig, extensionDatabase)
	cfg.AfterConnect = sqltype.AfterConnect
	if ext.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, err
	}
	ext.config = cfg
	return ext, nil
}

// withDatabase is a copy of cfg for another database on the same server.
func withDatabase(cfg *pgx.ConnConfig, database string) *pgx.ConnConfig {
	c := cfg.Copy()
	c.Database = database
	return c
}

// runPostgres starts a container of a PostgreSQL image with the test
// database, and returns its connection URL and what removes it. opts
// change the container further (ports to publish, server settings).
func runPostgres(ctx context.Context, image string, opts ...testcontainers.ContainerCustomizer) (c testcontainers.Container, url string, stop func(), err error) {
	if image == "" {
		return nil, "", func() {}, errors.New("no PostgreSQL image: scripts/testenv.sh builds them and names them in SORTID_TEST_POSTGRES*_IMAGE")
	}
	pc, err := postgres.Run(ctx, image, append([]testcontainers.ContainerCustomizer{
		postgres.WithDatabase("sortid"),
		postgres.WithUsername("sortid"),
		postgres.WithPassword("sortid"),
		// The default collation users get on managed services and from
		// initdb in most locales is linguistic, not byte order; tests
		// that claim an order under the default collation must hold
		// under one. The official image honours this variable too.
		testcontainers.WithEnv(map[string]string{"POSTGRES_INITDB_ARGS": "--locale-provider=icu --icu-locale=en-US"}),
		postgres.BasicWaitStrategies(),
		labelled,
	}, opts...)...)
	if pc != nil {
		stop = terminate(pc)
	}
	if err != nil {
		return nil, "", stop, fmt.Errorf("starting PostgreSQL from %s: %w", image, err)
	}
	url, err = pc.ConnectionString(ctx, "sslmode=disable")
	return pc, url, stop, err
}

// openPool opens a pool on url with sqltype's hook on every connection.
func openPool(ctx context.Context, url string) (*pgxpool.Config, *pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, nil, err
	}
	cfg.AfterConnect = sqltype.AfterConnect
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	return cfg, pool, err
}

func connectPostgres(ctx context.Context, url string, stop func()) (func(), error) {
	cfg, pool, err := openPool(ctx, url)
	if err != nil {
		return stop, err
	}
	var version, provider, locale string
	err = pool.QueryRow(ctx, `SELECT version(), datlocprovider::text, coalesce(datlocale, datcollate)
		FROM pg_database WHERE datname = current_database()`).Scan(&version, &provider, &locale)
	if err != nil {
		pool.Close()
		return stop, fmt.Errorf("querying PostgreSQL: %w", err)
	}
	if provider == "i" {
		provider = "ICU"
	}
	servers.pgVersion = fmt.Sprintf("%s; database default collation: %s %s", version, provider, locale)
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
		labelled,
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
	if servers.mongoAddr, err = networkAddr(ctx, c, "27017"); err != nil {
		return stop, err
	}
	return connectMongo(ctx, endpoint+"/?directConnection=true", stop)
}

func connectMongo(ctx context.Context, uri string, stop func()) (func(), error) {
	servers.mongoURI = uri
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetRegistry(bsoncodec.NewRegistry()))
	if err != nil {
		return stop, err
	}
	binaryClient, err := mongo.Connect(options.Client().ApplyURI(uri).SetRegistry(binaryWriterRegistry()))
	if err != nil {
		client.Disconnect(context.Background())
		return stop, err
	}
	plainClient, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		client.Disconnect(context.Background())
		binaryClient.Disconnect(context.Background())
		return stop, err
	}
	prevStop := stop
	stop = func() {
		binaryClient.Disconnect(context.Background())
		plainClient.Disconnect(context.Background())
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
	servers.mongoBinaryDB = binaryClient.Database("sortid")
	servers.mongoPlainDB = plainClient.Database("sortid")
	return func() { client.Disconnect(context.Background()); stop() }, nil
}

// networkAddr is the address at which other containers reach port of c.
func networkAddr(ctx context.Context, c interface {
	ContainerIP(context.Context) (string, error)
}, port string) (string, error) {
	ip, err := c.ContainerIP(ctx)
	if err != nil {
		return "", fmt.Errorf("the container's address on the Docker network: %w", err)
	}
	return net.JoinHostPort(ip, port), nil
}

// mysqlServer is one of the MySQL-protocol servers, MySQL or MariaDB.
type mysqlServer struct {
	name, image, version string
	config               *mysql.Config // the test database, as root
	db                   *sql.DB
}

// mysqlServers lists MySQL 9.7 and MariaDB 11.8.
func mysqlServers() []*mysqlServer {
	return []*mysqlServer{&servers.mysqlSrv, &servers.mariadbSrv}
}

// forEachMySQL runs test as a subtest on MySQL and on MariaDB.
func forEachMySQL(t *testing.T, test func(t *testing.T, m *mysqlServer)) {
	t.Helper()
	needServers(t)
	for _, m := range mysqlServers() {
		t.Run(m.name, func(t *testing.T) { test(t, m) })
	}
}

func startMySQL(ctx context.Context) (func(), error) {
	return runMySQL(ctx, &servers.mysqlSrv, "MySQL", "SORTID_TEST_MYSQL", defaultMySQLImage)
}

func startMariaDB(ctx context.Context) (func(), error) {
	return runMySQL(ctx, &servers.mariadbSrv, "MariaDB", "SORTID_TEST_MARIADB", defaultMariaDBImage)
}

// runMySQL starts the server of env_IMAGE (or connects to env_DSN) into m.
func runMySQL(ctx context.Context, m *mysqlServer, name, env, defaultImage string) (func(), error) {
	m.name = name
	if dsn := os.Getenv(env + "_DSN"); dsn != "" {
		m.image = "none (" + env + "_DSN)"
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return func() {}, fmt.Errorf("%s_DSN: %w", env, err)
		}
		return connectMySQL(ctx, m, cfg, func() {})
	}
	m.image = imageFromEnv(env+"_IMAGE", defaultImage)
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.DBName = "root", "sortid", "sortid"
	cfg.ParseTime = true
	dsnAt := func(host string, port string) string {
		c := cfg.Clone()
		c.Net, c.Addr = "tcp", net.JoinHostPort(host, port)
		return c.FormatDSN()
	}
	// The official images and the stand-ins run their set-up on a server
	// without TCP, so the first query that works over TCP is the real
	// server's (startServers keeps the driver from logging each try).
	c, err := testcontainers.Run(ctx, m.image,
		testcontainers.WithExposedPorts("3306/tcp"),
		testcontainers.WithEnv(map[string]string{"MYSQL_ROOT_PASSWORD": cfg.Passwd, "MYSQL_DATABASE": cfg.DBName, "MARIADB_ROOT_PASSWORD": cfg.Passwd, "MARIADB_DATABASE": cfg.DBName}),
		testcontainers.WithWaitStrategy(wait.ForSQL("3306/tcp", "mysql", func(host string, port network.Port) string {
			return dsnAt(host, port.Port())
		}).WithStartupTimeout(3*time.Minute)),
		labelled,
	)
	var stop func()
	if c != nil {
		stop = terminate(c)
	}
	if err != nil {
		return stop, fmt.Errorf("starting %s from %s: %w", name, m.image, err)
	}
	endpoint, err := c.PortEndpoint(ctx, "3306/tcp", "")
	if err != nil {
		return stop, err
	}
	cfg.Net, cfg.Addr = "tcp", endpoint
	return connectMySQL(ctx, m, cfg, stop)
}

func connectMySQL(ctx context.Context, m *mysqlServer, cfg *mysql.Config, stop func()) (func(), error) {
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return stop, err
	}
	db := sql.OpenDB(connector)
	var version, charset, collation string
	if err := db.QueryRowContext(ctx, "SELECT version(), @@character_set_database, @@collation_database").Scan(&version, &charset, &collation); err != nil {
		db.Close()
		return stop, fmt.Errorf("querying %s: %w", m.name, err)
	}
	m.version = fmt.Sprintf("%s %s; database default: %s, collation %s", m.name, version, charset, collation)
	m.config, m.db = cfg, db
	return func() { db.Close(); stop() }, nil
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
	coll, err := recreateCollection(ctx, db, sanitize(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { coll.Drop(context.Background()) })
	return coll
}

// recreateCollection drops the collection name of db and creates it
// again, empty. It creates it explicitly: DocumentDB 1.0 creating a
// collection on the first insert, right after a drop while other tests
// create and drop theirs, failed once in CI with "(InternalError) Unable
// to create the specified collection" (its cache did not yet show the
// collection it had just made).
func recreateCollection(ctx context.Context, db *mongo.Database, name string) (*mongo.Collection, error) {
	coll := db.Collection(name)
	if err := coll.Drop(ctx); err != nil {
		return nil, fmt.Errorf("dropping %s: %w", name, err)
	}
	if err := db.CreateCollection(ctx, name); err != nil {
		return nil, fmt.Errorf("creating %s: %w", name, err)
	}
	return coll, nil
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

// binaryWriterRegistry is bsoncodec's registry with KSUIDs written as 20
// bytes of binary, subtype 0, as earlier versions of sortid (and
// segmentio/ksuid users) wrote them: the history a collection can hold.
func binaryWriterRegistry() *bson.Registry {
	reg := bsoncodec.NewRegistry()
	reg.RegisterTypeEncoder(reflect.TypeFor[ksuid.KSUID](), bson.ValueEncoderFunc(
		func(_ bson.EncodeContext, vw bson.ValueWriter, v reflect.Value) error {
			id := v.Interface().(ksuid.KSUID)
			return vw.WriteBinaryWithSubtype(id[:], bson.TypeBinaryGeneric)
		}))
	return reg
}
