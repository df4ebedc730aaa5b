package ksuid

import "slices"

// Sort sorts ids in increasing order, which is time order to the second.
// It runs in O(n log n) time on any input, sorted or not.
func Sort(ids []KSUID) {
	slices.SortFunc(ids, KSUID.Compare)
}

// IsSorted reports whether ids is in increasing order.
func IsSorted(ids []KSUID) bool {
	return slices.IsSortedFunc(ids, KSUID.Compare)
}
