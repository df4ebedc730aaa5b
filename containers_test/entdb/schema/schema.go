// Package schema is an ent schema keyed by KSUIDs: accounts and their
// orders, with a KSUID foreign key and a nullable KSUID. The code in the
// package above is generated from it (go generate ./entdb, entc
// v0.14.5); scripts/test.sh regenerates it and fails if it differs.
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/sortid/sortid/ksuid"
)

// idColumn is the column type of every KSUID field: the ksuid domain of
// `sortid sql` on PostgreSQL, where pgx (with sqltype.AfterConnect)
// writes the 20 raw bytes; text on SQLite, as the GORM plugin makes it,
// whose default collation compares bytes.
var idColumn = map[string]string{
	dialect.Postgres: "ksuid",
	dialect.SQLite:   "text",
}

// ids makes the keys: monotonic, so that rows one process makes in a
// second keep their order.
var ids = ksuid.NewGenerator(ksuid.WithMonotonic())

// newID is the default of the ID fields. A monotonic generator fails only
// when the clock reads a time a KSUID cannot hold; ent's defaults cannot
// return an error, so that is a panic, as in ksuid.New.
func newID() ksuid.KSUID {
	id, err := ids.New()
	if err != nil {
		panic(err)
	}
	return id
}

// Account holds the schema of accounts.
type Account struct{ ent.Schema }

// Fields of Account.
func (Account) Fields() []ent.Field {
	return []ent.Field{
		field.Other("id", ksuid.KSUID{}).SchemaType(idColumn).Default(newID).Immutable(),
		field.String("name"),
	}
}

// Edges of Account.
func (Account) Edges() []ent.Edge {
	return []ent.Edge{edge.To("orders", Order.Type)}
}

// Order holds the schema of orders.
type Order struct{ ent.Schema }

// Fields of Order.
func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.Other("id", ksuid.KSUID{}).SchemaType(idColumn).Default(newID).Immutable(),
		field.Other("account_id", ksuid.KSUID{}).SchemaType(idColumn),
		field.Other("parent", ksuid.NullKSUID{}).SchemaType(idColumn).Optional(),
		field.Int64("total"),
	}
}

// Edges of Order.
func (Order) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("account", Account.Type).Ref("orders").Field("account_id").Unique().Required(),
	}
}
