package containers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

const (
	machines         = 8
	idsPerMachine    = 10_000 // of each kind
	machineLock      = 4242   // the advisory lock that starts the machines
	machineMongoDB   = "sortid_machines"
	machineImageRepo = "sortid-test/machine"
)

// machineKinds are the kinds of ID the machines make: the names of their
// collections, and of their tables after "machines_" (see machine/main.go).
var machineKinds = []string{"ksuid_random", "ksuid_monotonic", "objectid"}

// machineRow is one ID as a machine wrote it: which machine, and its place
// in that machine's creation order.
type machineRow struct {
	id           []byte
	machine, seq int
}

// TestEightMachines runs eight generator processes in eight containers,
// each PID 1 in its own PID namespace (the case that made legacy
// ObjectIDs, machine + pid, collide), all writing at once over the Docker
// network into PostgreSQL and the MongoDB-wire server.
func TestEightMachines(t *testing.T) {
	needServers(t)
	if servers.pgAddr == "" || servers.mongoAddr == "" {
		// Not an error of the code under test, and never the case in CI.
		t.Skip("the machines reach the servers over the Docker network; servers given by URL may not be reachable from containers")
	}
	ctx := testContext(t)
	prepareMachineTargets(t, ctx)
	image := buildMachineImage(t, ctx)

	// All machines wait on the lock this connection holds, then start
	// together when it is released.
	hold, err := servers.pg.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Release()
	if _, err := hold.Exec(ctx, "SELECT pg_advisory_lock($1)", machineLock); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"SORTID_PG_URL":     "postgres://sortid:sortid@" + servers.pgAddr + "/sortid?sslmode=disable",
		"SORTID_MONGO_URI":  "mongodb://" + servers.mongoAddr + "/?directConnection=true",
		"SORTID_MONGO_DB":   machineMongoDB,
		"SORTID_IDS":        fmt.Sprint(idsPerMachine),
		"SORTID_START_LOCK": fmt.Sprint(machineLock),
	}
	var running []*testcontainers.DockerContainer
	for m := range machines {
		env["SORTID_MACHINE"] = fmt.Sprint(m)
		c, err := testcontainers.Run(ctx, image, testcontainers.WithEnv(env), labelled)
		if c != nil {
			running = append(running, c)
			testcontainers.CleanupContainer(t, c)
		}
		if err != nil {
			t.Fatalf("starting machine %d: %v", m, err)
		}
	}
	waitForWaiters(t, ctx, running)
	if _, err := hold.Exec(ctx, "SELECT pg_advisory_unlock($1)", machineLock); err != nil {
		t.Fatal(err)
	}
	for m, c := range running {
		if code, logs := waitForExit(ctx, c); code != 0 {
			t.Errorf("machine %d exited with %d:\n%s", m, code, logs)
		}
	}
	if t.Failed() {
		return
	}

	for _, kind := range machineKinds {
		t.Run(kind, func(t *testing.T) {
			rows := pgMachineRows(t, ctx, kind)
			if len(rows) != machines*idsPerMachine {
				t.Fatalf("PostgreSQL holds %d rows, want %d", len(rows), machines*idsPerMachine)
			}
			assertDistinct(t, rows)
			byMachine := creationOrder(t, rows)
			switch kind {
			case "ksuid_monotonic":
				for m, ids := range byMachine {
					assertIncreasing(t, m, ids)
				}
			case "ksuid_random":
				// Random payloads order to the second only.
				for m, ids := range byMachine {
					assertTimesNeverGoBack(t, m, ids)
				}
			case "objectid":
				assertObjectIDsPerProcess(t, byMachine)
			}
			// The MongoDB-wire server holds the same IDs, and sorts them the
			// same way.
			docs := mongoMachineRows(t, ctx, kind)
			if len(docs) != len(rows) {
				t.Fatalf("MongoDB holds %d documents, PostgreSQL %d rows", len(docs), len(rows))
			}
			for i := range rows {
				if !bytes.Equal(docs[i].id, rows[i].id) || docs[i].machine != rows[i].machine || docs[i].seq != rows[i].seq {
					t.Fatalf("row %d in ID order: MongoDB has %x (machine %d, #%d), PostgreSQL %x (machine %d, #%d)",
						i, docs[i].id, docs[i].machine, docs[i].seq, rows[i].id, rows[i].machine, rows[i].seq)
				}
			}
		})
	}
}

