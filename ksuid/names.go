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

// NewAt returns a KSUID for the time t, laid out as New lays out an ID
// for the current time: the second, the fraction of the second to 2^-24 s,
// then 104 bits from crypto/rand. IDs made by NewAt sort as their times
// do, to the fraction of a second, and interleave with IDs from New and
// from a monotonic Generator in time order. It is the way to date IDs by
// historical times, a backfill from a created_at column above all:
//
//	for i := range rows {
//		rows[i].ID, err = ksuid.NewAt(rows[i].CreatedAt)
//	}
//
// Only times within the same 60 ns tick come out in random order. A
// monotonic Generator given historical times by WithClock is no
// substitute: it never goes back, so it dates every ID after the latest
// time it has seen. A time outside the range a KSUID can hold is an error
// wrapping ErrTimeRange.
func NewAt(t time.Time) (KSUID, error) {
	ts, err := timestampOf(t.Unix())
	if err != nil {
		return KSUID{}, err
	}
	id := withTick(ts, int32(t.Nanosecond()))
	readRandom(id[tickPrefix:])
	return id, nil
}

// MustMinAt is MinAt for times known to be in range, for use inline; it
// panics where MinAt returns an error.
func MustMinAt(t time.Time) KSUID { return idtype.Must(MinAt(t)) }

// MustMaxAt is MaxAt for times known to be in range, for use inline; it
// panics where MaxAt returns an error.
func MustMaxAt(t time.Time) KSUID { return idtype.Must(MaxAt(t)) }
