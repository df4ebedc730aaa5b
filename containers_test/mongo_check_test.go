package containers

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/sortid/sortid/bsoncodec"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestMongoCheck runs sortid check on a MongoDB URI, as a user would, on
// a database that holds what segmentio/ksuid and other services left:
// KSUIDs as 20 bytes of binary under _id and beside strings in a field, a
// zero KSUID, ObjectIDs as hex strings, a journal and a lease a stopped
// normalization left. It must not report string KSUID _ids (segmentio's
// code that stored id.String(): nothing to do, and the test shows sortid
// reads, finds and windows them as they are), ObjectId _ids or names.
func TestMongoCheck(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name := "sortid_check_" + sanitize(t.Name())
	db := servers.mongoDB.Client().Database(name)
	db.Drop(ctx)
	t.Cleanup(func() { db.Drop(context.Background()) })

	insert := func(coll string, docs ...any) {
		t.Helper()
		if _, err := db.Collection(coll).InsertMany(ctx, docs); err != nil {
			t.Fatalf("%s: %v", coll, err)
		}
	}
	bin := func(id ksuid.KSUID) bson.Binary {
		return bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: id.Bytes()}
	}
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var orders []any
	for i := range 48 { // an order an hour over two days, _id as segmentio's strings
		id, _ := ksuid.NewAt(day.Add(time.Duration(i) * time.Hour))
		parent := any(ksuid.New().String())
		if i == 7 {
			parent = ksuid.Nil.String() // segmentio's code meant none
		}
		orders = append(orders, bson.D{{Key: "_id", Value: id.String()}, {Key: "parent", Value: parent}, {Key: "n", Value: i}})
	}
	insert("orders", orders...)
	insert("legacy", bson.D{{Key: "_id", Value: bin(ksuid.New())}}, bson.D{{Key: "_id", Value: bin(ksuid.New())}})
	insert("legacy"+bsoncodec.JournalSuffix, bson.D{{Key: "_id", Value: bin(ksuid.New())}, {Key: "to", Value: ksuid.New()}, {Key: "doc", Value: bson.D{}}})
	insert("events",
		bson.D{{Key: "order_id", Value: ksuid.New().String()}}, bson.D{{Key: "order_id", Value: ksuid.New().String()}},
		bson.D{{Key: "order_id", Value: bin(ksuid.New())}}, bson.D{{Key: "order_id", Value: nil}})
	insert("sessions", bson.D{{Key: "session", Value: objectid.New().String()}}, bson.D{{Key: "session", Value: bson.ObjectID(objectid.New())}})
	insert("people", bson.D{{Key: "name", Value: "Ada Lovelace"}}, bson.D{{Key: "name", Value: "Grace Hopper"}})
	insert(bsoncodec.LeaseCollection, bson.D{
		{Key: "_id", Value: bson.D{{Key: "collection", Value: "events"}, {Key: "field", Value: "order_id"}}},
		{Key: "holder", Value: "host pid 1 run 0"}, {Key: "expires", Value: day}, {Key: "since", Value: day}})

	dir := t.TempDir()
	sortid, helper := filepath.Join(dir, "sortid"), filepath.Join(dir, "sortid-check-mongodb")
	for bin, pkg := range map[string]string{sortid: "github.com/sortid/sortid/cmd/sortid", helper: "github.com/sortid/sortid/bsoncodec/cmd/sortid-check-mongodb"} {
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	uri := strings.Replace(servers.mongoURI, "/?", "/"+name+"?", 1)
	cmd := exec.CommandContext(ctx, sortid, "check", "--json", "--mongodb", helper, uri)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("sortid check: %v (want exit status 1)\n%s", err, out)
	}
	var findings []bsoncodec.Finding
	if err := json.Unmarshal(out, &findings); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []struct{ where, mark, says string }{
		{"events.order_id", "SILENT", "1 documents hold KSUIDs as 20 bytes of binary"},
		{"legacy._id", "SILENT", "2 documents hold KSUIDs as 20 bytes of binary"},
		{"legacy._id", "SILENT", "a normalization of _id stopped while it moved them"},
		{"orders.parent", "SILENT", "1 documents hold the zero KSUID"},
		{"sessions.session", "SILENT", "1 documents hold ObjectIDs as hex strings"},
		{"events.order_id", "note", "a normalization stopped before it finished"},
	}
	ok := len(findings) == len(want)
	for i := 0; ok && i < len(want); i++ {
		f, w := findings[i], want[i]
		ok = f.Collection+"."+f.Field == w.where && f.Silent == (w.mark == "SILENT") && strings.HasPrefix(f.Problem, w.says)
	}
	if !ok {
		t.Errorf("sortid check found\n%s\nwant, in order: %+v", out, want)
	}

	// Where the _ids are strings already there is nothing to do: sortid
	// finds each by its ksuid.KSUID and a day's window is the day's.
	coll := db.Collection("orders")
	lo, hi, err := ksuid.Window(day.Add(24*time.Hour), day.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	n, err := coll.CountDocuments(ctx, bsoncodec.KSUIDField("_id").Between(lo, hi))
	if err != nil || n != 24 {
		t.Errorf("a day's window over string _ids: %d, %v; want 24", n, err)
	}
	first, _ := ksuid.Parse(orders[30].(bson.D)[0].Value.(string))
	var doc struct {
		ID ksuid.KSUID `bson:"_id"`
		N  int         `bson:"n"`
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: first}}).Decode(&doc); err != nil || doc.ID != first || doc.N != 30 {
		t.Errorf("the order %s by its ksuid.KSUID: %+v, %v", first, doc, err)
	}

	// A database with none of it: exit 0.
	clean := servers.mongoDB.Client().Database(name + "_clean")
	t.Cleanup(func() { clean.Drop(context.Background()) })
	if _, err := clean.Collection("orders").InsertMany(ctx, orders); err != nil {
		t.Fatal(err)
	}
	if _, err := clean.Collection("orders").UpdateMany(ctx, bson.D{{Key: "parent", Value: ksuid.Nil.String()}}, bson.D{{Key: "$set", Value: bson.D{{Key: "parent", Value: nil}}}}); err != nil {
		t.Fatal(err)
	}
	out, err = exec.CommandContext(ctx, sortid, "check", "--mongodb", helper, strings.Replace(servers.mongoURI, "/?", "/"+name+"_clean?", 1)).Output()
	if err != nil || !strings.Contains(string(out), "2 fields that hold IDs read; 0 findings") {
		t.Errorf("sortid check on a clean database: %v\n%s", err, out)
	}
}
