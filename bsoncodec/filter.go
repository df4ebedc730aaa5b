package bsoncodec

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
)

// MatchKSUID returns a query operator that matches id in either of the
// forms a KSUID can be stored in, binary of subtype 0 (the default) and
// the 27-character string (KSUIDAsString):
//
//	{"$in": [BinData(0, <20 bytes>), "<text form>"]}
//
// A lookup by a KSUID value finds only the form the registry writes, so a
// collection that has held both (after a change of KSUIDAsString) misses
// the documents of the other form. Use it as the value of the field:
//
//	coll.FindOne(ctx, bson.D{{Key: "_id", Value: bsoncodec.MatchKSUID(id)}})
//
// An index on the field serves it, as it serves any $in. Sorting such a
// collection by the field puts all strings before all binary values
// (BSON orders by type first); each form is in time order within itself.
func MatchKSUID(id ksuid.KSUID) bson.D {
	return bson.D{{Key: "$in", Value: bson.A{
		bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()},
		id.String(),
	}}}
}
