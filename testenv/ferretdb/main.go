// Command ferretdb runs FerretDB, a MongoDB-wire-compatible server, with
// its SQLite back end, for the integration tests on machines that cannot
// pull the official mongo image. It lives in a module of its own so that
// FerretDB never enters sortid's module graph.
//
//	ferretdb [-listen-addr 0.0.0.0:27017] [-data-dir /data]
//
// The flags default to the environment variables FERRETDB_LISTEN_ADDR and
// FERRETDB_DATA_DIR, and those to the values above, which the image uses.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// envOr returns the environment variable name, or def when it is unset or
// empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func main() {
	addr := flag.String("listen-addr", envOr("FERRETDB_LISTEN_ADDR", "0.0.0.0:27017"), "TCP address to listen on (FERRETDB_LISTEN_ADDR)")
	dataDir := flag.String("data-dir", envOr("FERRETDB_DATA_DIR", "/data"), "folder of the SQLite databases, made if missing (FERRETDB_DATA_DIR)")
	flag.Parse()
	if flag.NArg() > 0 {
		log.Fatalf("unexpected arguments %q", flag.Args())
	}
	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		log.Fatal(err)
	}
	// The image is FROM scratch: make the data folder here.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	db, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *addr},
		Handler:   "sqlite",
		SQLiteURL: "file:" + filepath.ToSlash(dir) + "/",
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := db.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
