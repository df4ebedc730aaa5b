package ksuid_test

import (
	"crypto/rand"
	"math/big"
	"strings"
	"testing"

	"github.com/sortid/sortid/ksuid"
)

// The reference codec below is the textbook one, digit by digit with
// math/big: slow and obviously right, to check the chunked fast one.
const refAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func refEncode(raw []byte) string {
	n := new(big.Int).SetBytes(raw)
	base, rem := big.NewInt(62), new(big.Int)
	out := make([]byte, 27)
	for i := 26; i >= 0; i-- {
		n.DivMod(n, base, rem)
		out[i] = refAlphabet[rem.Int64()]
	}
	return string(out)
}

// refDecode returns the 20 bytes for s, or ok false if s is not a KSUID.
func refDecode(s string) (raw []byte, ok bool) {
	if len(s) != 27 {
		return nil, false
	}
	n := new(big.Int)
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(refAlphabet, s[i])
		if d < 0 {
			return nil, false
		}
		n.Mul(n, big.NewInt(62))
		n.Add(n, big.NewInt(int64(d)))
	}
	if n.BitLen() > 160 {
		return nil, false
	}
	return n.FillBytes(make([]byte, 20)), true
}

// edgeValues are values where carries and chunk boundaries bite: powers
// of 62 and of 2 and their neighbours.
func edgeValues() [][]byte {
	var out [][]byte
	limit := new(big.Int).Lsh(big.NewInt(1), 160)
	add := func(n *big.Int) {
		for _, d := range []int64{-1, 0, 1} {
			v := new(big.Int).Add(n, big.NewInt(d))
			if v.Sign() >= 0 && v.Cmp(limit) < 0 {
				out = append(out, v.FillBytes(make([]byte, 20)))
			}
		}
	}
	for k := 0; k <= 27; k++ {
		add(new(big.Int).Exp(big.NewInt(62), big.NewInt(int64(k)), nil))
	}
	for k := 0; k <= 160; k++ {
		add(new(big.Int).Lsh(big.NewInt(1), uint(k)))
	}
	return out
}

func TestBase62AgainstReference(t *testing.T) {
	values := edgeValues()
	for range 20000 {
		raw := make([]byte, 20)
		rand.Read(raw)
		values = append(values, raw)
	}
	for _, raw := range values {
		id, err := ksuid.FromBytes(raw)
		if err != nil {
			t.Fatal(err)
		}
		want := refEncode(raw)
		if got := id.String(); got != want {
			t.Fatalf("String(%x) = %s, reference %s", raw, got, want)
		}
		back, err := ksuid.Parse(want)
		if err != nil || back != id {
			t.Fatalf("Parse(%s) = %x, %v; want %x", want, back[:], err, raw)
		}
	}
}

func TestParseAgainstReference(t *testing.T) {
	// Random 27-character strings over the alphabet: about 60% are above
	// the largest KSUID and must be refused exactly when the reference
	// says so.
	buf := make([]byte, 27)
	for range 20000 {
		rand.Read(buf)
		for i := range buf {
			buf[i] = refAlphabet[int(buf[i])%62]
		}
		s := string(buf)
		want, ok := refDecode(s)
		got, err := ksuid.Parse(s)
		if ok != (err == nil) {
			t.Fatalf("Parse(%s) error = %v, reference valid = %v", s, err, ok)
		}
		if ok && string(got[:]) != string(want) {
			t.Fatalf("Parse(%s) = %x, reference %x", s, got[:], want)
		}
	}
}
