package excerpt_test

import (
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/excerpt"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"a\"b", `"a\"b"`},
		{"\xff", `"\xff"`},
		{strings.Repeat("x", 64), `"` + strings.Repeat("x", 64) + `"`},
		{strings.Repeat("x", 65), `"` + strings.Repeat("x", 64) + `"...`},
	} {
		if got := excerpt.Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if got := excerpt.Text([]byte(tc.in)); got != tc.want {
			t.Errorf("Text([]byte(%q)) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{nil, "0 bytes"},
		{[]byte{1, 0xab}, "2 bytes 0x01ab"},
		{make([]byte, 32), "32 bytes 0x" + strings.Repeat("00", 32)},
		{make([]byte, 1<<20), "1048576 bytes 0x" + strings.Repeat("00", 32) + "..."},
	} {
		if got := excerpt.Bytes(tc.in); got != tc.want {
			t.Errorf("Bytes(%d bytes) = %s, want %s", len(tc.in), got, tc.want)
		}
	}
}
