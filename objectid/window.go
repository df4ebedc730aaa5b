package objectid

import (
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Window returns the bounds of the IDs made from since up to, not
// including, until, to the second (what an ObjectID holds; MinAt and MaxAt
// truncate a time to its second too). Ask for them half-open:
//
//	WHERE id >= lo AND id < hi
//
// Both bounds are MinAt, so adjacent windows, [a, b) then [b, c), share
// no ID and miss none: the IDs of b's second are in the second window
// only. (BETWEEN MinAt(a) AND MaxAt(b) would count b's second in both.) A
// since and until in the same second give an empty window. An until
// before since, or a time MinAt refuses, is an error wrapping
// ErrTimeRange.
func Window(since, until time.Time) (lo, hi ObjectID, err error) {
	return idtype.Window(&spec, since, until, MinAt)
}
