package containers

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
)

// A field run walks the collection in _id order, each batch after the
// last _id read. A query's $gt matches only its operand's type, so with
// _ids of several types the walk must go on to the types sorted after.
// Here one document per _id type, two per batch: those whose _id sorts
// first hold binary that is no KSUID, so a walk that stopped at the end
// of their types would rewrite nothing and end; every other is rewritten.
func TestMongoNormalizeWalksEveryIDType(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	ids := []any{
		bson.Null{},
		int32(-7), 2.5, int64(1) << 40,
		"a string", "b string",
		bson.D{{Key: "tenant", Value: 1}},
		bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: []byte{1, 2, 3}},
		bson.NewObjectID(),
		false, true,
		bson.NewDateTimeFromTime(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)),
		bson.Timestamp{T: 1, I: 1},
		bson.MaxKey{},
	}
	const notKSUIDs = 4 // null and the numbers
	notKSUID := bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: []byte("not a KSUID")}
	want := make([]ksuid.KSUID, len(ids))
	docs := make([]any, len(ids))
	for i, id := range ids {
		want[i] = ksuid.New()
		ref := any(legacyKSUID(want[i]))
		if i < notKSUIDs {
			ref = notKSUID
		}
		docs[i] = bson.D{{Key: "_id", Value: id}, {Key: "ref", Value: ref}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "ref", bsoncodec.NormalizeOptions{BatchSize: 2})
	if n != int64(len(ids)-notKSUIDs) || !errors.Is(err, bsoncodec.ErrNotKSUID) {
		t.Fatalf("rewrote %d, %v; want %d and ErrNotKSUID", n, err, len(ids)-notKSUIDs)
	}
	for i, id := range ids[notKSUIDs:] {
		var got struct{ Ref any }
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&got); err != nil || got.Ref != want[notKSUIDs+i].String() {
			t.Errorf("_id %v: ref %#v (%v); want %q", id, got.Ref, err, want[notKSUIDs+i])
		}
	}
}

// A document within a few bytes of the 16 MiB a document may hold cannot
// be journaled (its entry holds it and its new _id besides): it is left
// as it was, and named, and the others of its batch are moved.
func TestMongoNormalizeIDsDocumentTooLargeToJournal(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	coll := mongoCollection(t, ctx, servers.mongoPlainDB)
	big := ksuid.New()
	// _id: 4+1+4+1+20 bytes; pad: 1+4+4+len+1; the document's own 5.
	padLen := 16<<20 - 40 - (5 + 4 + 1 + 4 + 1 + 20) - (1 + 4 + 4 + 1)
	bigDoc := bson.D{{Key: "_id", Value: legacyKSUID(big)}, {Key: "pad", Value: strings.Repeat("x", padLen)}}
	raw, err := bson.Marshal(bigDoc)
	if err != nil || len(raw) != 16<<20-40 {
		t.Fatalf("the large document is %d bytes (%v); want 40 under 16 MiB", len(raw), err)
	}
	if _, err := coll.InsertOne(ctx, bigDoc); err != nil {
		t.Fatal(err)
	}
	small := insertLegacyIDs(t, ctx, coll, 3)
	n, err := bsoncodec.NormalizeKSUIDs(ctx, coll, "_id", bsoncodec.NormalizeOptions{})
	if n != 3 || err == nil || !strings.Contains(err.Error(), "too large to journal") || !strings.Contains(err.Error(), "left under its old _id") {
		t.Fatalf("moved %d, %v; want the 3 small documents moved and an error naming the large one", n, err)
	}
	var got bson.Raw
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: legacyKSUID(big)}}).Decode(&got); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("the large document under its binary _id: %d bytes, %v; want it unchanged", len(got), err)
	}
	for _, id := range small {
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id.String()}}).Err(); err != nil {
			t.Errorf("%s under its string _id: %v", id, err)
		}
	}
	journal := coll.Database().Collection(coll.Name() + bsoncodec.JournalSuffix)
	if left, err := journal.CountDocuments(ctx, bson.D{}); err != nil || left != 0 {
		t.Errorf("the journal holds %d (%v)", left, err)
	}
	if docs, err := coll.CountDocuments(ctx, bson.D{}); err != nil || docs != 4 {
		t.Errorf("the collection holds %d (%v); want 4", docs, err)
	}
}
