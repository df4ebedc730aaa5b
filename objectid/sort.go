package objectid

import "slices"

// Sort sorts ids in increasing order, which is time order to the second.
// It runs in O(n log n) time on any input, sorted or not.
func Sort(ids []ObjectID) {
	slices.SortFunc(ids, ObjectID.Compare)
}

// IsSorted reports whether ids is in increasing order.
func IsSorted(ids []ObjectID) bool {
	return slices.IsSortedFunc(ids, ObjectID.Compare)
}
