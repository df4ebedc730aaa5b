// Package bsoncodec stores sortid's ID types in MongoDB through the
// official Go driver, go.mongodb.org/mongo-driver/v2, and queries and
// rewrites fields whose history holds IDs in another form.
//
// An objectid.ObjectID is written as a BSON ObjectId, so the server and
// every other driver see a normal ObjectId. A ksuid.KSUID (and
// ksuid.StringKSUID, now the same) is written as a BSON string holding its
// 27-character text: the one form, whoever writes it (this registry, the
// driver's default one, bson.Marshal, a bson.M, a $set, an upsert's
// filter), and the form other languages' KSUID libraries store. So a
// filter with the ksuid.KSUID a program holds, {order_id: id}, matches
// what any of them wrote, and mongosh shows the ID as it appears in URLs
// and logs. MongoDB's default (simple) collation compares strings by their
// bytes, which for base62 is the KSUIDs' order, so they sort by time; a
// locale collation on the collection or an index would not (see
// CountKSUIDForms). Decoding also reads the binary form (20 bytes,
// subtype 0) that earlier versions wrote.
//
// The ID types implement the driver's bson.ValueMarshaler and
// bson.ValueUnmarshaler, so they work with the driver's default registry
// and bson.Marshal without this package. Register adds codecs that take
// precedence over those methods and write without an intermediate buffer:
//
//	client, err := mongo.Connect(options.Client().ApplyURI(uri).
//		SetRegistry(bsoncodec.NewRegistry()))
//
// # Collections with history in another form
//
// A field may still hold KSUIDs as binary (written by earlier versions, or
// by segmentio/ksuid users) or ObjectIDs as hex strings (written by
// another service). KSUIDField and ObjectIDField make filters that match
// both forms (UpsertKSUID for upserts), CountKSUIDForms and
// CountObjectIDForms count the forms, and NormalizeKSUIDs and
// NormalizeObjectIDs rewrite the field to the stored form, resumably.
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
