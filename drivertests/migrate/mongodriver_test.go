package migrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/objectid"
)

// Each subtest is a row of the table "From mongo-driver's ObjectID".
func TestFromMongoDriver(t *testing.T) {
	const hex = "60c468e6101bf215dc9fa835"
	oid, _ := bson.ObjectIDFromHex(hex)
	ours := objectid.MustParse(hex)

	t.Run("NewObjectID is New", func(t *testing.T) {
		a, b := objectid.New(), bson.NewObjectID()
		if d := a.Time().Sub(b.Timestamp()); d < -time.Second || d > time.Second {
			t.Errorf("New dated %v, the driver's %v", a.Time(), b.Timestamp())
		}
		c := bson.NewObjectID()
		if a.Random() != objectid.New().Random() || [5]byte(b[4:9]) != [5]byte(c[4:9]) {
			t.Error("the 5-byte process value is not fixed per process, as the driver's is")
		}
	})
	t.Run("ObjectIDFromHex is Parse", func(t *testing.T) {
		p, err := objectid.Parse(hex)
		if err != nil || p != objectid.ObjectID(oid) {
			t.Errorf("Parse = %v, %v", p, err)
		}
		_, errDriver := bson.ObjectIDFromHex("60c468e6101bf215dc9fa83")
		if _, err := objectid.Parse("60c468e6101bf215dc9fa83"); err == nil || errDriver == nil {
			t.Errorf("a short hex: ours %v, driver %v; want both refused", err, errDriver)
		}
	})
	t.Run("Hex is String", func(t *testing.T) {
		if ours.String() != oid.Hex() {
			t.Errorf("String = %s, Hex %s", ours, oid.Hex())
		}
	})
	t.Run("the driver's String is not the hex", func(t *testing.T) {
		if oid.String() != `ObjectID("`+hex+`")` || fmt.Sprintf("ObjectID(%q)", ours) != oid.String() {
			t.Errorf("the driver's String = %s, the row's Sprintf %s", oid.String(), fmt.Sprintf("ObjectID(%q)", ours))
		}
	})
	t.Run("Timestamp is Time", func(t *testing.T) {
		if !ours.Time().Equal(oid.Timestamp()) {
			t.Errorf("Time = %v, the driver's Timestamp %v", ours.Time(), oid.Timestamp())
		}
		if int64(ours.Timestamp()) != oid.Timestamp().Unix() {
			t.Errorf("Timestamp = %d, want the seconds %d", ours.Timestamp(), oid.Timestamp().Unix())
		}
	})
	t.Run("NewObjectIDFromTimestamp is NewAt, MinAt for a bound", func(t *testing.T) {
		at := time.Date(2021, 6, 12, 7, 57, 26, 0, time.UTC)
		d := bson.NewObjectIDFromTimestamp(at)
		n, err := objectid.NewAt(at)
		lo, _ := objectid.MinAt(at)
		if err != nil || !n.Time().Equal(d.Timestamp()) || !lo.Time().Equal(at) || lo.Compare(objectid.ObjectID(d)) >= 0 {
			t.Errorf("NewAt = %v, %v; MinAt = %v; driver %v", n, err, lo, d)
		}
	})
	t.Run("NilObjectID is Nil, IsZero the same", func(t *testing.T) {
		if objectid.Nil != objectid.ObjectID(bson.NilObjectID) || !objectid.Nil.IsZero() || ours.IsZero() != oid.IsZero() {
			t.Error("Nil or IsZero disagrees")
		}
	})
	t.Run("conversions", func(t *testing.T) {
		if bson.ObjectID(ours) != oid || objectid.ObjectID(oid) != ours {
			t.Error("conversion changed the bytes")
		}
	})
	t.Run("JSON is the same string", func(t *testing.T) {
		a, _ := json.Marshal(ours)
		b, _ := json.Marshal(oid)
		if string(a) != string(b) {
			t.Errorf("JSON %s, driver %s", a, b)
		}
		var back objectid.ObjectID
		if err := json.Unmarshal([]byte(`{"$oid":"`+hex+`"}`), &back); err != nil || back != ours {
			t.Errorf("Extended JSON read %v, %v", back, err)
		}
	})
	t.Run(`JSON "" is an error, not the nil ID`, func(t *testing.T) {
		var d bson.ObjectID
		if err := json.Unmarshal([]byte(`""`), &d); err != nil || !d.IsZero() {
			t.Errorf(`the driver reads "" as %v, %v; the row says the nil ID`, d, err)
		}
		o := ours
		if err := json.Unmarshal([]byte(`""`), &o); !errors.Is(err, objectid.ErrInvalidLength) || o != ours {
			t.Errorf(`sortid reads "" as %v, %v; want ErrInvalidLength and the value unchanged`, o, err)
		}
		var n objectid.NullObjectID
		if err := json.Unmarshal([]byte(`null`), &n); err != nil || n.Valid {
			t.Errorf("NullObjectID reads null as %+v, %v", n, err)
		}
	})
	t.Run("BSON is byte for byte the driver's", func(t *testing.T) {
		a, _ := bson.Marshal(bson.D{{Key: "_id", Value: ours}})
		b, _ := bson.Marshal(bson.D{{Key: "_id", Value: oid}})
		if string(a) != string(b) {
			t.Errorf("BSON %x, driver %x", a, b)
		}
	})
}
