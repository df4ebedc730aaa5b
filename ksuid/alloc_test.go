package ksuid_test

import (
	"testing"

	"github.com/sortid/sortid/ksuid"
)

// payloadSink keeps the compiler from dropping the call under test.
var payloadSink [ksuid.PayloadSize]byte

// TestNoAllocs checks that the hot paths of parsing and encoding do not
// allocate. New is checked in alloc_norace_test.go, because the race
// detector makes sync.Pool drop items on purpose.
func TestNoAllocs(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	text := []byte(id.String())
	buf := make([]byte, 0, 64)
	var sink ksuid.KSUID
	var nullSink ksuid.NullKSUID
	var rawSrc, textSrc any = id[:], id.String()
	quoted := []byte(`"` + id.String() + `"`)
	tests := map[string]func(){
		"Parse":         func() { sink, _ = ksuid.Parse("0qjBBlJIfbVLKwnJn4xpLGDr00e") },
		"UnmarshalText": func() { _ = sink.UnmarshalText(text) },
		"AppendText":    func() { buf, _ = id.AppendText(buf[:0]) },
		"AppendBinary":  func() { buf, _ = id.AppendBinary(buf[:0]) },
		"UnmarshalBinary": func() {
			_ = sink.UnmarshalBinary(id[:])
		},
		"Compare": func() { _ = id.Compare(sink) },
		"Time":    func() { _ = id.Time() },
		"Payload": func() { payloadSink = id.Payload() },
		// The database/sql read path, the Null type's too (the sources are
		// boxed once, outside the measured calls, as a driver boxes them).
		"Scan(bytes)":             func() { _ = sink.Scan(rawSrc) },
		"Scan(string)":            func() { _ = sink.Scan(textSrc) },
		"NullKSUID.Scan":          func() { _ = nullSink.Scan(rawSrc) },
		"NullKSUID.UnmarshalJSON": func() { _ = nullSink.UnmarshalJSON(quoted) },
	}
	for name, f := range tests {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if sink != id || nullSink != (ksuid.NullKSUID{KSUID: id, Valid: true}) {
		t.Errorf("decoded %v and %+v, want %v", sink, nullSink, id)
	}
}
