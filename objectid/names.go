package objectid

import (
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Nil is the zero ObjectID, 000000000000000000000000: the smallest, and
// the value of an ObjectID variable that holds none. It is a value like any
// other, never SQL NULL. Do not assign to it.
var Nil ObjectID

// Max is the largest ObjectID, ffffffffffffffffffffffff. Do not assign to
// it.
var Max = ObjectID{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}

// MustMinAt is MinAt for times known to be in range, for use inline; it
// panics where MinAt returns an error.
func MustMinAt(t time.Time) ObjectID { return idtype.Must(MinAt(t)) }

// MustMaxAt is MaxAt for times known to be in range, for use inline; it
// panics where MaxAt returns an error.
func MustMaxAt(t time.Time) ObjectID { return idtype.Must(MaxAt(t)) }
