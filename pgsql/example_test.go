package pgsql_test

import (
	"fmt"
	"strings"

	"github.com/sortid/sortid/pgsql"
)

// The uuidv7 part of the install script, as a migration tool would embed
// it: the functions it creates.
func ExampleScript() {
	script, err := pgsql.Script("", "uuidv7")
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(script, "\n") {
		if name, ok := strings.CutPrefix(line, "CREATE OR REPLACE FUNCTION "); ok {
			fmt.Println(name[:strings.Index(name, "(")])
		}
	}
	// Output:
	// uuidv7_time
	// uuidv7_min_at
	// uuidv7_max_at
	// uuidv7_time_encoder
	// uuidv7_time_decoder
}
