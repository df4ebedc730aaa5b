package containers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// mysqlTable creates a table with the given column definitions for t
// alone, in the test database, and drops it when t ends. It returns the
// quoted table name.
func mysqlTable(t *testing.T, ctx context.Context, db *sql.DB, columns string) string {
	t.Helper()
	// MySQL allows 64 characters in a name.
	name := fmt.Sprintf("t%d_%s", tableSeq.Add(1), sanitize(t.Name()))
	name = "`" + name[:min(len(name), 64)] + "`"
	if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE "+name+" ("+columns+")"); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() { db.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

// mysqlInsert inserts one value per row into table's id column, 500 rows
// per statement.
func mysqlInsert[T any](t *testing.T, ctx context.Context, db *sql.DB, table string, values []T) {
	t.Helper()
	if err := mysqlInsertErr(ctx, db, table, values); err != nil {
		t.Fatalf("inserting into %s: %v", table, err)
	}
}

func mysqlInsertErr[T any](ctx context.Context, db *sql.DB, table string, values []T) error {
	for len(values) > 0 {
		n := min(len(values), 500)
		args := make([]any, n)
		for i := range n {
			args[i] = values[i]
		}
		query := "INSERT INTO " + table + " (id) VALUES " + strings.TrimSuffix(strings.Repeat("(?),", n), ",")
		if _, err := db.ExecContext(ctx, query, args...); err != nil {
			return err
		}
		values = values[n:]
	}
	return nil
}

// mysqlIDs runs query and scans each row's single column into an ID.
func mysqlIDs[T any, PT interface {
	*T
	sql.Scanner
}](t *testing.T, ctx context.Context, db *sql.DB, query string, args ...any) []T {
	t.Helper()
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []T
	for rows.Next() {
		var id T
		if err := rows.Scan(PT(&id)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

func rawKSUIDs(ids []ksuid.KSUID) [][]byte {
	out := make([][]byte, len(ids))
	for i := range ids {
		out[i] = ids[i][:]
	}
	return out
}

func TestMySQLKSUIDOrder(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		ctx := testContext(t)
		db := m.db
		ids := ksuidsOverTime(t)
		lo, _ := ksuid.MinAt(windowFrom)
		hi, _ := ksuid.MaxAt(windowTo)
		inside := idsInWindow(ids)

		t.Run("BINARY(20)", func(t *testing.T) {
			// database/sql sends an ID's Value, the text form; a BINARY column
			// takes the raw bytes, id[:].
			table := mysqlTable(t, ctx, db, "id BINARY(20) PRIMARY KEY")
			mysqlInsert(t, ctx, db, table, rawKSUIDs(ids))
			assertOrder(t, mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id"), ids)
			assertOrder(t, mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" WHERE id BETWEEN ? AND ? ORDER BY id", lo[:], hi[:]), inside)
		})
		t.Run("CHAR(27) ascii_bin", func(t *testing.T) {
			table := mysqlTable(t, ctx, db, "id CHAR(27) CHARACTER SET ascii COLLATE ascii_bin PRIMARY KEY")
			mysqlInsert(t, ctx, db, table, ids)
			assertOrder(t, mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id"), ids)
			assertOrder(t, mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" WHERE id BETWEEN ? AND ? ORDER BY id", lo, hi), inside)
		})
	})
}

func TestMySQLObjectIDOrder(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		ctx := testContext(t)
		db := m.db
		ids := objectIDsOverTime(t)
		lo, _ := objectid.MinAt(windowFrom)
		hi, _ := objectid.MaxAt(windowTo)
		inside := idsInWindow(ids)

		t.Run("BINARY(12)", func(t *testing.T) {
			raw := make([][]byte, len(ids))
			for i := range ids {
				raw[i] = ids[i][:]
			}
			table := mysqlTable(t, ctx, db, "id BINARY(12) PRIMARY KEY")
			mysqlInsert(t, ctx, db, table, raw)
			assertOrder(t, mysqlIDs[objectid.ObjectID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id"), ids)
			assertOrder(t, mysqlIDs[objectid.ObjectID](t, ctx, db, "SELECT id FROM "+table+" WHERE id BETWEEN ? AND ? ORDER BY id", lo[:], hi[:]), inside)
		})
		t.Run("CHAR(24) ascii, case-insensitive collation", func(t *testing.T) {
			// Lowercase hex sorts the same under any collation: this column
			// keeps the character set's default, ascii_general_ci...
			table := mysqlTable(t, ctx, db, "id CHAR(24) CHARACTER SET ascii PRIMARY KEY")
			assertColumnCollation(t, ctx, db, table, "ascii_general_ci")
			mysqlInsert(t, ctx, db, table, ids)
			assertOrder(t, mysqlIDs[objectid.ObjectID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id"), ids)
			assertOrder(t, mysqlIDs[objectid.ObjectID](t, ctx, db, "SELECT id FROM "+table+" WHERE id BETWEEN ? AND ? ORDER BY id", lo, hi), inside)

			// ...which does not sort base62 by bytes: the same column type
			// misorders KSUIDs, so the check above could fail.
			counter := mysqlTable(t, ctx, db, "id CHAR(27) CHARACTER SET ascii PRIMARY KEY")
			mysqlInsert(t, ctx, db, counter, []ksuid.KSUID{newerCaseKSUID, olderCaseKSUID})
			if got := mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+counter+" ORDER BY id"); got[0] != newerCaseKSUID {
				t.Errorf("KSUIDs under ascii_general_ci came back %v; expected the newer first (case ignored)", got)
			}
		})
	})
}

// assertColumnCollation checks the collation of table's id column.
func assertColumnCollation(t *testing.T, ctx context.Context, db *sql.DB, table, want string) {
	t.Helper()
	var got string
	err := db.QueryRowContext(ctx, `SELECT COLLATION_NAME FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'id'`, strings.Trim(table, "`")).Scan(&got)
	if err != nil || got != want {
		t.Fatalf("%s.id has collation %q (%v); want %q", table, got, err, want)
	}
}

// TestMySQLCaseInsensitiveCollationBreaksKSUIDs shows the trap the README
// warns about. A CHAR(27) column under the database's default collation
// (utf8mb4_general_ci on MariaDB, utf8mb4_0900_ai_ci on MySQL 8) ignores
// letter case: KSUIDs misorder, two KSUIDs that differ only in case are
// the same key, and a lookup by one finds the other's row.
func TestMySQLCaseInsensitiveCollationBreaksKSUIDs(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		ctx := testContext(t)
		db := m.db

		var collation string
		if err := db.QueryRowContext(ctx, "SELECT @@collation_database").Scan(&collation); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(collation, "_ci") {
			t.Fatalf("the database's default collation is %s; this test needs a case-insensitive default, as MySQL and MariaDB ship", collation)
		}
		lower := ksuid.MustParse("1c0000000000000000000000000")
		upper := ksuid.MustParse("1C0000000000000000000000000")

		t.Run("default collation", func(t *testing.T) {
			table := mysqlTable(t, ctx, db, "id CHAR(27) PRIMARY KEY")
			assertColumnCollation(t, ctx, db, table, collation)

			mysqlInsert(t, ctx, db, table, []ksuid.KSUID{newerCaseKSUID, olderCaseKSUID})
			if got := mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id"); got[0] != newerCaseKSUID {
				t.Errorf("ORDER BY id gave %v; expected the newer %v first (time order broken)", got, newerCaseKSUID)
			}
			many := mysqlTable(t, ctx, db, "id CHAR(27) PRIMARY KEY")
			mysqlInsert(t, ctx, db, many, ksuidsOverTime(t))
			if ksuid.IsSorted(mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+many+" ORDER BY id")) {
				t.Errorf("random KSUIDs came back in byte order under %s", collation)
			}

			mysqlInsert(t, ctx, db, table, []ksuid.KSUID{upper})
			err := mysqlInsertErr(ctx, db, table, []ksuid.KSUID{lower})
			if mysqlErr := (*mysql.MySQLError)(nil); !errors.As(err, &mysqlErr) || mysqlErr.Number != 1062 {
				t.Errorf("inserting %v beside %v: %v; want a duplicate-key error (1062)", lower, upper, err)
			}
			found := mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" WHERE id = ?", lower)
			if len(found) != 1 || found[0] != upper {
				t.Errorf("looking up %v found %v; expected the other ID's row, %v", lower, found, upper)
			}
		})
		t.Run("ascii_bin", func(t *testing.T) {
			table := mysqlTable(t, ctx, db, "id CHAR(27) CHARACTER SET ascii COLLATE ascii_bin PRIMARY KEY")
			mysqlInsert(t, ctx, db, table, []ksuid.KSUID{newerCaseKSUID, olderCaseKSUID, upper, lower})
			want := []ksuid.KSUID{olderCaseKSUID, upper, newerCaseKSUID, lower}
			got := mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" ORDER BY id")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("ORDER BY id gave %v, want %v", got, want)
			}
			if found := mysqlIDs[ksuid.KSUID](t, ctx, db, "SELECT id FROM "+table+" WHERE id = ?", lower); len(found) != 1 || found[0] != lower {
				t.Errorf("looking up %v found %v", lower, found)
			}
		})
	})
}

// TestMySQLTextIntoBinaryFails checks that the mistake of passing an ID
// itself (its Value is the text form) for a BINARY column is an error,
// not a stored prefix of the text: the server's default sql_mode is
// strict.
func TestMySQLTextIntoBinaryFails(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		ctx := testContext(t)
		db := m.db
		var mode string
		if err := db.QueryRowContext(ctx, "SELECT @@sql_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(mode, "STRICT_TRANS_TABLES") {
			t.Fatalf("sql_mode %q is not strict; there the text would be cut to the column's width without an error", mode)
		}
		for _, tc := range []struct {
			column string
			id     any
		}{
			{"id BINARY(20) PRIMARY KEY", ksuid.New()},
			{"id BINARY(12) PRIMARY KEY", objectid.New()},
		} {
			table := mysqlTable(t, ctx, db, tc.column)
			err := mysqlInsertErr(ctx, db, table, []any{tc.id})
			if mysqlErr := (*mysql.MySQLError)(nil); !errors.As(err, &mysqlErr) || mysqlErr.Number != 1406 {
				t.Errorf("%s given %T: %v; want a data-too-long error (1406)", tc.column, tc.id, err)
			}
		}
	})
}
