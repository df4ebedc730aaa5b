package main

import (
	"fmt"
	"io"

	"github.com/sortid/sortid/pgsql"
)

// runSQL prints the PostgreSQL install script, of the ID types named (all
// with none, or "all"); with "partitions" the
// SQL of a table's partitions; with "to-extension" the script that
// converts the domains to the sortid extension's types.
func runSQL(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "partitions" {
		return runPartitions(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "to-extension" {
		fs := newFlagSet("sortid sql to-extension", stderr)
		if code := parseFlags(fs, args[1:]); code >= 0 {
			return code
		}
		if fs.NArg() > 0 {
			return usageError(stderr, "sql to-extension takes no arguments, got %q", fs.Args())
		}
		fmt.Fprint(stdout, pgsql.ToExtension())
		return exitOK
	}
	fs := newFlagSet("sortid sql", stderr)
	schema := fs.String("schema", "", "create the domains and functions in this schema (created if missing)")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	var idTypes []string
	for _, a := range fs.Args() {
		if a != "all" {
			idTypes = append(idTypes, a)
		}
	}
	if len(idTypes) < fs.NArg() {
		idTypes = nil
	}
	script, err := pgsql.Script(*schema, idTypes...)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	fmt.Fprint(stdout, script)
	return exitOK
}
