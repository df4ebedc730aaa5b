package ksuid

import (
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Nil is the zero KSUID, 000000000000000000000000000: the smallest, and
// the value of a KSUID variable that holds none. It is a value like any
// other, never SQL NULL. Do not assign to it.
var Nil KSUID

// Max is the largest KSUID, aWgEPTl1tmebfsQzFP4bxwgy80V: every byte 0xFF.
// Do not assign to it.
var Max = KSUID{
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
}

// NewAt returns a KSUID for the second of t with a payload of 16 bytes
// from crypto/rand, as New does for the current second: for backfills and
// tests. A time outside the range a KSUID can hold is an error wrapping
// ErrTimeRange.
func NewAt(t time.Time) (KSUID, error) {
	id, err := MinAt(t)
	if err != nil {
		return KSUID{}, err
	}
	readRandom(id[timestampSize:])
	return id, nil
}

// MustMinAt is MinAt for times known to be in range, for use inline; it
// panics where MinAt returns an error.
func MustMinAt(t time.Time) KSUID { return idtype.Must(MinAt(t)) }

// MustMaxAt is MaxAt for times known to be in range, for use inline; it
// panics where MaxAt returns an error.
func MustMaxAt(t time.Time) KSUID { return idtype.Must(MaxAt(t)) }
