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
	var nullSink objectid.NullObjectID
	var rawSrc, textSrc any = id[:], id.String()
	g := objectid.NewGenerator()
	for name, f := range map[string]func(){
		"New":             func() { fresh = objectid.New() },
		"Generator.New":   func() { fresh, _ = g.New() },
		"Parse":           func() { sink, _ = objectid.Parse("60c468e6101bf215dc9fa835") },
		"UnmarshalText":   func() { _ = sink.UnmarshalText(text) },
		"AppendText":      func() { buf, _ = id.AppendText(buf[:0]) },
		"AppendBinary":    func() { buf, _ = id.AppendBinary(buf[:0]) },
		"UnmarshalBinary": func() { _ = sink.UnmarshalBinary(id[:]) },
		// The database/sql read path, the Null type's too (the sources are
		// boxed once, outside the measured calls, as a driver boxes them).
		"Scan(bytes)":       func() { _ = sink.Scan(rawSrc) },
		"Scan(string)":      func() { _ = sink.Scan(textSrc) },
		"NullObjectID.Scan": func() { _ = nullSink.Scan(rawSrc) },
	} {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if sink != id || nullSink != (objectid.NullObjectID{ObjectID: id, Valid: true}) {
		t.Errorf("decoded %v and %+v, want %v", sink, nullSink, id)
	}
	if fresh.IsZero() {
		t.Error("New returned the zero ObjectID")
	}
}
