package uuidv7_test

import (
	"errors"
	"testing"

	"github.com/sortid/sortid/uuidv7"
)

// TestNoAllocs checks that the hot paths of parsing, encoding and
// scanning do not allocate, as ksuid's and objectid's do not.
func TestNoAllocs(t *testing.T) {
	id := uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	text := []byte(id.String())
	buf := make([]byte, 0, 64)
	var sink uuidv7.UUID
	var nullSink uuidv7.NullUUID
	var rawSrc, textSrc any = id[:], id.String()
	tests := map[string]func(){
		"Parse":           func() { sink, _ = uuidv7.Parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f") },
		"UnmarshalText":   func() { _ = sink.UnmarshalText(text) },
		"AppendText":      func() { buf, _ = id.AppendText(buf[:0]) },
		"Compare":         func() { _ = id.Compare(sink) },
		"Scan(bytes)":     func() { _ = sink.Scan(rawSrc) },
		"Scan(string)":    func() { _ = sink.Scan(textSrc) },
		"NullUUID.Scan":   func() { _ = nullSink.Scan(rawSrc) },
		"UnmarshalBinary": func() { _ = sink.UnmarshalBinary(id[:]) },
	}
	for name, f := range tests {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if sink != id || nullSink != (uuidv7.NullUUID{UUID: id, Valid: true}) {
		t.Errorf("decoded %v and %+v, want %v", sink, nullSink, id)
	}
}

// TestScanVersionLeavesReceiver: 16 bytes (or bytea's \x form) of a UUID
// of another version are an error wrapping ErrVersion, and the receiver
// is never written, not even for a moment.
func TestScanVersionLeavesReceiver(t *testing.T) {
	keep := uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	v4 := []byte{0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x4c, 0xc3, 0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f}
	for _, src := range []any{v4, `\x017f22e279b04cc398c4dc0c0c07398f`} {
		got := keep
		if err := got.Scan(src); !errors.Is(err, uuidv7.ErrVersion) || got != keep {
			t.Errorf("Scan(%v) = %v, %v; want ErrVersion and the receiver unchanged", src, got, err)
		}
	}
}
