package sqltype_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
)

// What sqltype adds to encoding one parameter, against the plain []byte
// that is the floor for a bytea column.
func BenchmarkEncodeBytea(b *testing.B) {
	m := newMap()
	id := ksuid.New()
	var v any = id
	var raw any = id[:]
	buf := make([]byte, 0, 64)
	b.Run("ksuid", func(b *testing.B) {
		for b.Loop() {
			buf, _ = m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, v, buf[:0])
		}
	})
	b.Run("plain-bytes", func(b *testing.B) {
		for b.Loop() {
			buf, _ = m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, raw, buf[:0])
		}
	})
}

func BenchmarkEncodeText(b *testing.B) {
	m := newMap()
	id := ksuid.New()
	var v any = id
	var s any = id.String()
	buf := make([]byte, 0, 64)
	b.Run("ksuid", func(b *testing.B) {
		for b.Loop() {
			buf, _ = m.Encode(pgtype.TextOID, pgtype.BinaryFormatCode, v, buf[:0])
		}
	})
	b.Run("plain-string", func(b *testing.B) {
		for b.Loop() {
			buf, _ = m.Encode(pgtype.TextOID, pgtype.BinaryFormatCode, s, buf[:0])
		}
	})
}
