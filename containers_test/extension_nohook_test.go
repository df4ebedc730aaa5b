package containers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestExtensionCopyFromWithoutHook: pgx's CopyFrom writes the binary
// format, and for a type it does not know (no sqltype hook) it sends an
// ID's text there; the types' receive functions read the 27 or 24
// characters as well as the 20 or 12 bytes. Before, every load failed
// with "invalid binary ksuid: 27 bytes". A slice for = ANY($1) still
// needs the hook in every mode: pgx cannot encode it (the docs quote the
// error).
func TestExtensionCopyFromWithoutHook(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		conn, err := pgx.ConnectConfig(ctx, ext.config.ConnConfig) // no AfterConnect
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		table := extTable(t, ctx, ext, "k ksuid PRIMARY KEY, o objectid NOT NULL, n int NOT NULL")
		base := time.Now().Add(-time.Hour).Truncate(time.Second)
		const rows = 1000
		ks := make([]ksuid.KSUID, rows)
		os := make([]objectid.ObjectID, rows)
		data := make([][]any, rows)
		for i := range data {
			at := base.Add(time.Duration(i) * time.Second)
			ks[i], err = ksuid.NewAt(at)
			if err != nil {
				t.Fatal(err)
			}
			if os[i], err = objectid.NewAt(at); err != nil {
				t.Fatal(err)
			}
			data[i] = []any{ks[i], os[i], i}
		}
		n, err := conn.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"k", "o", "n"}, pgx.CopyFromRows(data))
		if err != nil || n != rows {
			t.Fatalf("CopyFrom without the hook: %d rows, %v; want %d", n, err, rows)
		}
		got, err := conn.Query(ctx, "SELECT k::text, o::text FROM "+table+" ORDER BY n")
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for got.Next() {
			var k, o string
			if err := got.Scan(&k, &o); err != nil {
				t.Fatal(err)
			}
			if k != ks[i].String() || o != os[i].String() {
				t.Fatalf("row %d: %s %s; want %s %s", i, k, o, ks[i], os[i])
			}
			i++
		}
		if err := got.Err(); err != nil || i != rows {
			t.Fatalf("read %d rows back, %v", i, err)
		}
		// In ID order is in time order: the text was read as the ID, not
		// as bytes of something else.
		var misordered int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM (SELECT n, lag(n) OVER (ORDER BY k) AS prev FROM "+table+") s WHERE n < prev").Scan(&misordered); err != nil || misordered != 0 {
			t.Fatalf("%d rows out of time order by k (%v)", misordered, err)
		}
		// What still needs the hook, in every mode: a slice of IDs.
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
			var count int
			err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE k = ANY($1)", mode, ks[:3]).Scan(&count)
			if err == nil || !strings.Contains(err.Error(), "cannot find encode plan") {
				t.Errorf("%v: = ANY($1) with a []ksuid.KSUID without the hook: %d, %v; want pgx's \"cannot find encode plan\"", mode, count, err)
			}
		}
	})
}

// TestExtensionReceiveText feeds the receive functions the text length
// with hostile bytes: each is an invalid_binary_representation whose
// message quotes none of them, and the connection goes on.
func TestExtensionReceiveText(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		conn, err := pgx.ConnectConfig(ctx, ext.config.ConnConfig)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var ksuidOID, objectidOID uint32
		if err := conn.QueryRow(ctx, "SELECT 'ksuid'::regtype::oid, 'objectid'::regtype::oid").Scan(&ksuidOID, &objectidOID); err != nil {
			t.Fatal(err)
		}
		k := ksuid.MustParse("2HxUxTmv4vd6vhTtOMydU7SgNKp")
		o := objectid.MustParse("65f1c0ffee0123456789abcd")
		recv := func(oid uint32, b []byte) (string, error) {
			res := conn.PgConn().ExecParams(ctx, "SELECT $1::text", [][]byte{b}, []uint32{oid}, []int16{1}, nil).Read()
			if res.Err != nil {
				return "", res.Err
			}
			return string(res.Rows[0][0]), nil
		}
		for _, c := range []struct {
			name string
			oid  uint32
			in   []byte
			want string // "" for an error
		}{
			{"ksuid text", ksuidOID, []byte(k.String()), k.String()},
			{"ksuid raw", ksuidOID, k.Bytes(), k.String()},
			{"largest ksuid", ksuidOID, []byte("aWgEPTl1tmebfsQzFP4bxwgy80V"), "aWgEPTl1tmebfsQzFP4bxwgy80V"},
			{"above the largest", ksuidOID, []byte("aWgEPTl1tmebfsQzFP4bxwgy80W"), ""},
			{"NUL inside", ksuidOID, []byte("2HxUxTmv4vd6v\x00TtOMydU7SgNKp"), ""},
			{"invalid UTF-8", ksuidOID, []byte("2HxUxTmv4vd6v\xffTtOMydU7SgNKp"), ""},
			{"a quote and a percent", ksuidOID, []byte("2HxUxTmv4vd6v'%sOMydU7SgNK"), ""},
			{"hex form of 27", ksuidOID, []byte(`\x` + strings.Repeat("0", 25)), ""},
			{"objectid text", objectidOID, []byte(o.String()), o.String()},
			{"objectid upper", objectidOID, []byte(strings.ToUpper(o.String())), o.String()},
			{"objectid raw", objectidOID, o.Bytes(), o.String()},
			{"objectid \\x form", objectidOID, []byte(`\x` + o.String()[:22]), ""},
			{"objectid NUL", objectidOID, []byte("65f1c0ffee01\x0023456789abcd"), ""},
			{"objectid 0xff", objectidOID, []byte("65f1c0ffee01\xff23456789abcd"), ""},
		} {
			got, err := recv(c.oid, c.in)
			var pgErr *pgconn.PgError
			switch {
			case c.want != "" && (err != nil || got != c.want):
				t.Errorf("%s: %q, %v; want %s", c.name, got, err, c.want)
			case c.want == "" && !errors.As(err, &pgErr):
				t.Errorf("%s: %q, %v; want invalid_binary_representation", c.name, got, err)
			case c.want == "" && (pgErr.Code != "22P03" || strings.ContainsAny(pgErr.Message+pgErr.Detail, "\x00\xff'") || len(pgErr.Message+pgErr.Detail) > 200):
				t.Errorf("%s: %s %q %q; want 22P03, bounded, quoting no input byte", c.name, pgErr.Code, pgErr.Message, pgErr.Detail)
			}
		}
		var one int
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("the connection no longer answers: %v", err)
		}
	})
}
