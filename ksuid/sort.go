package ksuid

import (
	"bytes"
	"slices"

	"github.com/sortid/sortid/internal/idtype"
)

// Compare returns -1, 0 or +1 as id sorts before, equal to or after other.
// Byte order, text order and time order (to the second) agree.
func (id KSUID) Compare(other KSUID) int { return bytes.Compare(id[:], other[:]) }

// Next returns the KSUID that follows id in sort order, id plus one as a
// 160-bit number (a full payload carries into the timestamp), and true.
// For the largest KSUID, which has no successor, it returns id and false.
func (id KSUID) Next() (KSUID, bool) {
	ok := idtype.Increment(id[:])
	return id, ok
}

// Prev returns the KSUID that precedes id in sort order, id minus one as
// a 160-bit number, and true. For the zero KSUID, which has no
// predecessor, it returns the zero KSUID and false.
func (id KSUID) Prev() (KSUID, bool) {
	ok := idtype.Decrement(id[:])
	return id, ok
}

// Sort sorts ids in increasing order, which is time order to the second.
// It runs in O(n log n) time on any input, sorted or not.
func Sort(ids []KSUID) { slices.SortFunc(ids, KSUID.Compare) }

// IsSorted reports whether ids is in increasing order.
func IsSorted(ids []KSUID) bool { return slices.IsSortedFunc(ids, KSUID.Compare) }
