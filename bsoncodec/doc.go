// Package bsoncodec stores sortid's ID types in MongoDB through the
// official Go driver, go.mongodb.org/mongo-driver/v2.
//
// An objectid.ObjectID is written as a BSON ObjectId, so the server and
// every other driver see a normal ObjectId. A ksuid.KSUID is written as
// BSON binary of subtype 0 holding its 20 bytes (compact, and in time
// order, because MongoDB compares binary values by length, then subtype,
// then bytes), or, with KSUIDAsString, as its 27-character text. Decoding
// accepts both forms of a KSUID whichever the registry writes, so a
// collection with mixed history still reads.
//
// The ID types also implement the driver's bson.ValueMarshaler and
// bson.ValueUnmarshaler (with the same binary and ObjectId forms), so they
// work with the driver's default registry and bson.Marshal without this
// package. Register adds codecs that take precedence over those methods:
// they write without an intermediate buffer, and they honour the options.
//
//	client, err := mongo.Connect(options.Client().ApplyURI(uri).
//		SetRegistry(bsoncodec.NewRegistry()))
//
// # Null and omitempty
//
// A nil *ksuid.KSUID or *objectid.ObjectID and an invalid ksuid.NullKSUID
// or objectid.NullObjectID are written as BSON null and read back from it.
// BSON null into a plain KSUID or ObjectID is an error wrapping
// ksuid.ErrNull or objectid.ErrNull: the zero ID is a value, never null.
// Because the ID types have an IsZero method, the driver's omitempty omits
// a field holding the zero ID, and an invalid Null type.
package bsoncodec
