package byteahex

import (
	"bytes"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []byte
		bad  int
	}{
		{`\x0aFf10`, []byte{0x0a, 0xff, 0x10}, -1},
		{`\x0g0000`, nil, 3},
		{`\xz00000`, nil, 2},
		{`\x0000 0`, nil, 6},
	} {
		if !Is(tc.in, 3) || !Is([]byte(tc.in), 3) {
			t.Fatalf("Is(%q, 3) = false", tc.in)
		}
		got := make([]byte, 3)
		off, ok := Decode(got, tc.in)
		if tc.bad >= 0 {
			if ok || off != tc.bad {
				t.Errorf("Decode(%q) = %d, %v; want offset %d", tc.in, off, ok, tc.bad)
			}
			continue
		}
		if !ok || !bytes.Equal(got, tc.want) {
			t.Errorf("Decode(%q) = %x, %v; want %x", tc.in, got, ok, tc.want)
		}
	}
	for _, s := range []string{`\x00000`, `\x0000000`, `x\000000`, `/x000000`, ``} {
		if Is(s, 3) {
			t.Errorf("Is(%q, 3) = true", s)
		}
	}
}
