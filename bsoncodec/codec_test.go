package bsoncodec_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

var (
	testKSUID    = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	testObjectID = objectid.MustParse("60c468e6101bf215dc9fa835")
)

// registries are the ways a user can encode: the driver's default
// registry (through the types' BSON methods) and ours.
var registries = []struct {
	name string
	reg  *bson.Registry
}{
	{"default registry", bson.NewRegistry()},
	{"bsoncodec registry", bsoncodec.NewRegistry()},
}

func marshal(t *testing.T, reg *bson.Registry, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := bson.NewEncoder(bson.NewDocumentWriter(&buf))
	enc.SetRegistry(reg)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding %T: %v", v, err)
	}
	return buf.Bytes()
}

func unmarshal(reg *bson.Registry, data []byte, v any) error {
	dec := bson.NewDecoder(bson.NewDocumentReader(bytes.NewReader(data)))
	dec.SetRegistry(reg)
	return dec.Decode(v)
}

// TestSameBytesAsDriver compares documents holding our types with the same
// documents holding the driver's own types, byte for byte.
func TestSameBytesAsDriver(t *testing.T) {
	type oursObjectID struct {
		ID   objectid.ObjectID `bson:"_id"`
		Name string            `bson:"name"`
	}
	type driversObjectID struct {
		ID   bson.ObjectID `bson:"_id"`
		Name string        `bson:"name"`
	}
	type oursKSUID struct {
		ID ksuid.KSUID `bson:"_id"`
	}
	type driversBinary struct {
		ID bson.Binary `bson:"_id"`
	}
	type driversString struct {
		ID string `bson:"_id"`
	}
	wantOID := marshal(t, bson.NewRegistry(), driversObjectID{bson.ObjectID(testObjectID), "x"})
	wantBin := marshal(t, bson.NewRegistry(), driversBinary{bson.Binary{Subtype: 0, Data: testKSUID.Bytes()}})
	wantStr := marshal(t, bson.NewRegistry(), driversString{testKSUID.String()})
	for _, r := range registries {
		if got := marshal(t, r.reg, oursObjectID{testObjectID, "x"}); !bytes.Equal(got, wantOID) {
			t.Errorf("%s: ObjectID document\n got %x\nwant %x", r.name, got, wantOID)
		}
		if got := marshal(t, r.reg, oursKSUID{testKSUID}); !bytes.Equal(got, wantStr) {
			t.Errorf("%s: KSUID document\n got %x\nwant %x (the text, a string)", r.name, got, wantStr)
		}
	}
	if got := marshal(t, binaryWriter(), oursKSUID{testKSUID}); !bytes.Equal(got, wantBin) {
		t.Errorf("binaryWriter: got %x, want %x", got, wantBin)
	}
	// bson.Marshal with no registry at all uses the methods.
	if got, err := bson.Marshal(oursObjectID{testObjectID, "x"}); err != nil || !bytes.Equal(got, wantOID) {
		t.Errorf("bson.Marshal: %x, %v", got, err)
	}
}

type Base struct {
	ID ksuid.KSUID `bson:"_id"`
}

type everything struct {
	Base      `bson:",inline"`
	K         ksuid.KSUID
	KPtr      *ksuid.KSUID
	KNilPtr   *ksuid.KSUID
	NK        ksuid.NullKSUID
	NKInvalid ksuid.NullKSUID
	O         objectid.ObjectID
	OPtr      *objectid.ObjectID
	ONilPtr   *objectid.ObjectID
	NO        objectid.NullObjectID
	NOInvalid objectid.NullObjectID
	Ks        []ksuid.KSUID
	Os        []objectid.ObjectID
	KMap      map[string]ksuid.KSUID
	Nested    struct{ K ksuid.KSUID }
	Zero      ksuid.KSUID
}

func sample() everything {
	k, o := testKSUID, testObjectID
	return everything{
		Base: Base{ID: ksuid.New()},
		K:    testKSUID, KPtr: &k,
		NK: ksuid.NullKSUID{KSUID: testKSUID, Valid: true},
		O:  testObjectID, OPtr: &o,
		NO:     objectid.NullObjectID{ObjectID: testObjectID, Valid: true},
		Ks:     []ksuid.KSUID{testKSUID, ksuid.New()},
		Os:     []objectid.ObjectID{testObjectID, objectid.New()},
		KMap:   map[string]ksuid.KSUID{"a": testKSUID},
		Nested: struct{ K ksuid.KSUID }{testKSUID},
	}
}

func TestRoundTrip(t *testing.T) {
	regs := append(registries, struct {
		name string
		reg  *bson.Registry
	}{"older code writing KSUIDs as binary", binaryWriter()})
	in := sample()
	for _, w := range regs {
		data := marshal(t, w.reg, in)
		// Whichever form was written, every registry reads it back.
		for _, r := range regs {
			var out everything
			out.KNilPtr = &ksuid.KSUID{} // null must reset it
			if err := unmarshal(r.reg, data, &out); err != nil {
				t.Fatalf("written by %s, read by %s: %v", w.name, r.name, err)
			}
			if !reflect.DeepEqual(in, out) {
				t.Errorf("written by %s, read by %s:\n got %+v\nwant %+v", w.name, r.name, out, in)
			}
		}
	}
}

