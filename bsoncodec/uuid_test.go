package bsoncodec_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/uuidv7"
)

var testUUID = uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")

// otherUUID stands for Go 1.27's uuid.UUID and google/uuid's UUID: a
// [16]byte of another package, without BSON methods.
type otherUUID [16]byte

// A UUIDv7, a NullUUID and another package's UUID are written byte for
// byte as the driver writes bson.Binary{Subtype: 4}, by both registries.
func TestUUIDAsBinarySubtype4(t *testing.T) {
	type doc struct {
		ID    uuidv7.UUID     `bson:"_id"`
		Opt   uuidv7.NullUUID `bson:"opt"`
		Ptr   *uuidv7.UUID    `bson:"ptr"`
		Other otherUUID       `bson:"other"`
	}
	type driverDoc struct {
		ID    bson.Binary `bson:"_id"`
		Opt   bson.Binary `bson:"opt"`
		Ptr   any         `bson:"ptr"`
		Other bson.Binary `bson:"other"`
	}
	raw := testUUID[:]
	want := marshal(t, bson.NewRegistry(), driverDoc{
		ID: bson.Binary{Subtype: 4, Data: raw}, Opt: bson.Binary{Subtype: 4, Data: raw},
		Other: bson.Binary{Subtype: 4, Data: raw},
	})
	reg := bsoncodec.NewRegistry()
	bsoncodec.RegisterUUID[otherUUID](reg)
	in := doc{ID: testUUID, Opt: uuidv7.NullUUID{UUID: testUUID, Valid: true}, Other: otherUUID(testUUID)}
	got := marshal(t, reg, in)
	if !bytes.Equal(got, want) {
		t.Fatalf("bsoncodec writes\n%x\nthe driver\n%x", got, want)
	}
	var back doc
	if err := unmarshal(reg, got, &back); err != nil || back != in {
		t.Errorf("read back %+v, %v", back, err)
	}
	// The default registry reaches the type's own BSON methods: the same
	// bytes for the UUIDv7 fields.
	type plain struct {
		ID uuidv7.UUID `bson:"_id"`
	}
	wantID := marshal(t, bson.NewRegistry(), struct {
		ID bson.Binary `bson:"_id"`
	}{bson.Binary{Subtype: 4, Data: raw}})
	if got := marshal(t, bson.NewRegistry(), plain{testUUID}); !bytes.Equal(got, wantID) {
		t.Errorf("the default registry writes %x, want %x", got, wantID)
	}
}

func TestUUIDDecodeRefuses(t *testing.T) {
	reg := bsoncodec.NewRegistry()
	bsoncodec.RegisterUUID[otherUUID](reg)
	v4 := bytes.Clone(testUUID[:])
	v4[6] = 0x4C
	for _, tc := range []struct {
		name  string
		value any
		into  any
		err   error
	}{
		{"a v4 into uuidv7.UUID", bson.Binary{Subtype: 4, Data: v4}, new(uuidv7.UUID), uuidv7.ErrVersion},
		{"subtype 3 into uuidv7.UUID", bson.Binary{Subtype: 3, Data: testUUID[:]}, new(uuidv7.UUID), uuidv7.ErrUnsupportedType},
		{"null into uuidv7.UUID", nil, new(uuidv7.UUID), uuidv7.ErrNull},
		{"subtype 3 into another UUID", bson.Binary{Subtype: 3, Data: testUUID[:]}, new(otherUUID), bsoncodec.ErrNotUUID},
		{"a string into another UUID", testUUID.String(), new(otherUUID), bsoncodec.ErrNotUUID},
	} {
		data := marshal(t, bson.NewRegistry(), bson.D{{Key: "v", Value: tc.value}})
		err := unmarshalField(reg, data, tc.into)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	// A v4 is fine for another package's UUID type, which holds any version.
	var other otherUUID
	data := marshal(t, bson.NewRegistry(), bson.D{{Key: "v", Value: bson.Binary{Subtype: 4, Data: v4}}})
	if err := unmarshalField(reg, data, &other); err != nil || !bytes.Equal(other[:], v4) {
		t.Errorf("a v4 into another UUID: %x, %v", other, err)
	}
}

// unmarshalField decodes the field "v" of data into what ptr points at,
// through a struct made for its type, as a user's model would hold it.
func unmarshalField(reg *bson.Registry, data []byte, ptr any) error {
	elem := reflect.TypeOf(ptr).Elem()
	st := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "V", Type: elem, Tag: `bson:"v"`}}))
	st.Elem().Field(0).Set(reflect.ValueOf(ptr).Elem())
	err := unmarshal(reg, data, st.Interface())
	reflect.ValueOf(ptr).Elem().Set(st.Elem().Field(0))
	return err
}
