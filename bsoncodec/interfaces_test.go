package bsoncodec_test

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// The interfaces mongo-driver's default registry reaches the ID types
// through, without this package's codecs: a change to a method's
// signature here or in the driver fails the build.
var (
	_ bson.ValueMarshaler = ksuid.KSUID{}
	_ bson.ValueMarshaler = ksuid.NullKSUID{}
	_ bson.ValueMarshaler = ksuid.StringKSUID{}
	_ bson.ValueMarshaler = objectid.ObjectID{}
	_ bson.ValueMarshaler = objectid.NullObjectID{}
	_ bson.ValueMarshaler = uuidv7.UUID{}
	_ bson.ValueMarshaler = uuidv7.NullUUID{}

	_ bson.ValueUnmarshaler = (*ksuid.KSUID)(nil)
	_ bson.ValueUnmarshaler = (*ksuid.NullKSUID)(nil)
	_ bson.ValueUnmarshaler = (*ksuid.StringKSUID)(nil)
	_ bson.ValueUnmarshaler = (*objectid.ObjectID)(nil)
	_ bson.ValueUnmarshaler = (*objectid.NullObjectID)(nil)
	_ bson.ValueUnmarshaler = (*uuidv7.UUID)(nil)
	_ bson.ValueUnmarshaler = (*uuidv7.NullUUID)(nil)

	_ bson.Zeroer = ksuid.KSUID{}
	_ bson.Zeroer = ksuid.StringKSUID{}
	_ bson.Zeroer = objectid.ObjectID{}
)
