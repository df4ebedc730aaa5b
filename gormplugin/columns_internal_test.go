package gormplugin

import (
	"slices"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/gormplugin/internal/idkind"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestStatementIDColumns: the columns a statement with no model compares
// with an ID value, found in its WHERE conditions, each with the kind of
// the value and whether the comparison orders; columns compared with
// other values are not IDs.
func TestStatementIDColumns(t *testing.T) {
	k, o := ksuid.New(), objectid.New()
	for _, tc := range []struct {
		name string
		cond clause.Expression
		want []idColumn
	}{
		{"id > ?", clause.Expr{SQL: "id > ?", Vars: []any{k}}, []idColumn{{"id", idkind.KSUID, true, false, false}}},
		{"qualified IN a slice", clause.Expr{SQL: "t.ref IN ?", Vars: []any{[]ksuid.KSUID{k}}}, []idColumn{{"ref", idkind.KSUID, false, false, false}}},
		{"quoted", clause.Expr{SQL: `"id" <> ?`, Vars: []any{&k}}, []idColumn{{"id", idkind.KSUID, false, false, false}}},
		{"backquoted", clause.Expr{SQL: "`id` = ?", Vars: []any{o}}, []idColumn{{"id", idkind.ObjectID, false, false, true}}},
		{"the second placeholder", clause.Expr{SQL: "n = ? AND id BETWEEN ? AND ?", Vars: []any{3, k, k}}, []idColumn{{"id", idkind.KSUID, true, false, false}}},
		{">= after <>", clause.Expr{SQL: "id <> ? OR id >= ?", Vars: []any{k, k}}, []idColumn{{"id", idkind.KSUID, false, false, false}, {"id", idkind.KSUID, true, false, false}}},
		{"NOT IN", clause.Expr{SQL: "(id NOT IN (?))", Vars: []any{[]objectid.ObjectID{o}}}, []idColumn{{"id", idkind.ObjectID, false, false, false}}},
		{"= a slice", clause.Expr{SQL: "id = ?", Vars: []any{[]ksuid.KSUID{k}}}, []idColumn{{"id", idkind.KSUID, false, false, false}}},
		{"a string is not known", clause.Expr{SQL: "id = ?", Vars: []any{k.String()}}, nil},
		{"no placeholder", clause.Expr{SQL: "id IS NOT NULL"}, nil},
		{"map condition", clause.Eq{Column: "rt.id", Value: k}, []idColumn{{"id", idkind.KSUID, false, false, true}}},
		{"struct condition", clause.Eq{Column: clause.Column{Table: clause.CurrentTable, Name: "id"}, Value: ksuid.NullKSUID{KSUID: k, Valid: true}}, []idColumn{{"id", idkind.KSUID, false, false, true}}},
		{"IN of values", clause.IN{Column: "id", Values: []any{o, o}}, []idColumn{{"id", idkind.ObjectID, false, false, false}}},
		{"inside NOT and OR", clause.NotConditions{Exprs: []clause.Expression{clause.OrConditions{Exprs: []clause.Expression{clause.Lt{Column: "id", Value: k}}}}}, []idColumn{{"id", idkind.KSUID, true, false, false}}},
	} {
		stmt := &gorm.Statement{Clauses: map[string]clause.Clause{"WHERE": {Expression: clause.Where{Exprs: []clause.Expression{tc.cond}}}}}
		for range 2 { // the second time from parsedConditions
			if got := statementIDColumns(stmt); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}
