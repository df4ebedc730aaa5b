package objectid

import (
	"bytes"
	"slices"

	"github.com/sortid/sortid/internal/idtype"
)

// Compare returns -1, 0 or +1 as id sorts before, equal to or after other.
// Byte order, text order and time order (to the second) agree.
func (id ObjectID) Compare(other ObjectID) int { return bytes.Compare(id[:], other[:]) }

// Next returns the ObjectID that follows id in sort order, id plus one as
// a 96-bit number, and true. For the largest ObjectID, which has no
// successor, it returns id and false.
func (id ObjectID) Next() (ObjectID, bool) {
	ok := idtype.Increment(id[:])
	return id, ok
}

// Prev returns the ObjectID that precedes id in sort order, id minus one
// as a 96-bit number, and true. For the zero ObjectID, which has no
// predecessor, it returns the zero ObjectID and false.
func (id ObjectID) Prev() (ObjectID, bool) {
	ok := idtype.Decrement(id[:])
	return id, ok
}

// Sort sorts ids in increasing order, which is time order to the second.
// It runs in O(n log n) time on any input, sorted or not.
func Sort(ids []ObjectID) { slices.SortFunc(ids, ObjectID.Compare) }

// IsSorted reports whether ids is in increasing order.
func IsSorted(ids []ObjectID) bool { return slices.IsSortedFunc(ids, ObjectID.Compare) }
