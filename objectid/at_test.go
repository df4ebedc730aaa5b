package objectid_test

import (
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

func TestMustMinMaxAt(t *testing.T) {
	at := time.Unix(1623484646, 0)
	if objectid.MustMinAt(at).String() != "60c468e60000000000000000" || objectid.MustMaxAt(at).String() != "60c468e6ffffffffffffffff" {
		t.Errorf("MustMinAt/MustMaxAt = %v, %v", objectid.MustMinAt(at), objectid.MustMaxAt(at))
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("MustMinAt of a time out of range did not panic")
		}
	}()
	objectid.MustMinAt(time.Unix(-1, 0))
}
