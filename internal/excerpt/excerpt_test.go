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

func TestSource(t *testing.T) {
	for _, tc := range []struct {
		src       any
		showBytes bool
		want      string
	}{
		{[]byte{1, 2}, true, "[]byte of 2 bytes 0x0102"},
		{[]byte("abc"), false, "[]byte of length 3"},
		{"abc", true, "string of length 3"},
		{int64(7), false, `int64 "7"`},
		{strings.Repeat("y", 100), false, "string of length 100"},
		{[]int{1, 2}, false, `[]int "[1 2]"`},
	} {
		if got := excerpt.Source(tc.src, tc.showBytes); got != tc.want {
			t.Errorf("Source(%#v, %v) = %s, want %s", tc.src, tc.showBytes, got, tc.want)
		}
	}
}
