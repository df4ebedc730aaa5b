// Command machine is one of the eight "machines" of the integration test
// TestEightMachines: the test runs it in a container of its own, eight at
// once, as PID 1 in each, the way separate hosts would run a service.
//
// It connects to PostgreSQL (SORTID_PG_URL) and to a MongoDB-wire server
// (SORTID_MONGO_URI, database SORTID_MONGO_DB), waits until the test
// releases the PostgreSQL advisory lock SORTID_START_LOCK (so that all
// eight start writing together), then makes SORTID_IDS IDs of each kind (random
// KSUIDs, monotonic KSUIDs, ObjectIDs) and writes each one, with its
// machine number and its place in the machine's creation order, into both
// servers, in batches as it goes, into the tables machines_ksuid_random,
// machines_ksuid_monotonic and machines_objectid, and into collections
// named ksuid_random, ksuid_monotonic and objectid. Any error, a duplicate key included,
// is printed and exits 1.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
)

// kinds are the kinds of ID each machine makes, and the names of the
// tables and collections they go into.
var kinds = []string{"ksuid_random", "ksuid_monotonic", "objectid"}

const batch = 1000

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "machine %s: %v\n", os.Getenv("SORTID_MACHINE"), err)
		os.Exit(1)
	}
}

func run() error {
	machine, err := strconv.Atoi(os.Getenv("SORTID_MACHINE"))
	if err != nil {
		return fmt.Errorf("SORTID_MACHINE: %w", err)
	}
	n, err := strconv.Atoi(os.Getenv("SORTID_IDS"))
	if err != nil {
		return fmt.Errorf("SORTID_IDS: %w", err)
	}
	startLock, err := strconv.ParseInt(os.Getenv("SORTID_START_LOCK"), 10, 64)
	if err != nil {
		return fmt.Errorf("SORTID_START_LOCK: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	cfg, err := pgx.ParseConfig(os.Getenv("SORTID_PG_URL"))
	if err != nil {
		return err
	}
	pg, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connecting to PostgreSQL: %w", err)
	}
	defer pg.Close(context.Background())
	if err := sqltype.AfterConnect(ctx, pg); err != nil {
		return err
	}
	client, err := mongo.Connect(options.Client().ApplyURI(os.Getenv("SORTID_MONGO_URI")).SetRegistry(bsoncodec.NewRegistry()))
	if err != nil {
		return fmt.Errorf("connecting to MongoDB: %w", err)
	}
	defer client.Disconnect(context.Background())
	db := client.Database(os.Getenv("SORTID_MONGO_DB"))
	if err := client.Ping(ctx, nil); err != nil {
		return fmt.Errorf("connecting to MongoDB: %w", err)
	}

	if _, err := pg.Exec(ctx, "SELECT pg_advisory_lock_shared($1)", startLock); err != nil {
		return fmt.Errorf("waiting for the start: %w", err)
	}
	if _, err := pg.Exec(ctx, "SELECT pg_advisory_unlock_shared($1)", startLock); err != nil {
		return err
	}

	monotonic := ksuid.NewGenerator(ksuid.WithMonotonic())
	makers := map[string]func() (any, error){
		"ksuid_random":    func() (any, error) { return ksuid.New(), nil },
		"ksuid_monotonic": func() (any, error) { return monotonic.New() },
		"objectid":        func() (any, error) { return objectid.New(), nil },
	}
	ids := make([]any, 0, batch)
	for start := 0; start < n; start += batch {
		for _, kind := range kinds {
			ids = ids[:0]
			for range min(batch, n-start) {
				id, err := makers[kind]()
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			if err := write(ctx, pg, db.Collection(kind), kind, machine, start, ids); err != nil {
				return err
			}
		}
	}
	fmt.Printf("machine %d: wrote %d IDs of each of %v\n", machine, n, kinds)
	return nil
}

// write stores ids, made in this order starting at seq, into the table
// and the collection of their kind.
func write(ctx context.Context, pg *pgx.Conn, coll *mongo.Collection, kind string, machine, seq int, ids []any) error {
	_, err := pg.CopyFrom(ctx, pgx.Identifier{"machines_" + kind}, []string{"id", "machine", "seq"},
		pgx.CopyFromSlice(len(ids), func(i int) ([]any, error) {
			// The column is bytea: the raw bytes, said as such
			// (sqltype refuses a typed ID there).
			return []any{ids[i].(interface{ Bytes() []byte }).Bytes(), machine, seq + i}, nil
		}))
	if err != nil {
		return fmt.Errorf("PostgreSQL, %s: %w", kind, err)
	}
	docs := make([]any, len(ids))
	for i, id := range ids {
		docs[i] = bson.D{{Key: "_id", Value: id}, {Key: "machine", Value: machine}, {Key: "seq", Value: seq + i}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		return fmt.Errorf("MongoDB, %s: %w", kind, err)
	}
	return nil
}
