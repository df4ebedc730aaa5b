package bsoncodec_test

import (
	"bytes"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

func ExampleNewRegistry() {
	type order struct {
		ID      ksuid.KSUID       `bson:"_id"`
		Session objectid.ObjectID `bson:"session"`
	}
	doc := order{
		ID:      ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e"),
		Session: objectid.MustParse("60c468e6101bf215dc9fa835"),
	}
	for _, reg := range []*bson.Registry{bsoncodec.NewRegistry(), bsoncodec.NewRegistry(bsoncodec.KSUIDAsString())} {
		var buf bytes.Buffer
		enc := bson.NewEncoder(bson.NewExtJSONValueWriter(&buf, false, false))
		enc.SetRegistry(reg)
		if err := enc.Encode(doc); err != nil {
			panic(err)
		}
		fmt.Print(buf.String())
	}
	// Output:
	// {"_id":{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"session":{"$oid":"60c468e6101bf215dc9fa835"}}
	// {"_id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","session":{"$oid":"60c468e6101bf215dc9fa835"}}
}

// A collection that has held KSUIDs as binary and, after a change of
// KSUIDAsString, as strings: MatchKSUID finds a document in either form.
func ExampleMatchKSUID() {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	filter := bson.D{{Key: "_id", Value: bsoncodec.MatchKSUID(id)}}
	js, _ := bson.MarshalExtJSON(filter, false, false)
	fmt.Println(string(js))
	// Output:
	// {"_id":{"$in":[{"$binary":{"base64":"BfXhAAECAwQFBgcICQoLDA0ODxA=","subType":"00"}},"0qjBBlJIfbVLKwnJn4xpLGDr00e"]}}
}
