package idtype

import (
	"bytes"
	"testing"
)

func TestIncrementDecrement(t *testing.T) {
	for _, tt := range []struct {
		in, next []byte
		ok       bool
	}{
		{[]byte{0x00, 0x00}, []byte{0x00, 0x01}, true},
		{[]byte{0x00, 0xFF}, []byte{0x01, 0x00}, true},
		{[]byte{0x12, 0xFF, 0xFF}, []byte{0x13, 0x00, 0x00}, true},
		{[]byte{0xFF, 0xFF}, []byte{0xFF, 0xFF}, false}, // no successor: unchanged
	} {
		b := bytes.Clone(tt.in)
		if ok := Increment(b); ok != tt.ok || !bytes.Equal(b, tt.next) {
			t.Errorf("Increment(%x) = %x, %v; want %x, %v", tt.in, b, ok, tt.next, tt.ok)
		}
		if !tt.ok {
			continue
		}
		if ok := Decrement(b); !ok || !bytes.Equal(b, tt.in) {
			t.Errorf("Decrement(%x) = %x, %v; want %x, true", tt.next, b, ok, tt.in)
		}
	}
	zero := []byte{0, 0, 0}
	if ok := Decrement(zero); ok || !bytes.Equal(zero, []byte{0, 0, 0}) {
		t.Errorf("Decrement(000000) = %x, %v; want 000000, false", zero, ok)
	}
}

func TestJSONString(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"abc"`, "abc", true},
		{" \t\"abc\"\r\n", "abc", true},
		{`"a\u0062c"`, "abc", true},
		{`""`, "", true},
		{`"abc`, "", false},
		{`"a"b"`, "", false},
		{`abc`, "", false},
		{`null`, "", false},
		{`{"$oid":"x"}`, "", false},
		{``, "", false},
	} {
		got, ok := JSONString([]byte(tt.in))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("JSONString(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStoreAndMust(t *testing.T) {
	v := 1
	if err := Store(&v, 2, errTest); err != errTest || v != 1 {
		t.Errorf("Store with an error: v = %d, err %v; want 1 and the error", v, err)
	}
	if err := Store(&v, 2, nil); err != nil || v != 2 {
		t.Errorf("Store without an error: v = %d, err %v; want 2, nil", v, err)
	}
	defer func() {
		if r := recover(); r != errTest {
			t.Errorf("Must with an error recovered %v, want the error", r)
		}
	}()
	Must(3, errTest)
}

var errTest = testError("test")

type testError string

func (e testError) Error() string { return string(e) }
