package containers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// byteaTable makes a bytea-keyed table as another tool would and fills it
// with ids, each stored by form: its raw bytes (segmentio's Bytes()) or
// its text's bytes.
func byteaTable(t *testing.T, ctx context.Context, ids []ksuid.KSUID, form func(ksuid.KSUID) []byte) string {
	t.Helper()
	table := pgTable(t, ctx, servers.pg, "id bytea PRIMARY KEY, n int NOT NULL DEFAULT 0")
	for _, id := range ids {
		if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", form(id)); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// byteaState is what the table holds: its rows, and how many were
// updated.
func byteaState(t *testing.T, ctx context.Context, table string) string {
	t.Helper()
	var rows, updated int
	if err := servers.pg.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE n <> 0) FROM "+table).Scan(&rows, &updated); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d rows, %d updated", rows, updated)
}

// TestPostgresByteaRefusesIDs: on a bytea column another tool made, a
// typed ID (or a slice of them) is an error wrapping
// sqltype.ErrByteaParameter in every path where sqltype decides how it
// is sent (pgx's three prepared modes, CopyFrom, database/sql over pgx),
// whichever form the column holds, and no row changes. Before, pgx sent
// the raw bytes there: on a column of the text's bytes, "all but these
// two" deleted every row.
func TestPostgresByteaRefusesIDs(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := make([]ksuid.KSUID, 4)
	for i := range ids {
		ids[i] = ksuid.New()
	}
	fresh := ksuid.New()
	db := openDB(t)
	statements := []struct {
		name, sql string
		args      []any
	}{
		{"delete not in", "DELETE FROM %s WHERE id NOT IN ($1, $2)", []any{ids[0], ids[1]}},
		{"delete <> all", "DELETE FROM %s WHERE id <> ALL($1)", []any{[]ksuid.KSUID{ids[0], ids[1]}}},
		{"delete not = any", "DELETE FROM %s WHERE NOT (id = ANY($1))", []any{[]*ksuid.KSUID{&ids[0], &ids[1]}}},
		{"update", "UPDATE %s SET n = n + 1 WHERE id = $1", []any{ids[2]}},
		{"update not null", "UPDATE %s SET n = n + 1 WHERE id <> $1", []any{ksuid.NullKSUID{KSUID: ids[2], Valid: true}}},
		{"count", "SELECT count(*) FROM %s WHERE id = $1", []any{ids[3]}},
		{"insert", "INSERT INTO %s (id) VALUES ($1)", []any{fresh}},
	}
	fillings := []struct {
		name string
		form func(ksuid.KSUID) []byte
	}{
		{"raw bytes", func(id ksuid.KSUID) []byte { return id.Bytes() }},
		{"text bytes", func(id ksuid.KSUID) []byte { return []byte(id.String()) }},
	}
	type path struct {
		name string
		run  func(sql string, args []any) error
	}
	paths := []path{{"database/sql", func(sql string, args []any) error {
		rows, err := db.QueryContext(ctx, sql, args...)
		if err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	}}}
	for _, mode := range execModes[:3] {
		paths = append(paths, path{mode.String(), func(sql string, args []any) error {
			rows, err := servers.pg.Query(ctx, sql, append([]any{mode}, args...)...)
			if err != nil {
				return err
			}
			rows.Close()
			return rows.Err()
		}})
	}
	for _, filling := range fillings {
		t.Run(filling.name, func(t *testing.T) {
			table := byteaTable(t, ctx, ids, filling.form)
			const want = "4 rows, 0 updated"
			for _, p := range paths {
				for _, st := range statements {
					err := p.run(fmt.Sprintf(st.sql, table), st.args)
					if !errors.Is(err, sqltype.ErrByteaParameter) {
						t.Errorf("%s, %s: %v; want an error wrapping ErrByteaParameter", p.name, st.name, err)
					}
					if got := byteaState(t, ctx, table); got != want {
						t.Fatalf("%s, %s: the table holds %s; want %s", p.name, st.name, got, want)
					}
				}
			}
			_, err := servers.pg.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows([][]any{{fresh}}))
			// pgx ends the COPY with the encoding error's text, and
			// returns the server's error that quotes it.
			if err == nil || !strings.Contains(err.Error(), sqltype.ErrByteaParameter.Error()) {
				t.Errorf("CopyFrom: %v; want ErrByteaParameter's text", err)
			}
			if got := byteaState(t, ctx, table); got != want {
				t.Errorf("after CopyFrom the table holds %s; want %s", got, want)
			}
		})
	}
}

// TestPostgresByteaRawBytesInEveryMode: what the error tells a user to
// do, id[:] for a column of raw bytes, is right in all five of pgx's
// modes, with the hook: "all but these two" deletes two rows.
func TestPostgresByteaRawBytesInEveryMode(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := make([]ksuid.KSUID, 4)
	for i := range ids {
		ids[i] = ksuid.New()
	}
	for _, mode := range execModes {
		table := byteaTable(t, ctx, ids, func(id ksuid.KSUID) []byte { return id.Bytes() })
		var n int
		if err := servers.pg.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = $1", mode, ids[3][:]).Scan(&n); err != nil || n != 1 {
			t.Errorf("%v: = id[:] counts %d (%v); want 1", mode, n, err)
		}
		tag, err := servers.pg.Exec(ctx, "DELETE FROM "+table+" WHERE id NOT IN ($1, $2)", mode, ids[0][:], ids[1][:])
		if err != nil || tag.RowsAffected() != 2 {
			t.Errorf("%v: NOT IN (id[:], id[:]) deleted %d rows (%v); want 2", mode, tag.RowsAffected(), err)
		}
	}
}
