package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/sortid/sortid/pgsql"
)

// exitCannotCheck is sortid check's exit code when it could not read the
// database: neither "no finding" nor "findings".
const exitCannotCheck = 3

// runCheck reads a live PostgreSQL database through psql and reports each
// column that holds IDs where something can go silently wrong: sortid
// check DSN. It runs one SELECT in a READ ONLY transaction. Exit status 1
// when a finding can give a silent wrong answer, 0 when none does, 3 when
// the database could not be read.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid check", stderr)
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	psqlFlag := fs.String("psql", "psql", "the psql program to connect with")
	mongoFlag := fs.String("mongodb", "sortid-check-mongodb", "the program that checks a mongodb:// URI")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "check takes one PostgreSQL connection string or URL, got %d arguments", fs.NArg())
	}
	if uri := fs.Arg(0); strings.HasPrefix(uri, "mongodb://") || strings.HasPrefix(uri, "mongodb+srv://") {
		return runMongoCheck(*mongoFlag, *asJSON, uri, stdout, stderr)
	}
	psql, err := exec.LookPath(*psqlFlag)
	if err != nil {
		fmt.Fprintf(stderr, "sortid check: %v (it connects with psql: install the PostgreSQL client, or name it with --psql)\n", err)
		return exitCannotCheck
	}
	cmd := exec.Command(psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", fs.Arg(0))
	cmd.Stdin = strings.NewReader("BEGIN READ ONLY;\n" + pgsql.CheckQuery() + ";\nCOMMIT;\n")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "sortid check: psql: %v: %s\n", err, strings.TrimSpace(errOut.String()))
		return exitCannotCheck
	}
	findings, columns, err := pgsql.Check(bytes.TrimSpace(out.Bytes()), time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "sortid check: %v\n", err)
		return exitCannotCheck
	}
	silent := 0
	for _, f := range findings {
		if f.Silent {
			silent++
		}
	}
	if *asJSON {
		if findings == nil {
			findings = []pgsql.Finding{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(findings); err != nil {
			return exitCannotCheck
		}
	} else {
		for _, f := range findings {
			fmt.Fprintln(stdout, f)
		}
		fmt.Fprintf(stdout, "%d columns that may hold IDs read; %d findings, %d of them silent\n", columns, len(findings), silent)
	}
	if silent > 0 {
		return exitError
	}
	return exitOK
}

// runMongoCheck runs sortid-check-mongodb on uri, which holds the MongoDB
// driver this command does not import, and passes its output and exit
// status on.
func runMongoCheck(program string, asJSON bool, uri string, stdout, stderr io.Writer) int {
	path, err := exec.LookPath(program)
	if err != nil {
		fmt.Fprintf(stderr, "sortid check: %v (a MongoDB URI is read by sortid-check-mongodb: go install github.com/sortid/sortid/bsoncodec/cmd/sortid-check-mongodb@latest, or name it with --mongodb)\n", err)
		return exitCannotCheck
	}
	args := []string{uri}
	if asJSON {
		args = []string{"--json", uri}
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(stderr, "sortid check: %s: %v\n", program, err)
		return exitCannotCheck
	}
}
