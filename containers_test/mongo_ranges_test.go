package containers

import (
	"math/rand/v2"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
)

// TestMongoKSUIDFieldRangesMatchKSUIDsOnly: range filters over a field
// that holds KSUIDs in both forms and values of the same BSON types that
// are not KSUIDs (a 16-byte UUID, a 20-byte binary of subtype 0x80, a
// 21-byte binary, short strings, a 27-character string with a hyphen):
// 320 random ranges each match exactly the KSUIDs the truth says. Before,
// 160 of 320 differed.
func TestMongoKSUIDFieldRangesMatchKSUIDsOnly(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var ids []ksuid.KSUID
	var docs []any
	for i := range 60 {
		id := must(ksuid.NewAt(base.Add(time.Duration(rng.IntN(86400)) * time.Second)))
		ids = append(ids, id)
		if i%2 == 0 {
			docs = append(docs, bson.D{{Key: "k", Value: bson.Binary{Subtype: 0, Data: id.Bytes()}}})
		} else {
			docs = append(docs, bson.D{{Key: "k", Value: id.String()}})
		}
	}
	high := make([]byte, 20)
	for i := range high {
		high[i] = 0xff
	}
	for _, junk := range []any{
		bson.Binary{Subtype: 4, Data: make([]byte, 16)},
		bson.Binary{Subtype: 0, Data: make([]byte, 16)},
		bson.Binary{Subtype: 0x80, Data: ids[0].Bytes()},
		bson.Binary{Subtype: 0, Data: append(high, 0)},
		"short", "Zebra", "0", "zzzzzzzzzzzzzzzzzzzzzzzzzzzz",
		"0qjBBlJIfbVLK-nJn4xpLGDr00e", ids[1].String()[:26],
	} {
		docs = append(docs, bson.D{{Key: "k", Value: junk}})
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	f := bsoncodec.KSUIDField("k")
	wrong := 0
	for q := range 320 {
		a, b := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
		if b.Compare(a) < 0 {
			a, b = b, a
		}
		var filter bsoncodec.Filter
		var want int64
		for _, id := range ids {
			c, d := id.Compare(a), id.Compare(b)
			switch q % 5 {
			case 0:
				if c > 0 {
					want++
				}
			case 1:
				if c >= 0 {
					want++
				}
			case 2:
				if c < 0 {
					want++
				}
			case 3:
				if c <= 0 {
					want++
				}
			case 4:
				if c >= 0 && d <= 0 {
					want++
				}
			}
		}
		filter = [...]bsoncodec.Filter{f.Gt(a), f.Gte(a), f.Lt(a), f.Lte(a), f.Between(a, b)}[q%5]
		got, err := coll.CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			wrong++
			if wrong <= 5 {
				t.Errorf("query %d (%d): %d documents, want %d", q, q%5, got, want)
			}
		}
	}
	if wrong != 0 {
		t.Errorf("%d of 320 ranges differed from the truth", wrong)
	}
}
