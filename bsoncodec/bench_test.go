package bsoncodec_test

import (
	"bytes"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

type benchDoc[T any] struct {
	ID    T      `bson:"_id"`
	Name  string `bson:"name"`
	Count int64  `bson:"count"`
}

// benchCodec encodes and decodes one document through reg, reusing the
// buffer, as a driver does per document.
func benchCodec[T any](b *testing.B, reg *bson.Registry, doc benchDoc[T]) {
	b.Run("encode", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			enc := bson.NewEncoder(bson.NewDocumentWriter(&buf))
			enc.SetRegistry(reg)
			if err := enc.Encode(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		var buf bytes.Buffer
		enc := bson.NewEncoder(bson.NewDocumentWriter(&buf))
		enc.SetRegistry(reg)
		if err := enc.Encode(doc); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		var out benchDoc[T]
		for b.Loop() {
			dec := bson.NewDecoder(bson.NewDocumentReader(bytes.NewReader(data)))
			dec.SetRegistry(reg)
			if err := dec.Decode(&out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDocument(b *testing.B) {
	reg, def := bsoncodec.NewRegistry(), bson.NewRegistry()
	b.Run("driver-ObjectID", func(b *testing.B) {
		benchCodec(b, def, benchDoc[bson.ObjectID]{bson.NewObjectID(), "sortid", 42})
	})
	b.Run("ObjectID-bsoncodec", func(b *testing.B) {
		benchCodec(b, reg, benchDoc[objectid.ObjectID]{objectid.New(), "sortid", 42})
	})
	b.Run("KSUID-bsoncodec", func(b *testing.B) {
		benchCodec(b, reg, benchDoc[ksuid.KSUID]{ksuid.New(), "sortid", 42})
	})
	b.Run("KSUID-binary-as-older-code-wrote", func(b *testing.B) {
		benchCodec(b, binaryWriter(), benchDoc[ksuid.KSUID]{ksuid.New(), "sortid", 42})
	})
	b.Run("KSUID-default-registry", func(b *testing.B) {
		benchCodec(b, def, benchDoc[ksuid.KSUID]{ksuid.New(), "sortid", 42})
	})
}
