package ksuid_test

import (
	"testing"

	"github.com/sortid/sortid/ksuid"
)

// Comparisons with other libraries live in the bench module; these track
// this package alone.

var benchSink ksuid.KSUID

func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		benchSink = ksuid.New()
	}
}

func BenchmarkNewParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = ksuid.New()
		}
	})
}

func BenchmarkParse(b *testing.B) {
	s := ksuid.New().String()
	for b.Loop() {
		benchSink, _ = ksuid.Parse(s)
	}
}

func BenchmarkAppendText(b *testing.B) {
	id := ksuid.New()
	buf := make([]byte, 0, ksuid.EncodedLen)
	for b.Loop() {
		buf, _ = id.AppendText(buf[:0])
	}
}
