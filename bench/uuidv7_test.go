package bench

import (
	"testing"

	googleuuid "github.com/google/uuid"

	"github.com/sortid/sortid/uuidv7"
)

var sinkUUID [16]byte

// BenchmarkUUIDv7New: sortid's monotonic UUIDv7 against google/uuid's
// NewV7, one goroutine and all of them.
func BenchmarkUUIDv7New(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkUUID = uuidv7.New()
		}
	})
	b.Run("google", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkUUID = googleuuid.Must(googleuuid.NewV7())
		}
	})
	b.Run("sortid-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_ = uuidv7.New()
			}
		})
	})
	b.Run("google-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_ = googleuuid.Must(googleuuid.NewV7())
			}
		})
	})
}

// BenchmarkUUIDv7Text: the text form both ways.
func BenchmarkUUIDv7Text(b *testing.B) {
	id := uuidv7.New()
	s := id.String()
	g := googleuuid.UUID(id)
	b.Run("String/sortid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = id.String()
		}
	})
	b.Run("String/google", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = g.String()
		}
	})
	b.Run("Parse/sortid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkUUID, _ = uuidv7.Parse(s)
		}
	})
	b.Run("Parse/google", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkUUID, _ = googleuuid.Parse(s)
		}
	})
}
