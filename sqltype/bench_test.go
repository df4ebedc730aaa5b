package sqltype_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
)

// What Register's bytea guard adds to a []byte for a bytea column,
// against pgx alone.
func BenchmarkEncodeBytea(b *testing.B) {
	id := ksuid.New()
	var raw any = id[:]
	buf := make([]byte, 0, 64)
	for _, tc := range []struct {
		name string
		m    *pgtype.Map
	}{{"registered", newMap()}, {"pgx-alone", pgtype.NewMap()}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				buf, _ = tc.m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, raw, buf[:0])
			}
		})
	}
}

// What sqltype adds to encoding a KSUID for a text column, against the
// plain string.
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