func TestNullsAreNull(t *testing.T) {
	for _, r := range registries {
		raw := bson.Raw(marshal(t, r.reg, sample()))
		for _, key := range []string{"knilptr", "nkinvalid", "onilptr", "noinvalid"} {
			if v := raw.Lookup(key); v.Type != bson.TypeNull {
				t.Errorf("%s: %s is BSON %s, want null", r.name, key, v.Type)
			}
		}
		if v := raw.Lookup("zero"); v.Type != bson.TypeString || v.StringValue() != "000000000000000000000000000" {
			t.Errorf("%s: the zero KSUID is BSON %s, want its text: it is a value, not null", r.name, v.Type)
		}
	}
}

func TestOmitEmpty(t *testing.T) {
	type doc struct {
		K  ksuid.KSUID           `bson:"k,omitempty"`
		O  objectid.ObjectID     `bson:"o,omitempty"`
		NK ksuid.NullKSUID       `bson:"nk,omitempty"`
		NO objectid.NullObjectID `bson:"no,omitempty"`
	}
	for _, r := range registries {
		if got := bson.Raw(marshal(t, r.reg, doc{})); len(got) != 5 {
			t.Errorf("%s: zero IDs with omitempty gave %s, want {}", r.name, got)
		}
		full := bson.Raw(marshal(t, r.reg, doc{K: testKSUID, O: testObjectID}))
		if full.Lookup("k").Type != bson.TypeString || full.Lookup("o").Type != bson.TypeObjectID {
			t.Errorf("%s: set IDs with omitempty gave %s", r.name, full)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	type kdoc struct{ K ksuid.KSUID }
	type odoc struct{ O objectid.ObjectID }
	tests := []struct {
		name    string
		doc     bson.D
		into    any
		want    error
		mention string
	}{
		{"binary of 19 bytes", bson.D{{Key: "k", Value: bson.Binary{Data: make([]byte, 19)}}}, &kdoc{}, ksuid.ErrInvalidLength, "19"},
		{"binary of subtype 4", bson.D{{Key: "k", Value: bson.Binary{Subtype: 4, Data: make([]byte, 20)}}}, &kdoc{}, ksuid.ErrUnsupportedType, "subtype 4"},
		{"bad string", bson.D{{Key: "k", Value: "0qjBBlJIfbVLK-nJn4xpLGDr00e"}}, &kdoc{}, ksuid.ErrInvalidCharacter, "string"},
		{"short string", bson.D{{Key: "k", Value: "0qjBB"}}, &kdoc{}, ksuid.ErrInvalidLength, "string"},
		{"int32", bson.D{{Key: "k", Value: int32(7)}}, &kdoc{}, ksuid.ErrUnsupportedType, "32-bit integer"},
		{"null into KSUID", bson.D{{Key: "k", Value: nil}}, &kdoc{}, ksuid.ErrNull, "null"},
		{"ObjectId into KSUID", bson.D{{Key: "k", Value: bson.NewObjectID()}}, &kdoc{}, ksuid.ErrUnsupportedType, "ObjectId"},
		{"string into ObjectID", bson.D{{Key: "o", Value: "60c468e6101bf215dc9fa835"}}, &odoc{}, objectid.ErrUnsupportedType, "string"},
		{"null into ObjectID", bson.D{{Key: "o", Value: nil}}, &odoc{}, objectid.ErrNull, "null"},
	}
	for _, tt := range tests {
		data, err := bson.Marshal(tt.doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range registries {
			err := unmarshal(r.reg, data, tt.into)
			if !errors.Is(err, tt.want) {
				t.Errorf("%s, %s: error %v, want %v", tt.name, r.name, err, tt.want)
				continue
			}
			msg := strings.ToLower(err.Error())
			if !strings.Contains(msg, strings.ToLower(tt.mention)) || !strings.Contains(msg, tt.doc[0].Key) {
				t.Errorf("%s, %s: message %q should name the BSON type (%s) and the field (%s)", tt.name, r.name, err, tt.mention, tt.doc[0].Key)
			}
		}
	}
}

// TestExtendedJSON compares Extended JSON of documents holding our types
// with that of the driver's types, canonical and relaxed.
func TestExtendedJSON(t *testing.T) {
	ours := bson.D{{Key: "_id", Value: testObjectID}, {Key: "k", Value: testKSUID}}
	drivers := bson.D{{Key: "_id", Value: bson.ObjectID(testObjectID)}, {Key: "k", Value: "0qjBBlJIfbVLKwnJn4xpLGDr00e"}}
	for _, canonical := range []bool{true, false} {
		got, err := bson.MarshalExtJSON(ours, canonical, false)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := bson.MarshalExtJSON(drivers, canonical, false)
		if string(got) != string(want) {
			t.Errorf("canonical=%v:\n got %s\nwant %s", canonical, got, want)
		}
		var back struct {
			ID objectid.ObjectID `bson:"_id"`
			K  ksuid.KSUID       `bson:"k"`
		}
		if err := bson.UnmarshalExtJSON(got, canonical, &back); err != nil || back.ID != testObjectID || back.K != testKSUID {
			t.Errorf("canonical=%v: read back %+v, %v", canonical, back, err)
		}
	}
}

// binaryWriter is a registry that writes KSUIDs as 20 bytes of binary,
// subtype 0, as earlier versions of this package did: the history the
// decoders still read.
func binaryWriter() *bson.Registry {
	reg := bsoncodec.NewRegistry()
	reg.RegisterTypeEncoder(reflect.TypeFor[ksuid.KSUID](), bson.ValueEncoderFunc(
		func(_ bson.EncodeContext, vw bson.ValueWriter, v reflect.Value) error {
			id := v.Interface().(ksuid.KSUID)
			return vw.WriteBinaryWithSubtype(id[:], bson.TypeBinaryGeneric)
		}))
	return reg
}
