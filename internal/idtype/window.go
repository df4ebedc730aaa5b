package idtype

import "time"

// Window returns minAt(since) and minAt(until), the half-open bounds of
// the IDs made from since up to, not including, until: the body of each
// ID package's Window. An until before since is an error wrapping the
// package's ErrTimeRange, as is a time minAt refuses.
func Window[T any](s *Spec, since, until time.Time, minAt func(time.Time) (T, error)) (lo, hi T, err error) {
	var zero T
	if until.Before(since) {
		return zero, zero, s.Errorf("window until "+until.UTC().Format(time.RFC3339Nano)+
			" is before since "+since.UTC().Format(time.RFC3339Nano), s.ErrTimeRange)
	}
	if lo, err = minAt(since); err != nil {
		return zero, zero, err
	}
	if hi, err = minAt(until); err != nil {
		return zero, zero, err
	}
	return lo, hi, nil
}