// prepareMachineTargets creates the tables and an empty MongoDB database
// for the machines, and removes them when t ends.
func prepareMachineTargets(t *testing.T, ctx context.Context) {
	t.Helper()
	mdb := servers.mongo.Database(machineMongoDB)
	if err := mdb.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mdb.Drop(context.Background()) })
	for _, kind := range machineKinds {
		table := pgx.Identifier{"machines_" + kind}.Sanitize()
		if _, err := servers.pg.Exec(ctx, "DROP TABLE IF EXISTS "+table); err != nil {
			t.Fatal(err)
		}
		if _, err := servers.pg.Exec(ctx, "CREATE TABLE "+table+" (id bytea PRIMARY KEY, machine int NOT NULL, seq int NOT NULL)"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { servers.pg.Exec(context.Background(), "DROP TABLE IF EXISTS "+table) })
	}
}

// buildMachineImage builds machine/ as a static binary and an image of
// just that binary, removed when t ends.
func buildMachineImage(t *testing.T, ctx context.Context) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(dir, "machine"), "./machine")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building machine/: %v\n%s", err, out)
	}
	dockerfile := "FROM scratch\nCOPY machine /machine\nENTRYPOINT [\"/machine\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(dockerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { provider.Close() })
	image, err := provider.BuildImage(ctx, &testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context: dir, Repo: machineImageRepo, Tag: "containers_test",
		BuildOptionsModifier: func(o *client.ImageBuildOptions) {
			o.Labels = map[string]string{containerLabel: "containers_test"}
			o.Remove, o.ForceRemove = true, true
		},
	}})
	if err != nil {
		t.Fatalf("building the machine image: %v", err)
	}
	t.Cleanup(func() {
		provider.Client().ImageRemove(context.Background(), image, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	})
	return image
}

