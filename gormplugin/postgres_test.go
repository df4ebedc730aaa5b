package gormplugin

import (
	"sync"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/ksuid"
)

type columnModel struct {
	ID     ksuid.KSUID
	Parent ksuid.NullKSUID
	Name   string
}

// columnBefore reads which column the SQL written so far compares with
// the next placeholder: a string there is parsed as an ID column's ID,
// and an ID there keeps its text form for a column that is no ID column.
func TestColumnBefore(t *testing.T) {
	s, err := schema.Parse(&columnModel{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ sql, want string }{
		{`SELECT * FROM "column_models" WHERE id = `, "id"},
		{`SELECT * FROM "column_models" WHERE "column_models"."id" = `, "id"},
		{`SELECT * FROM "column_models" WHERE id <> `, "id"},
		{`SELECT * FROM "column_models" WHERE id >= `, "id"},
		{`SELECT * FROM "column_models" WHERE id < `, "id"},
		{`SELECT * FROM "column_models" WHERE id IN (`, "id"},
		{`SELECT * FROM "column_models" WHERE id IN ($1,`, "id"},
		{`SELECT * FROM "column_models" WHERE id IN ($1,$2,`, "id"},
		{`SELECT * FROM "column_models" WHERE id BETWEEN `, "id"},
		{`SELECT * FROM "column_models" WHERE id BETWEEN $1 AND `, "id"},
		{`SELECT * FROM "column_models" WHERE (parent = `, "parent"},
		{`SELECT * FROM "column_models" WHERE name = `, "name"},
		{`SELECT * FROM "column_models" WHERE id = $1 AND name = `, "name"}, // the last comparison counts
		{`SELECT * FROM "column_models" JOIN users ON users.x = y WHERE users.id = `, ""},
		{`SELECT * FROM "column_models" WHERE name LIKE `, ""},
		{`SELECT * FROM "column_models" WHERE other = `, ""}, // not a field of the model
		{`INSERT INTO "column_models" ("id","parent","name") VALUES (`, ""},
		// MySQL's backticks and placeholders.
		{"SELECT * FROM `column_models` WHERE `column_models`.`id` = ", "id"},
		{"SELECT * FROM `column_models` WHERE `id` IN (?,?,", "id"},
		{"SELECT * FROM `column_models` WHERE id BETWEEN ? AND ", "id"},
		{"SELECT * FROM `column_models` WHERE `other`.`id` = ", ""},
	} {
		stmt := &gorm.Statement{Schema: s, Table: s.Table}
		stmt.SQL.WriteString(tc.sql)
		got := ""
		if f := columnBefore(stmt); f != nil {
			got = f.DBName
		}
		if got != tc.want {
			t.Errorf("%s: column %q, want %q", tc.sql, got, tc.want)
		}
	}
}

// columnBefore runs for every value GORM binds on PostgreSQL, a million
// times in a CreateInBatches of a million rows: it must not allocate.
func TestColumnBeforeNoAllocs(t *testing.T) {
	s, err := schema.Parse(&columnModel{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		`INSERT INTO "column_models" ("id","parent","name") VALUES ($1,$2,$3),($4,`,
		`SELECT * FROM "column_models" WHERE id BETWEEN $1 AND `,
		`SELECT * FROM "column_models" WHERE id IN ($1,$2,`,
	} {
		stmt := &gorm.Statement{Schema: s, Table: s.Table}
		stmt.SQL.WriteString(sql)
		if n := testing.AllocsPerRun(100, func() { columnBefore(stmt) }); n != 0 {
			t.Errorf("%s: %v allocations, want 0", sql, n)
		}
	}
}
