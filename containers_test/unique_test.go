package containers

import (
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

const (
	writers   = 8
	perWriter = 50_000
	batch     = 5_000
)

// writeConcurrently runs writers goroutines, each making perWriter IDs with
// newID and handing them to write in batches.
func writeConcurrently[T any](t *testing.T, newID func() T, write func([]T) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			ids := make([]T, 0, batch)
			for i := range perWriter {
				ids = append(ids, newID())
				if len(ids) == batch || i == perWriter-1 {
					if err := write(ids); err != nil {
						errs <- err
						return
					}
					ids = ids[:0]
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err) // a duplicate key would show here
	}
}

func TestPostgresUniqueUnderLoad(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, tc := range []struct {
		name  string
		newID func() any
	}{
		{"ksuid", func() any { return ksuid.New() }},
		{"objectid", func() any { return objectid.New() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, "id bytea PRIMARY KEY")
			writeConcurrently(t, tc.newID, func(ids []any) error {
				_, err := servers.pg.CopyFrom(ctx, pgx.Identifier{table[1 : len(table)-1]}, []string{"id"},
					pgx.CopyFromSlice(len(ids), func(i int) ([]any, error) { return []any{ids[i].(interface{ Bytes() []byte }).Bytes()}, nil }))
				return err
			})
			var count, distinct int
			if err := servers.pg.QueryRow(ctx, "SELECT count(*), count(DISTINCT id) FROM "+table).Scan(&count, &distinct); err != nil {
				t.Fatal(err)
			}
			if count != writers*perWriter || distinct != count {
				t.Errorf("%d rows, %d distinct; want %d", count, distinct, writers*perWriter)
			}
		})
	}
}

func TestMongoUniqueUnderLoad(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, tc := range []struct {
		name  string
		newID func() any
	}{
		{"objectid", func() any { return objectid.New() }},
		{"ksuid", func() any { return ksuid.New() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			coll := mongoCollection(t, ctx, servers.mongoDB)
			writeConcurrently(t, tc.newID, func(ids []any) error {
				docs := make([]any, len(ids))
				for i, id := range ids {
					docs[i] = bson.D{{Key: "_id", Value: id}}
				}
				_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
				return err
			})
			n, err := coll.CountDocuments(ctx, bson.D{})
			if err != nil {
				t.Fatal(err)
			}
			if n != writers*perWriter {
				t.Errorf("%d documents, want %d", n, writers*perWriter)
			}
		})
	}
}
