package migrate

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"testing"
	"time"

	segment "github.com/segmentio/ksuid"

	"github.com/sortid/sortid/ksuid"
)

// Each subtest is a row of the table "From segmentio/ksuid".
func TestFromSegmentio(t *testing.T) {
	const text = "0ujtsYcgvSTl8PAuAdqWYSMnLOv"
	seg, _ := segment.Parse(text)
	ours := ksuid.MustParse(text)

	t.Run("Parse, FromBytes, FromParts, Nil, Max, Sort, IsSorted", func(t *testing.T) {
		p, err := ksuid.Parse(text)
		if err != nil || p.String() != seg.String() {
			t.Errorf("Parse = %v, %v; segmentio %v", p, err, seg)
		}
		b, err := ksuid.FromBytes(seg.Bytes())
		if err != nil || b != ours {
			t.Errorf("FromBytes = %v, %v", b, err)
		}
		at := time.Unix(1500000000, 0)
		sp, _ := segment.FromParts(at, seg.Payload())
		op, err := ksuid.FromParts(at, seg.Payload())
		if err != nil || op.String() != sp.String() {
			t.Errorf("FromParts = %v, %v; segmentio %v", op, err, sp)
		}
		if ksuid.Nil.String() != segment.Nil.String() || ksuid.Max.String() != segment.Max.String() {
			t.Errorf("Nil, Max = %v, %v; segmentio %v, %v", ksuid.Nil, ksuid.Max, segment.Nil, segment.Max)
		}
		var segIDs []segment.KSUID
		var ourIDs []ksuid.KSUID
		for range 50 {
			s := segment.New()
			segIDs, ourIDs = append(segIDs, s), append(ourIDs, ksuid.MustParse(s.String()))
		}
		segment.Sort(segIDs)
		ksuid.Sort(ourIDs)
		for i := range segIDs {
			if segIDs[i].String() != ourIDs[i].String() {
				t.Fatalf("Sort: position %d is %v, segmentio %v", i, ourIDs[i], segIDs[i])
			}
		}
		if !ksuid.IsSorted(ourIDs) || segment.IsSorted(segIDs) != ksuid.IsSorted(ourIDs) {
			t.Error("IsSorted disagrees")
		}
	})
	t.Run("Time, Timestamp, Bytes, String", func(t *testing.T) {
		if !ours.Time().Equal(seg.Time()) || ours.Timestamp() != seg.Timestamp() ||
			!bytes.Equal(ours.Bytes(), seg.Bytes()) || ours.String() != seg.String() {
			t.Errorf("ours %v %d %x %s; segmentio %v %d %x %s", ours.Time(), ours.Timestamp(), ours.Bytes(), ours,
				seg.Time(), seg.Timestamp(), seg.Bytes(), seg)
		}
	})
	t.Run("Payload is an array", func(t *testing.T) {
		p := ours.Payload()
		if !bytes.Equal(p[:], seg.Payload()) {
			t.Errorf("Payload %x, segmentio %x", p, seg.Payload())
		}
	})
	t.Run("NewRandom is NewGenerator().New", func(t *testing.T) {
		id, err := ksuid.NewGenerator().New()
		if err != nil || time.Since(id.Time()) > time.Minute || id.IsZero() {
			t.Errorf("NewGenerator().New() = %v, %v", id, err)
		}
	})
	t.Run("NewRandomWithTime is NewAt", func(t *testing.T) {
		at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
		s, _ := segment.NewRandomWithTime(at)
		o, err := ksuid.NewAt(at)
		if err != nil || !o.Time().Equal(s.Time()) {
			t.Errorf("NewAt dated %v, segmentio %v", o.Time(), s.Time())
		}
	})
	t.Run("IsNil is IsZero", func(t *testing.T) {
		if ksuid.Nil.IsZero() != segment.Nil.IsNil() || ours.IsZero() != seg.IsNil() {
			t.Error("IsZero disagrees with IsNil")
		}
	})
	t.Run("Compare is a method", func(t *testing.T) {
		a, b := segment.New(), segment.New()
		if got := ksuid.MustParse(a.String()).Compare(ksuid.MustParse(b.String())); got != segment.Compare(a, b) {
			t.Errorf("Compare = %d, segmentio %d", got, segment.Compare(a, b))
		}
	})
	t.Run("Next, Prev return false at the ends", func(t *testing.T) {
		n, ok := ours.Next()
		if !ok || n.String() != seg.Next().String() {
			t.Errorf("Next = %v, %v; segmentio %v", n, ok, seg.Next())
		}
		p, ok := ours.Prev()
		if !ok || p.String() != seg.Prev().String() {
			t.Errorf("Prev = %v, %v; segmentio %v", p, ok, seg.Prev())
		}
		if segment.Max.Next() != segment.Nil {
			t.Errorf("segmentio's Max.Next() = %v; the row says it wraps to Nil", segment.Max.Next())
		}
		if _, ok := ksuid.Max.Next(); ok {
			t.Error("Max.Next() reports a next ID; sortid must say false")
		}
	})
	t.Run("Sequence is a monotonic generator", func(t *testing.T) {
		g := ksuid.NewGenerator(ksuid.WithMonotonic())
		ids := make([]ksuid.KSUID, 1000)
		for i := range ids {
			id, err := g.New()
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = id
		}
		for i := 1; i < len(ids); i++ {
			if ids[i].Compare(ids[i-1]) <= 0 {
				t.Fatalf("ID %d, %v, is not after %v: a monotonic generator's IDs must strictly increase", i, ids[i], ids[i-1])
			}
		}
	})
	t.Run("SetRand is WithRand, per generator", func(t *testing.T) {
		zero := bytes.NewReader(make([]byte, 64))
		id, err := ksuid.NewGenerator(ksuid.WithRand(zero)).New()
		p := id.Payload()
		if err != nil || !bytes.Equal(p[3:], make([]byte, 13)) {
			t.Errorf("WithRand of zeros gave payload %x, %v", p, err)
		}
	})
	t.Run("both refuse text above Max", func(t *testing.T) {
		if _, err := segment.Parse("aWgEPTl1tmebfsQzFP4bxwgy80W"); err == nil {
			t.Error("segmentio parses a value above Max")
		}
		if _, err := ksuid.Parse("aWgEPTl1tmebfsQzFP4bxwgy80W"); !errors.Is(err, ksuid.ErrOverflow) {
			t.Errorf("Parse above Max: %v, want ErrOverflow", err)
		}
	})
	t.Run("the zero KSUID in SQL", func(t *testing.T) {
		sv, _ := segment.Nil.Value()
		ov, _ := ksuid.Nil.Value()
		if sv != nil {
			t.Errorf("segmentio writes Nil as %v; the row says NULL", sv)
		}
		if ov == nil {
			t.Error("sortid writes Nil as NULL; the row says the value")
		}
		var s segment.KSUID
		if err := s.Scan(nil); err != nil || !s.IsNil() {
			t.Errorf("segmentio scans NULL to %v, %v; the row says Nil", s, err)
		}
		var o ksuid.KSUID
		if err := o.Scan(nil); !errors.Is(err, ksuid.ErrNull) {
			t.Errorf("sortid scans NULL: %v, want ErrNull", err)
		}
		var n ksuid.NullKSUID
		if err := n.Scan(nil); err != nil || n.Valid {
			t.Errorf("NullKSUID scans NULL to %+v, %v", n, err)
		}
		if v, _ := (ksuid.NullKSUID{}).Value(); v != driver.Value(nil) {
			t.Errorf("an invalid NullKSUID writes %v, want NULL", v)
		}
	})
}
