package containers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestFerretDBStandInOutsideDocker runs the stand-in server's binary on
// this machine, with the address from the environment and the data
// folder from a flag, and stores a document through it.
func TestFerretDBStandInOutsideDocker(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "ferretdb")
	// As scripts/testenv.sh builds it for the image, so the build cache
	// serves both.
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, ".")
	build.Dir = "../testenv/ferretdb"
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testenv/ferretdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	data := filepath.Join(dir, "data")
	var log bytes.Buffer
	server := exec.Command(bin, "-data-dir", data)
	server.Env = append(os.Environ(), "FERRETDB_LISTEN_ADDR="+addr)
	server.Stdout, server.Stderr = &log, &log
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })

	client, err := mongo.Connect(options.Client().ApplyURI("mongodb://" + addr + "/?directConnection=true").SetServerSelectionTimeout(30 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	coll := client.Database("standin").Collection("c")
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "x", Value: 1}}); err != nil {
		t.Fatalf("inserting through the stand-in at %s: %v\n%s", addr, err, log.String())
	}
	if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != 1 {
		t.Fatalf("count %d, %v", n, err)
	}
	if files, _ := filepath.Glob(filepath.Join(data, "standin*")); len(files) == 0 {
		t.Errorf("no database file in %s (the -data-dir flag): %v", data, files)
	}
}
