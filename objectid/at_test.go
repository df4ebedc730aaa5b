package objectid_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sortid/sortid/objectid"
)

func TestNilAndMax(t *testing.T) {
	if objectid.Nil.String() != "000000000000000000000000" || !objectid.Nil.IsZero() {
		t.Errorf("Nil = %v", objectid.Nil)
	}
	if objectid.Max.String() != "ffffffffffffffffffffffff" {
		t.Errorf("Max = %v", objectid.Max)
	}
}

func TestMinMaxAt(t *testing.T) {
	at := time.Unix(1623484646, 0)
	lo, errLo := objectid.MinAt(at)
	hi, errHi := objectid.MaxAt(at)
	if lo.String() != "60c468e60000000000000000" || hi.String() != "60c468e6ffffffffffffffff" || errLo != nil || errHi != nil {
		t.Errorf("MinAt, MaxAt = %v (%v), %v (%v)", lo, errLo, hi, errHi)
	}
	if id, err := objectid.MinAt(time.Unix(-1, 0)); !errors.Is(err, objectid.ErrTimeRange) || !id.IsZero() {
		t.Errorf("MinAt(1969) = %v, %v; want the zero ObjectID and ErrTimeRange", id, err)
	}
}
