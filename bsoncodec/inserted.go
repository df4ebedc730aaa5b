package bsoncodec

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// InsertedKSUID returns the KSUID in an InsertOneResult's InsertedID (or
// an element of InsertManyResult's InsertedIDs). The driver gives the _id
// back as it decodes into an interface: a KSUID stored as binary comes
// back as a bson.Binary, one stored as a string as a string.
//
//	res, err := coll.InsertOne(ctx, Order{ID: ksuid.New()})
//	id, err := bsoncodec.InsertedKSUID(res.InsertedID)
//
// Anything that is not a KSUID in one of its stored forms is an error
// wrapping one of ksuid's sentinels, by KSUID.UnmarshalBSONValue's rules.
func InsertedKSUID(insertedID any) (ksuid.KSUID, error) {
	var id ksuid.KSUID
	typ, data, err := bson.MarshalValue(insertedID)
	if err != nil {
		return id, fmt.Errorf("bsoncodec: InsertedID of type %T: %w: %w", insertedID, ksuid.ErrUnsupportedType, err)
	}
	err = id.UnmarshalBSONValue(byte(typ), data)
	return id, err
}

// InsertedObjectID returns the ObjectID in an InsertOneResult's InsertedID
// (or an element of InsertManyResult's InsertedIDs), which the driver
// gives as a bson.ObjectID. Anything else is an error wrapping one of
// objectid's sentinels, by ObjectID.UnmarshalBSONValue's rules.
func InsertedObjectID(insertedID any) (objectid.ObjectID, error) {
	if oid, ok := insertedID.(bson.ObjectID); ok {
		return objectid.ObjectID(oid), nil
	}
	var id objectid.ObjectID
	typ, data, err := bson.MarshalValue(insertedID)
	if err != nil {
		return id, fmt.Errorf("bsoncodec: InsertedID of type %T: %w: %w", insertedID, objectid.ErrUnsupportedType, err)
	}
	err = id.UnmarshalBSONValue(byte(typ), data)
	return id, err
}
