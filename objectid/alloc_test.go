package objectid_test

import (
	"testing"

	"github.com/sortid/sortid/objectid"
)

func TestNoAllocs(t *testing.T) {
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	text := []byte(id.String())
	buf := make([]byte, 0, 64)
	var sink, fresh objectid.ObjectID
	g := objectid.NewGenerator()
	for name, f := range map[string]func(){
		"New":             func() { fresh = objectid.New() },
		"Generator.New":   func() { fresh, _ = g.New() },
		"Parse":           func() { sink, _ = objectid.Parse("60c468e6101bf215dc9fa835") },
		"UnmarshalText":   func() { _ = sink.UnmarshalText(text) },
		"AppendText":      func() { buf, _ = id.AppendText(buf[:0]) },
		"AppendBinary":    func() { buf, _ = id.AppendBinary(buf[:0]) },
		"UnmarshalBinary": func() { _ = sink.UnmarshalBinary(id[:]) },
	} {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if sink != id {
		t.Errorf("decoded %v, want %v", sink, id)
	}
	if fresh.IsZero() {
		t.Error("New returned the zero ObjectID")
	}
}
