//go:build go1.27

package bench

import "uuid"

// Go 1.27's standard library joins the UUIDv7 comparisons.
func init() {
	uuidV7Makers = append(uuidV7Makers, struct {
		name string
		make func() [16]byte
	}{"stdlib", func() [16]byte { return uuid.NewV7() }})
}
