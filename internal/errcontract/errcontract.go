// Package errcontract checks, for the tests of the ID packages, the one
// contract every decoder's error keeps: it wraps one of the package's
// sentinels, carries the package's prefix, quotes the input bounded, and
// comes with the receiver unchanged.
package errcontract

import (
	"errors"
	"strings"
	"testing"
)

// MaxMessage is the longest error message a decoder may return, whatever
// the size of its input.
const MaxMessage = 400

// Check reports through t what breaks the contract: err must be non-nil,
// wrap one of sentinels, start with prefix and be at most MaxMessage bytes
// long; changed must be false.
func Check(t testing.TB, prefix string, sentinels []error, what string, err error, changed bool) {
	t.Helper()
	wraps := false
	for _, s := range sentinels {
		wraps = wraps || errors.Is(err, s)
	}
	switch {
	case err == nil:
		t.Errorf("%s: no error", what)
	case !wraps:
		t.Errorf("%s: error %q wraps no sentinel of the package", what, err)
	case !strings.HasPrefix(err.Error(), prefix):
		t.Errorf("%s: error %q lacks the %s prefix", what, err, prefix)
	case len(err.Error()) > MaxMessage:
		t.Errorf("%s: error message of %d bytes; the input must be quoted bounded", what, len(err.Error()))
	}
	if changed {
		t.Errorf("%s: receiver changed on error", what)
	}
}
