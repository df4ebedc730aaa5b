package bench

import (
	"testing"

	segmentio "github.com/segmentio/ksuid"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// Each pair of benchmarks does the same job with sortid and with the peer
// the README compares against; run them in one go so the figures share a
// machine state.

var (
	sinkKSUID     ksuid.KSUID
	sinkSegmentio segmentio.KSUID
	sinkObjectID  objectid.ObjectID
	sinkBSON      bson.ObjectID
	sinkString    string
	sinkBytes     []byte
)

func BenchmarkKSUIDNew(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		for b.Loop() {
			sinkKSUID = ksuid.New()
		}
	})
	b.Run("segmentio", func(b *testing.B) {
		for b.Loop() {
			sinkSegmentio = segmentio.New()
		}
	})
}

// BenchmarkKSUIDNewMonotonic compares a monotonic generator, which needs
// the fraction of the second and takes a lock, with segmentio's New.
func BenchmarkKSUIDNewMonotonic(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		g := ksuid.NewGenerator(ksuid.WithMonotonic())
		for b.Loop() {
			sinkKSUID, _ = g.New()
		}
	})
	b.Run("segmentio", func(b *testing.B) {
		for b.Loop() {
			sinkSegmentio = segmentio.New()
		}
	})
}

func BenchmarkKSUIDNewParallel(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var id ksuid.KSUID
			for pb.Next() {
				id = ksuid.New()
			}
			_ = id
		})
	})
	b.Run("segmentio", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var id segmentio.KSUID
			for pb.Next() {
				id = segmentio.New()
			}
			_ = id
		})
	})
}

func BenchmarkKSUIDEncode(b *testing.B) {
	id := ksuid.New()
	seg, _ := segmentio.FromBytes(id[:])
	b.Run("sortid-AppendText", func(b *testing.B) {
		buf := make([]byte, 0, ksuid.EncodedLen)
		for b.Loop() {
			buf, _ = id.AppendText(buf[:0])
		}
		sinkBytes = buf
	})
	b.Run("sortid-String", func(b *testing.B) {
		for b.Loop() {
			sinkString = id.String()
		}
	})
	b.Run("segmentio-String", func(b *testing.B) {
		for b.Loop() {
			sinkString = seg.String()
		}
	})
}

func BenchmarkKSUIDParse(b *testing.B) {
	s := ksuid.New().String()
	b.Run("sortid", func(b *testing.B) {
		for b.Loop() {
			sinkKSUID, _ = ksuid.Parse(s)
		}
	})
	b.Run("segmentio", func(b *testing.B) {
		for b.Loop() {
			sinkSegmentio, _ = segmentio.Parse(s)
		}
	})
}

func BenchmarkObjectIDNew(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		for b.Loop() {
			sinkObjectID = objectid.New()
		}
	})
	b.Run("mongo-driver", func(b *testing.B) {
		for b.Loop() {
			sinkBSON = bson.NewObjectID()
		}
	})
}

func BenchmarkObjectIDNewParallel(b *testing.B) {
	b.Run("sortid", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var id objectid.ObjectID
			for pb.Next() {
				id = objectid.New()
			}
			_ = id
		})
	})
	b.Run("mongo-driver", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var id bson.ObjectID
			for pb.Next() {
				id = bson.NewObjectID()
			}
			_ = id
		})
	})
}

func BenchmarkObjectIDEncode(b *testing.B) {
	id := objectid.New()
	oid := bson.ObjectID(id)
	b.Run("sortid-AppendText", func(b *testing.B) {
		buf := make([]byte, 0, objectid.EncodedLen)
		for b.Loop() {
			buf, _ = id.AppendText(buf[:0])
		}
		sinkBytes = buf
	})
	b.Run("sortid-String", func(b *testing.B) {
		for b.Loop() {
			sinkString = id.String()
		}
	})
	b.Run("mongo-driver-Hex", func(b *testing.B) {
		for b.Loop() {
			sinkString = oid.Hex()
		}
	})
}

func BenchmarkObjectIDParse(b *testing.B) {
	s := objectid.New().String()
	b.Run("sortid", func(b *testing.B) {
		for b.Loop() {
			sinkObjectID, _ = objectid.Parse(s)
		}
	})
	b.Run("mongo-driver", func(b *testing.B) {
		for b.Loop() {
			sinkBSON, _ = bson.ObjectIDFromHex(s)
		}
	})
}
