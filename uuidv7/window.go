package uuidv7

import (
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Window returns the bounds of the IDs made from since up to, not
// including, until, to the millisecond (what a UUIDv7 holds; MinAt and MaxAt
// truncate a time to its millisecond too). Ask for them half-open:
//
//	WHERE id >= lo AND id < hi
//
// Both bounds are MinAt, so adjacent windows, [a, b) then [b, c), share
// no ID and miss none: the IDs of b's millisecond are in the second window
// only. (BETWEEN MinAt(a) AND MaxAt(b) would count b's millisecond in both.) A
// since and until in the same millisecond give an empty window. An until
// before since, or a time MinAt refuses, is an error wrapping
// ErrTimeRange.
func Window(since, until time.Time) (lo, hi UUID, err error) {
	return idtype.Window(&spec, since, until, MinAt)
}
