//go:build !race

package sqltype

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
)

// An ID into the extension's type in binary format, the path of every
// write and COPY, allocates nothing.
func TestExtensionEncodeNoAllocs(t *testing.T) {
	m := extensionMap()
	var v any = ksuid.New()
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(1000, func() {
		buf, _ = m.Encode(extensionOID, pgtype.BinaryFormatCode, v, buf[:0])
	}); n != 0 {
		t.Errorf("%v allocations per encode, want 0", n)
	}
}

// Scanning the extension's type into the ID types, every row read,
// allocates nothing either.
func TestExtensionScanNoAllocs(t *testing.T) {
	m := extensionMap()
	id := ksuid.New()
	var got ksuid.KSUID
	var null ksuid.NullKSUID
	for _, target := range []any{&got, &null} {
		plan := m.PlanScan(extensionOID, pgtype.BinaryFormatCode, target)
		if n := testing.AllocsPerRun(1000, func() {
			if err := plan.Scan(id[:], target); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%T: %v allocations per scan, want 0", target, n)
		}
	}
	if got != id || null.KSUID != id || !null.Valid {
		t.Errorf("scanned %v, %v; want %v", got, null, id)
	}
}
