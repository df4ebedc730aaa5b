// Command ferretdb runs FerretDB, a MongoDB-wire-compatible server, with
// its SQLite back end, for the integration tests on machines that cannot
// pull the official mongo image. It lives in a module of its own so that
// FerretDB never enters sortid's module graph.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	// The image is FROM scratch: make the data folder here.
	if err := os.MkdirAll("/data", 0o755); err != nil {
		log.Fatal(err)
	}
	db, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "0.0.0.0:27017"},
		Handler:   "sqlite",
		SQLiteURL: "file:/data/",
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
