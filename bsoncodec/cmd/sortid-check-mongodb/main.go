// Command sortid-check-mongodb reads a live MongoDB database and reports
// each field that holds KSUIDs or ObjectIDs where a filter can answer
// silently wrong, with the fix: bsoncodec.Check on the URI's database.
// sortid check runs it for a mongodb:// URI.
//
//	sortid-check-mongodb [--json] mongodb://host/database
//
// Exit status 1 when a finding can give a silent wrong answer, 0 when
// none does, 3 when the database could not be read, 2 for bad usage.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"github.com/sortid/sortid/bsoncodec"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sortid-check-mongodb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sortid-check-mongodb [--json] mongodb://host/database")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	uri := fs.Arg(0)
	cs, err := connstring.ParseAndValidate(uri)
	if err != nil {
		fmt.Fprintf(stderr, "sortid-check-mongodb: %v\n", err)
		return 2
	}
	if cs.Database == "" {
		fmt.Fprintf(stderr, "sortid-check-mongodb: the URI names no database (mongodb://host/database)\n")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		fmt.Fprintf(stderr, "sortid-check-mongodb: %v\n", err)
		return 3
	}
	defer client.Disconnect(context.Background())
	findings, fields, err := bsoncodec.Check(ctx, client.Database(cs.Database))
	if err != nil {
		fmt.Fprintf(stderr, "sortid-check-mongodb: %v\n", err)
		return 3
	}
	silent := 0
	for _, f := range findings {
		if f.Silent {
			silent++
		}
	}
	if *asJSON {
		if findings == nil {
			findings = []bsoncodec.Finding{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(findings); err != nil {
			return 3
		}
	} else {
		for _, f := range findings {
			fmt.Fprintln(stdout, f)
		}
		fmt.Fprintf(stdout, "%d fields that hold IDs read; %d findings, %d of them silent\n", fields, len(findings), silent)
	}
	if silent > 0 {
		return 1
	}
	return 0
}
