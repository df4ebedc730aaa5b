package containers

import (
	"testing"
	"time"

	googleuuid "github.com/google/uuid"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/uuidv7"
)

// uuidsOverTime returns UUIDv7s made by NewAt; see idsOverTime.
func uuidsOverTime(t *testing.T) []uuidv7.UUID { return idsOverTime(t, uuidv7.NewAt) }

// TestMongoUUIDv7 stores UUIDv7 _ids through the bsoncodec registry:
// binary of subtype 4, which sorts by time, and every way of asking for
// documents finds them: by ID, $in, a window of MinAt and MaxAt, the
// driver's own bson.Binary, and DeleteMany below an ID.
func TestMongoUUIDv7(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := uuidsOverTime(t)
	inside := idsInWindow(ids)
	coll := mongoCollection(t, ctx, servers.mongoDB)
	insertIDs(t, ctx, coll, ids)

	var raw bson.Raw
	if err := coll.FindOne(ctx, bson.D{}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if subtype, _, ok := raw.Lookup("_id").BinaryOK(); !ok || subtype != 4 {
		t.Fatalf("stored _id is %v subtype %d, want binary of subtype 4", raw.Lookup("_id").Type, subtype)
	}
	assertOrder(t, findIDs[uuidv7.UUID](t, ctx, coll, bson.D{}), ids)
	lo, _ := uuidv7.MinAt(windowFrom)
	hi, _ := uuidv7.MaxAt(windowTo)
	assertOrder(t, findIDs[uuidv7.UUID](t, ctx, coll, between(lo, hi)), inside)

	pivot := ids[len(ids)/2]
	if got := findIDs[uuidv7.UUID](t, ctx, coll, bson.D{{Key: "_id", Value: pivot}}); len(got) != 1 || got[0] != pivot {
		t.Errorf("by ID: %v", got)
	}
	if got := findIDs[uuidv7.UUID](t, ctx, coll, bson.D{{Key: "_id", Value: bson.Binary{Subtype: 4, Data: pivot[:]}}}); len(got) != 1 || got[0] != pivot {
		t.Errorf("by the driver's bson.Binary{Subtype: 4}: %v", got)
	}
	in := []uuidv7.UUID{ids[0], ids[1], ids[2]}
	if got := findIDs[uuidv7.UUID](t, ctx, coll, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: in}}}}); len(got) != 3 {
		t.Errorf("$in of 3: %d documents", len(got))
	}
	below := 0
	for _, id := range ids {
		if id.Compare(pivot) < 0 {
			below++
		}
	}
	res, err := coll.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: pivot}}}})
	if err != nil || int(res.DeletedCount) != below {
		t.Errorf("DeleteMany below the pivot: %v documents, %v; want %d", res, err, below)
	}
}

// TestMongoGoogleUUID: another package's UUID type, registered with
// RegisterUUID, is stored as the same subtype 4 and found by a UUIDv7 of
// the same bytes.
func TestMongoGoogleUUID(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	reg := bsoncodec.NewRegistry()
	bsoncodec.RegisterUUID[googleuuid.UUID](reg)
	db := servers.mongo.Database(servers.mongoDB.Name(), options.Database().SetRegistry(reg))
	coll := mongoCollection(t, ctx, db)
	type doc struct {
		ID   googleuuid.UUID `bson:"_id"`
		Made time.Time       `bson:"made"`
	}
	id := must(googleuuid.NewV7())
	if _, err := coll.InsertOne(ctx, doc{ID: id, Made: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var back doc
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: uuidv7.UUID(id)}}).Decode(&back); err != nil || back.ID != id {
		t.Errorf("found %v, %v; want %v", back.ID, err, id)
	}
}
