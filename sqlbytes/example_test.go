package sqlbytes_test

import (
	"fmt"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqlbytes"
)

// A lib/pq or bun pgdriver user passes the ID as sqlbytes.KSUID; the
// driver then receives the 20 raw bytes that the ksuid domain takes.
func Example() {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	v, _ := sqlbytes.KSUID(id).Value() // what db.Exec hands the driver
	fmt.Printf("%d bytes: %x\n", len(v.([]byte)), v)

	var back sqlbytes.KSUID
	_ = back.Scan(v) // what rows.Scan does with a bytea
	fmt.Println(ksuid.KSUID(back))
	// Output:
	// 20 bytes: 05f5e1000102030405060708090a0b0c0d0e0f10
	// 0qjBBlJIfbVLKwnJn4xpLGDr00e
}
