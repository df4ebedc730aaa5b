// Package bsoncodec stores sortid's ID types in MongoDB through the
// official Go driver, go.mongodb.org/mongo-driver/v2, and queries fields
// that hold KSUIDs in either of their stored forms.
//
// An objectid.ObjectID is written as a BSON ObjectId, so the server and
// every other driver see a normal ObjectId. A ksuid.KSUID is written as
// BSON binary of subtype 0 holding its 20 bytes (compact, and in time
// order, because MongoDB compares binary values by length, then subtype,
// then bytes); a ksuid.StringKSUID as its 27-character text. The form
// belongs to the field's type, so every writer keeps it. Decoding accepts
// both forms into both types.
//
// The ID types implement the driver's bson.ValueMarshaler and
// bson.ValueUnmarshaler, so they work with the driver's default registry
// and bson.Marshal without this package. Register adds codecs that take
// precedence over those methods and write without an intermediate buffer:
//
//	client, err := mongo.Connect(options.Client().ApplyURI(uri).
//		SetRegistry(bsoncodec.NewRegistry()))
//
// # Collections that hold both forms
//
// A filter with a typed value matches only that type's form. Where a field
// holds both (another service wrote strings, or the form changed), use
// KSUIDField's filters and UpsertKSUID, count the forms with
// CountKSUIDForms, and rewrite the field to one form with NormalizeKSUIDs.
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