// waitForWaiters waits until every machine is blocked on the start lock,
// or fails t with the logs of a machine that stopped before it.
func waitForWaiters(t *testing.T, ctx context.Context, running []*testcontainers.DockerContainer) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var waiting int
		err := servers.pg.QueryRow(ctx, `SELECT count(*) FROM pg_locks
			WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, machineLock).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting == len(running) {
			return
		}
		for m, c := range running {
			if state, err := c.State(ctx); err == nil && !state.Running {
				_, logs := waitForExit(ctx, c)
				t.Fatalf("machine %d stopped before the start (exit %d):\n%s", m, state.ExitCode, logs)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes %d of %d machines wait for the start", waiting, len(running))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitForExit waits for c to stop and returns its exit code and output.
func waitForExit(ctx context.Context, c *testcontainers.DockerContainer) (int, string) {
	for {
		state, err := c.State(ctx)
		if err != nil {
			return -1, err.Error()
		}
		if !state.Running {
			var logs []byte
			if r, err := c.Logs(ctx); err == nil {
				logs, _ = io.ReadAll(r)
				r.Close()
			}
			return state.ExitCode, string(logs)
		}
		select {
		case <-ctx.Done():
			return -1, ctx.Err().Error()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// pgMachineRows reads a kind's table in ID (byte) order.
func pgMachineRows(t *testing.T, ctx context.Context, kind string) []machineRow {
	t.Helper()
	rows, err := servers.pg.Query(ctx, "SELECT id, machine, seq FROM "+pgx.Identifier{"machines_" + kind}.Sanitize()+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var out []machineRow
	var r machineRow
	_, err = pgx.ForEachRow(rows, []any{&r.id, &r.machine, &r.seq}, func() error {
		out = append(out, machineRow{slices.Clone(r.id), r.machine, r.seq})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mongoMachineRows reads a kind's collection sorted by _id.
func mongoMachineRows(t *testing.T, ctx context.Context, kind string) []machineRow {
	t.Helper()
	coll := servers.mongo.Database(machineMongoDB).Collection(kind)
	cur, err := coll.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close(ctx)
	var out []machineRow
	for cur.Next(ctx) {
		out = append(out, machineRow{id: idBytes(t, cur.Current.Lookup("_id")),
			machine: int(cur.Current.Lookup("machine").AsInt64()), seq: int(cur.Current.Lookup("seq").AsInt64())})
	}
	if err := cur.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// idBytes returns the bytes of a stored _id: an ObjectId, or a KSUID as
// the string it is stored as.
func idBytes(t *testing.T, v bson.RawValue) []byte {
	t.Helper()
	if oid, ok := v.ObjectIDOK(); ok {
		return oid[:]
	}
	if s, ok := v.StringValueOK(); ok {
		id, err := ksuid.Parse(s)
		if err != nil {
			t.Fatalf("_id %q: %v", s, err)
		}
		return id.Bytes()
	}
	t.Fatalf("_id of BSON type %v", v.Type)
	return nil
}

func assertDistinct(t *testing.T, rows []machineRow) {
	t.Helper()
	for i := 1; i < len(rows); i++ {
		if bytes.Compare(rows[i-1].id, rows[i].id) >= 0 {
			t.Fatalf("rows %d and %d are not in strictly increasing ID order: %x, %x", i-1, i, rows[i-1].id, rows[i].id)
		}
	}
	seen := make(map[[2]int]bool, len(rows))
	for _, r := range rows {
		if seen[[2]int{r.machine, r.seq}] {
			t.Fatalf("machine %d wrote #%d twice", r.machine, r.seq)
		}
		seen[[2]int{r.machine, r.seq}] = true
	}
}

// creationOrder returns each machine's IDs in the order it made them.
func creationOrder(t *testing.T, rows []machineRow) map[int][][]byte {
	t.Helper()
	byMachine := make(map[int][][]byte)
	for _, r := range rows {
		ids := byMachine[r.machine]
		if ids == nil {
			ids = make([][]byte, idsPerMachine)
			byMachine[r.machine] = ids
		}
		if r.seq < 0 || r.seq >= idsPerMachine {
			t.Fatalf("machine %d wrote #%d", r.machine, r.seq)
		}
		ids[r.seq] = r.id
	}
	if len(byMachine) != machines {
		t.Fatalf("rows from %d machines, want %d", len(byMachine), machines)
	}
	return byMachine
}

func assertIncreasing(t *testing.T, machine int, ids [][]byte) {
	t.Helper()
	for i := 1; i < len(ids); i++ {
		if bytes.Compare(ids[i-1], ids[i]) >= 0 {
			t.Fatalf("machine %d: ID #%d %x is not above #%d %x", machine, i, ids[i], i-1, ids[i-1])
		}
	}
}

// seconds returns the timestamp of a KSUID or an ObjectID (both lead
// with 4 big-endian bytes; only the epochs differ).
func seconds(id []byte) uint32 {
	return uint32(id[0])<<24 | uint32(id[1])<<16 | uint32(id[2])<<8 | uint32(id[3])
}

func assertTimesNeverGoBack(t *testing.T, machine int, ids [][]byte) {
	t.Helper()
	for i := 1; i < len(ids); i++ {
		if seconds(ids[i]) < seconds(ids[i-1]) {
			t.Fatalf("machine %d: ID #%d %x is dated before #%d %x", machine, i, ids[i], i-1, ids[i-1])
		}
	}
}

// assertObjectIDsPerProcess checks what the ObjectID layout promises one
// process: a random value of its own, shared by no other process, and a
// counter that takes the next value (mod 2^24) for every ID, so that its
// IDs sort in the order made, except where the counter wraps within one
// second.
func assertObjectIDsPerProcess(t *testing.T, byMachine map[int][][]byte) {
	t.Helper()
	owner := make(map[[5]byte]int)
	for m, raw := range byMachine {
		ids := make([]objectid.ObjectID, len(raw))
		for i, b := range raw {
			ids[i] = objectid.ObjectID(b)
		}
		random := ids[0].Random()
		if other, ok := owner[random]; ok {
			t.Errorf("machines %d and %d share the random value %x", other, m, random)
		}
		owner[random] = m
		wraps := 0
		for i := 1; i < len(ids); i++ {
			prev, id := ids[i-1], ids[i]
			if id.Random() != random {
				t.Fatalf("machine %d: ID #%d %v has random value %x, its first had %x", m, i, id, id.Random(), random)
			}
			if id.Counter() != (prev.Counter()+1)&0xFFFFFF {
				t.Fatalf("machine %d: ID #%d %v has counter %d after %d", m, i, id, id.Counter(), prev.Counter())
			}
			if id.Time().Before(prev.Time()) {
				t.Fatalf("machine %d: ID #%d %v is dated before #%d %v", m, i, id, i-1, prev)
			}
			if id.Compare(prev) < 0 {
				wraps++
			}
		}
		if wraps > 1 {
			t.Errorf("machine %d: %d IDs sort before the one made just before them; a counter wraps at most once in %d IDs", m, wraps, len(ids))
		}
	}
	if len(owner) != machines {
		t.Errorf("%d distinct random values among %d machines", len(owner), machines)
	}
}
