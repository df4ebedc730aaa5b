// Command ferretdb runs FerretDB 2, a MongoDB-wire-compatible server, on
// PostgreSQL with Microsoft's DocumentDB extension, for the integration
// tests on machines that cannot pull the official mongo image. The image
// (Dockerfile, entrypoint.sh) starts PostgreSQL 18 with DocumentDB first.
// It lives in a module of its own so that FerretDB never enters sortid's
// module graph.
//
//	ferretdb [-postgresql-url URL] [-listen-addr 0.0.0.0:27017] [-state-dir /var/lib/ferretdb]
//
// The flags default to the environment variables FERRETDB_POSTGRESQL_URL,
// FERRETDB_LISTEN_ADDR and FERRETDB_STATE_DIR, and those to the values the
// image uses.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/v2/ferretdb"
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
	pg := flag.String("postgresql-url", envOr("FERRETDB_POSTGRESQL_URL", "postgres://postgres@127.0.0.1:5432/postgres"), "PostgreSQL with the documentdb extension (FERRETDB_POSTGRESQL_URL)")
	addr := flag.String("listen-addr", envOr("FERRETDB_LISTEN_ADDR", "0.0.0.0:27017"), "TCP address to listen on (FERRETDB_LISTEN_ADDR)")
	state := flag.String("state-dir", envOr("FERRETDB_STATE_DIR", "/var/lib/ferretdb"), "FerretDB's state folder, made if missing (FERRETDB_STATE_DIR)")
	flag.Parse()
	if flag.NArg() > 0 {
		log.Fatalf("unexpected arguments %q", flag.Args())
	}
	if err := os.MkdirAll(*state, 0o755); err != nil {
		log.Fatal(err)
	}
	db, err := ferretdb.New(&ferretdb.Config{PostgreSQLURL: *pg, ListenAddr: *addr, StateDir: *state})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	db.Run(ctx)
}
