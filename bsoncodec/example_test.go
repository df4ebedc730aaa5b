package bsoncodec_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// KSUIDs are stored as their text, ObjectIDs as BSON ObjectIds.
func ExampleNewRegistry() {
	type event struct {
		ID      ksuid.KSUID       `bson:"_id"`
		OrderID ksuid.KSUID       `bson:"order_id"`
		Session objectid.ObjectID `bson:"session"`
	}
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	doc := event{ID: id, OrderID: id, Session: objectid.MustParse("60c468e6101bf215dc9fa835")}
	var buf bytes.Buffer
	enc := bson.NewEncoder(bson.NewExtJSONValueWriter(&buf, false, false))
	enc.SetRegistry(bsoncodec.NewRegistry())
	if err := enc.Encode(doc); err != nil {
		panic(err)
	}
	fmt.Print(buf.String())
	// Output:
	// {"_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","order_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","session":{"$oid":"60c468e6101bf215dc9fa835"}}
}

// A field that still holds binary KSUIDs older code wrote, beside the
// strings written now: the filters match both forms.
func ExampleKSUIDField() {
	orderID := bsoncodec.KSUIDField("order_id")
	a := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, filter := range []bsoncodec.Filter{orderID.Eq(a), orderID.Nin(a), orderID.Gte(a)} {
		js, _ := bson.MarshalExtJSON(filter, false, false)
		fmt.Println(string(js))
	}
	// Output:
	// {"order_id":{"$in":["0qjBBlJIfbVLKwnJn4xpLGDr00e",{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}}]}}
	// {"order_id":{"$nin":["0qjBBlJIfbVLKwnJn4xpLGDr00e",{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}}]}}
	// {"$or":[{"order_id":{"$gte":"0qjBBlJIfbVLKwnJn4xpLGDr00e","$lte":"aWgEPTl1tmebfsQzFP4bxwgy80V","$regex":"^[0-9A-Za-z]{27}$"}},{"order_id":{"$gte":{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"$lte":{"$binary":{"base64":"//////////////////////////8=","subType":"00"}}}}]}
}

// An upsert by a key that may still be stored as binary inserts the key
// as the string.
func ExampleUpsertKSUID() {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	filter, update := bsoncodec.UpsertKSUID("_id", id,
		bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
	for _, d := range []bson.D{filter.D(), update} {
		js, _ := bson.MarshalExtJSON(d, false, false)
		fmt.Println(string(js))
	}
	// Output:
	// {"_id":{"$in":["0qjBBlJIfbVLKwnJn4xpLGDr00e",{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}}]}}
	// {"$set":{"paid":true},"$setOnInsert":{"_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}}
}

// The driver gives a KSUID _id back as the string it stored, or as
// bson.Binary where older code wrote it.
func ExampleInsertedKSUID() {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, inserted := range []any{bson.Binary{Subtype: 0, Data: id.Bytes()}, id.String()} {
		got, err := bsoncodec.InsertedKSUID(inserted)
		fmt.Println(got, err)
	}
	_, err := bsoncodec.InsertedKSUID(bson.NewObjectID())
	fmt.Println(err != nil)
	// Output:
	// 0qjBBlJIfbVLKwnJn4xpLGDr00e <nil>
	// 0qjBBlJIfbVLKwnJn4xpLGDr00e <nil>
	// true
}

// Before a deploy: does order_id still hold binary KSUIDs that older code
// wrote? If so, rewrite them to the string. (Not run: it needs a server.)
func ExampleNormalizeKSUIDs() {
	ctx := context.Background()
	client, err := mongo.Connect(options.Client().ApplyURI("mongodb://localhost:27017"))
	if err != nil {
		log.Fatal(err)
	}
	events := client.Database("shop").Collection("events")
	forms, err := bsoncodec.CountKSUIDForms(ctx, events, "order_id")
	if err != nil {
		log.Fatal(err)
	}
	if forms.Collation != "" {
		log.Fatalf("order_id is compared under %s: KSUIDs as strings need the simple collation", forms.Collation)
	}
	if forms.Binary > 0 {
		n, err := bsoncodec.NormalizeKSUIDs(ctx, events, "order_id", bsoncodec.NormalizeOptions{
			Progress: func(done int64) { log.Printf("%d rewritten", done) },
		})
		log.Printf("rewrote %d documents: %v", n, err)
	}
}
