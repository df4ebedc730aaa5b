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
