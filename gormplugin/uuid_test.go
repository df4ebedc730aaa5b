package gormplugin

import (
	"bytes"
	"sync"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/uuidv7"
)

type mysqlUUIDModel struct {
	ID   uuidv7.UUID
	Blob []byte
	Name string
}

// bindMySQLUUID runs for every value GORM binds on MySQL: a UUID becomes
// its 16 bytes, a string compared with the UUID column is parsed, and any
// other value, of any Go type, passes untouched.
func TestBindMySQLUUID(t *testing.T) {
	s, err := schema.Parse(&mysqlUUIDModel{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	id := uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	bind := func(sql string, v any) (any, error) {
		stmt := &gorm.Statement{Schema: s, Table: s.Table, DB: &gorm.DB{Config: &gorm.Config{}}}
		stmt.SQL.WriteString(sql)
		stmt.Vars = append(stmt.Vars, v)
		bindMySQLUUID(stmt, stmt, v)
		return stmt.Vars[0], stmt.Error
	}
	for _, tc := range []struct {
		name string
		sql  string
		v    any
		want any
	}{
		{"a UUID", "INSERT INTO `t` (`id`) VALUES (", id, id.Bytes()},
		{"a pointer to one", "INSERT INTO `t` (`id`) VALUES (", &id, id.Bytes()},
		{"a nil pointer", "INSERT INTO `t` (`id`) VALUES (", (*uuidv7.UUID)(nil), nil},
		{"a NullUUID", "INSERT INTO `t` (`id`) VALUES (", uuidv7.NullUUID{UUID: id, Valid: true}, id.Bytes()},
		{"a string compared with the UUID column", "SELECT * FROM `t` WHERE `id` = ", id.String(), id.Bytes()},
		{"a string compared with another column", "SELECT * FROM `t` WHERE `name` = ", "x", "x"},
		{"bytes", "INSERT INTO `t` (`blob`) VALUES (", []byte{1, 2}, []byte{1, 2}},
		{"a map", "INSERT INTO `t` (`blob`) VALUES (", map[string]int{"a": 1}, map[string]int{"a": 1}},
	} {
		got, err := bind(tc.sql, tc.v)
		gb, gok := got.([]byte)
		wb, wok := tc.want.([]byte)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case gok != wok || gok && !bytes.Equal(gb, wb) || !gok && tc.want == nil && got != nil:
			t.Errorf("%s: bound as %#v, want %#v", tc.name, got, tc.want)
		}
	}
	if _, err := bind("SELECT * FROM `t` WHERE `id` = ", "not-a-uuid"); err == nil {
		t.Error("a string that is no UUID, compared with the UUID column: no error")
	}
}
