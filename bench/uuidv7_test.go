package bench

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	gofrsuuid "github.com/gofrs/uuid/v5"
	googleuuid "github.com/google/uuid"

	"github.com/sortid/sortid/uuidv7"
)

var sinkUUID [16]byte

// uuidV7Makers are the UUIDv7 generators compared: sortid's and its
// peers'. Go 1.27's standard uuid.NewV7 joins them in a file that only
// that release builds (stduuid_test.go): run the benchmarks with
// GOTOOLCHAIN=go1.27.3 to have all four in one run.
var uuidV7Makers = []struct {
	name string
	make func() [16]byte
}{
	{"sortid", func() [16]byte { return uuidv7.New() }},
	{"google", func() [16]byte { return googleuuid.Must(googleuuid.NewV7()) }},
	{"gofrs", func() [16]byte { return gofrsuuid.Must(gofrsuuid.NewV7()) }},
}

// BenchmarkUUIDv7New: one new UUIDv7, from one goroutine and from all.
func BenchmarkUUIDv7New(b *testing.B) {
	for _, m := range uuidV7Makers {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkUUID = m.make()
			}
		})
	}
	for _, m := range uuidV7Makers {
		b.Run(m.name+"-parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var id [16]byte
				for pb.Next() {
					id = m.make()
				}
				_ = id
			})
		})
	}
}

// tortureIDs is how many IDs one torture run makes, across its
// goroutines.
const tortureIDs = 10_000_000

// BenchmarkUUIDv7Torture makes 10^7 UUIDv7s with each generator, from 1
// and from 8 goroutines, and reports:
//
//   - out-of-order: IDs not above the one the same goroutine made before
//     (a goroutine's IDs are made one after another, so they must rise);
//   - duplicates: IDs made twice, over all goroutines;
//   - max-lead-ms: the most an ID's millisecond ran ahead of the wall
//     clock read just after it was made (0 for a generator that never
//     dates an ID in the future).
//
// Run with -benchtime 1x: each iteration is a whole run.
func BenchmarkUUIDv7Torture(b *testing.B) {
	for _, m := range uuidV7Makers {
		for _, goroutines := range []int{1, 8} {
			b.Run(m.name+"/goroutines="+strconv.Itoa(goroutines), func(b *testing.B) {
				for b.Loop() {
					outOfOrder, duplicates, lead := torture(m.make, goroutines)
					b.ReportMetric(float64(outOfOrder), "out-of-order")
					b.ReportMetric(float64(duplicates), "duplicates")
					b.ReportMetric(float64(lead), "max-lead-ms")
				}
			})
		}
	}
}

func torture(newID func() [16]byte, goroutines int) (outOfOrder, duplicates, maxLead int64) {
	per := tortureIDs / goroutines
	all := make([][16]byte, per*goroutines)
	outs := make([]int64, goroutines)
	leads := make([]int64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			ids := all[g*per : (g+1)*per]
			var prev [16]byte
			lead := int64(-1 << 62)
			for i := range ids {
				id := newID()
				now := time.Now().UnixMilli()
				if bytes.Compare(id[:], prev[:]) <= 0 && i > 0 {
					outs[g]++
				}
				if l := int64(binary.BigEndian.Uint64(id[:8])>>16) - now; l > lead {
					lead = l
				}
				ids[i], prev = id, id
			}
			leads[g] = lead
		})
	}
	wg.Wait()
	slices.SortFunc(all, func(a, b [16]byte) int { return bytes.Compare(a[:], b[:]) })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			duplicates++
		}
	}
	for g := range goroutines {
		outOfOrder += outs[g]
		maxLead = max(maxLead, leads[g])
	}
	return outOfOrder, duplicates, max(maxLead, 0)
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
