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

func ExampleNewRegistry() {
	type event struct {
		ID      ksuid.KSUID       `bson:"_id"`      // binary
		OrderID ksuid.StringKSUID `bson:"order_id"` // the string, for other services
		Session objectid.ObjectID `bson:"session"`
	}
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	doc := event{ID: id, OrderID: ksuid.StringKSUID(id), Session: objectid.MustParse("60c468e6101bf215dc9fa835")}
	var buf bytes.Buffer
	enc := bson.NewEncoder(bson.NewExtJSONValueWriter(&buf, false, false))
	enc.SetRegistry(bsoncodec.NewRegistry())
	if err := enc.Encode(doc); err != nil {
		panic(err)
	}
	fmt.Print(buf.String())
	// Output:
	// {"_id":{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"order_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","session":{"$oid":"60c468e6101bf215dc9fa835"}}
}

// A field another service writes as strings and this one as binary: the
// filters match both forms.
func ExampleKSUIDField() {
	orderID := bsoncodec.KSUIDField("order_id")
	a := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, filter := range []bson.D{orderID.Eq(a), orderID.Nin(a), orderID.Gte(a)} {
		js, _ := bson.MarshalExtJSON(filter, false, false)
		fmt.Println(string(js))
	}
	// Output:
	// {"order_id":{"$in":[{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"0qjBBlJIfbVLKwnJn4xpLGDr00e"]}}
	// {"order_id":{"$nin":[{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"0qjBBlJIfbVLKwnJn4xpLGDr00e"]}}
	// {"$or":[{"order_id":{"$gte":{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"$lte":{"$binary":{"base64":"//////////////////////////8=","subType":"00"}}}},{"order_id":{"$gte":"0qjBBlJIfbVLKwnJn4xpLGDr00e","$lte":"aWgEPTl1tmebfsQzFP4bxwgy80V","$regex":"^[0-9A-Za-z]{27}$"}}]}
}

// An upsert by a key that may be stored in either form inserts the key in
// the declared form, here the string.
func ExampleUpsertKSUID() {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	filter, update := bsoncodec.UpsertKSUID("_id", ksuid.StringKSUID(id),
		bson.D{{Key: "$set", Value: bson.D{{Key: "paid", Value: true}}}})
	for _, d := range []bson.D{filter, update} {
		js, _ := bson.MarshalExtJSON(d, false, false)
		fmt.Println(string(js))
	}
	// Output:
	// {"_id":{"$in":[{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"0qjBBlJIfbVLKwnJn4xpLGDr00e"]}}
	// {"$set":{"paid":true},"$setOnInsert":{"_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}}
}

// The driver gives a KSUID _id back as bson.Binary, or as a string where
// the field is a StringKSUID.
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

// Before a deploy: does order_id hold both forms? If so, rewrite it to
// the declared form, the string. (Not run: it needs a server.)
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
	if forms.Mixed() {
		n, err := bsoncodec.NormalizeKSUIDs[ksuid.StringKSUID](ctx, events, "order_id", bsoncodec.NormalizeOptions{
			Progress: func(done int64) { log.Printf("%d rewritten", done) },
		})
		log.Printf("rewrote %d documents: %v", n, err)
	}
}
