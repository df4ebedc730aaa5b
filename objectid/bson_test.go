package objectid_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/sortid/sortid/objectid"
)

func TestBSONValue(t *testing.T) {
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	if typ, data, err := id.MarshalBSONValue(); err != nil || typ != 0x07 || !bytes.Equal(data, id[:]) {
		t.Errorf("MarshalBSONValue = %#x, %x, %v", typ, data, err)
	}
	if typ, _, _ := (objectid.NullObjectID{}).MarshalBSONValue(); typ != 0x0A {
		t.Errorf("invalid NullObjectID = %#x, want null", typ)
	}
	var got objectid.ObjectID
	if err := got.UnmarshalBSONValue(0x07, id[:]); err != nil || got != id {
		t.Errorf("UnmarshalBSONValue = %v, %v", got, err)
	}
	for _, tc := range []struct {
		typ  byte
		data []byte
		want error
		msg  string
	}{
		{0x07, id[:11], objectid.ErrInvalidBSON, "objectid: malformed BSON ObjectId of 11 bytes 0x60c468e6101bf215dc9fa8: want 12 bytes"},
		{0x0A, nil, objectid.ErrNull, "objectid: cannot decode BSON null into ObjectID; use NullObjectID or *ObjectID"},
		{0x02, []byte{1, 0, 0, 0, 0}, objectid.ErrUnsupportedType, "objectid: cannot decode BSON string value of 5 bytes 0x0100000000 into ObjectID: want ObjectId"},
	} {
		keep := id
		if err := keep.UnmarshalBSONValue(tc.typ, tc.data); !errors.Is(err, tc.want) || err.Error() != tc.msg || keep != id {
			t.Errorf("type %#x: %v (value now %v), want %s", tc.typ, err, keep, tc.msg)
		}
	}
	n := objectid.NullObjectID{ObjectID: id, Valid: true}
	if err := n.UnmarshalBSONValue(0x0A, nil); err != nil || n.Valid || !n.IsZero() {
		t.Errorf("null into NullObjectID: %+v, %v", n, err)
	}
}
