package gormplugin

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"
)

// ErrUpsertID is wrapped by the error of an upsert whose rows' IDs the
// plugin cannot tell: on MySQL, which has no RETURNING, or where the
// update has a WHERE that may skip rows, an updated or skipped row keeps
// its own ID, not the one the plugin made for the record, and without
// conflict columns the plugin cannot read it back.
var ErrUpsertID = errors.New("the IDs of the rows an upsert updated are unknown")

// settingMadeIDs marks a statement in which the plugin made an ID.
const settingMadeIDs = "sortid:made_ids"

// settingReadBackUpsert holds the upsert clause of a create on PostgreSQL
// or SQLite whose IDs are read back after it ran: one of several records,
// or whose DO UPDATE has a WHERE (see returnIDsOnConflict).
const settingReadBackUpsert = "sortid:read_back_upsert"

// settingMySQLUpsert holds, from before the statement is built, the
// upsert clause of a create on MySQL that updates rows on conflict: the
// MySQL dialect rewrites DoNothing into an update of the key to itself
// while it builds the statement.
const settingMySQLUpsert = "sortid:mysql_upsert"

// mysqlUpsert returns the upsert clause of a create on MySQL that updates
// rows on conflict, in which the plugin made IDs. Call it before GORM
// builds the statement.
func mysqlUpsert(db *gorm.DB) (clause.OnConflict, bool) {
	if db.Dialector.Name() != "mysql" {
		return clause.OnConflict{}, false
	}
	if _, made := db.Statement.Settings.Load(settingMadeIDs); !made {
		return clause.OnConflict{}, false
	}
	c, ok := db.Statement.Clauses["ON CONFLICT"]
	if !ok {
		return clause.OnConflict{}, false
	}
	onConflict, ok := c.Expression.(clause.OnConflict)
	if !ok || onConflict.DoNothing {
		return clause.OnConflict{}, false
	}
	return onConflict, true
}

// records returns the structs a create writes; maps are left out.
func records(db *gorm.DB) []reflect.Value {
	rv := reflect.Indirect(db.Statement.ReflectValue)
	switch rv.Kind() {
	case reflect.Struct:
		return []reflect.Value{rv}
	case reflect.Slice, reflect.Array:
		out := make([]reflect.Value, 0, rv.Len())
		for i := range rv.Len() {
			if elem := reflect.Indirect(rv.Index(i)); elem.Kind() == reflect.Struct {
				out = append(out, elem)
			}
		}
		return out
	}
	return nil
}

// refuseBlindMySQLUpsert notes an upsert on MySQL for readBackUpsertIDs,
// and fails one of several records that names no conflict columns before
// it runs: afterwards neither the plugin nor the caller could tell which
// records got which row's ID.
func refuseBlindMySQLUpsert(db *gorm.DB) {
	onConflict, ok := mysqlUpsert(db)
	if !ok {
		return
	}
	db.Statement.Settings.Store(settingMySQLUpsert, onConflict)
	if n := len(records(db)); len(onConflict.Columns) == 0 && n > 1 {
		db.AddError(fmt.Errorf("gormplugin: upsert of %d %s records on MySQL (name the unique columns that conflict in clause.OnConflict{Columns: ...}, and the plugin reads the IDs back by them): %w",
			n, db.Statement.Schema.Name, ErrUpsertID))
	}
}

// readBackUpsertIDs runs after an upsert on MySQL, or one on PostgreSQL
// or SQLite of several records or whose update has a WHERE, and puts each
// row's ID into its record. With the conflict columns named, it reads the
// IDs back by them.
// Without, a single record that was inserted (one row affected) already
// holds its row's ID; one that updated a row is an error, which rolls the
// upsert back in GORM's default transaction.
func readBackUpsertIDs(db *gorm.DB) {
	if db.Error != nil || db.Statement.Schema == nil {
		return
	}
	v, ok := db.Statement.Settings.Load(settingMySQLUpsert)
	if !ok {
		if v, ok = db.Statement.Settings.Load(settingReadBackUpsert); !ok {
			return
		}
	}
	onConflict := v.(clause.OnConflict)
	recs := records(db)
	if len(recs) == 0 {
		return // a map's ID is the caller's to read back
	}
	if len(onConflict.Columns) == 0 {
		if len(recs) > 1 || db.RowsAffected != 1 {
			db.AddError(fmt.Errorf("gormplugin: upsert of %s records that updated or skipped a row (name the unique columns that conflict in clause.OnConflict{Columns: ...}, and the plugin reads the IDs back by them): %w",
				db.Statement.Schema.Name, ErrUpsertID))
		}
		return
	}
	if err := readBackIDs(db, onConflict.Columns, recs); err != nil {
		db.AddError(err)
	}
}

// readBackIDs selects the ID columns of the rows whose conflict columns
// hold the records' values, and sets each record's IDs from its row.
func readBackIDs(db *gorm.DB, columns []clause.Column, recs []reflect.Value) error {
	s := db.Statement.Schema
	ctx := db.Statement.Context
	keyFields := make([]*schema.Field, len(columns))
	for i, c := range columns {
		if keyFields[i] = s.LookUpField(c.Name); keyFields[i] == nil {
			return fmt.Errorf("gormplugin: upsert: conflict column %q is not a field of %s", c.Name, s.Name)
		}
	}
	ids := idFields(s)
	// SELECT ids..., keys... FROM table WHERE (keys...) IN ((?, ...), ...)
	var sql strings.Builder
	var vars []any
	selected := make([]string, 0, len(ids)+len(keyFields))
	for _, f := range append(append([]*schema.Field{}, ids...), keyFields...) {
		selected = append(selected, db.Statement.Quote(f.DBName))
	}
	keyNames := selected[len(ids):]
	sql.WriteString("SELECT " + strings.Join(selected, ", ") + " FROM " + statementTable(db.Statement) + " WHERE (" + strings.Join(keyNames, ", ") + ") IN (")
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(keyFields)), ", ") + ")"
	for i, rec := range recs {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString(tuple)
		for _, f := range keyFields {
			v, _ := f.ValueOf(ctx, rec)
			vars = append(vars, v)
		}
	}
	sql.WriteString(")")

	rows, err := db.Session(&gorm.Session{NewDB: true}).Raw(sql.String(), vars...).Rows()
	if err != nil {
		return fmt.Errorf("gormplugin: reading back the IDs of an upsert: %w", err)
	}
	defer rows.Close()
	found := make(map[string][]reflect.Value)
	for rows.Next() {
		dest := make([]any, 0, len(selected))
		idValues := make([]reflect.Value, len(ids))
		for i, f := range ids {
			idValues[i] = reflect.New(f.IndirectFieldType)
			dest = append(dest, idValues[i].Interface())
		}
		keys := make([]any, len(keyFields))
		typedKeys := make([]reflect.Value, len(keyFields))
		for i, f := range keyFields {
			// An ID key column is read into its own type, so that its
			// key is made as the record's is: a UUID comes back as 16
			// bytes from MySQL, and as text elsewhere.
			if fieldKind(f) != nil {
				typedKeys[i] = reflect.New(f.IndirectFieldType)
				dest = append(dest, typedKeys[i].Interface())
				continue
			}
			dest = append(dest, &keys[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("gormplugin: reading back the IDs of an upsert: %w", err)
		}
		for i, k := range typedKeys {
			if k.IsValid() {
				keys[i] = k.Elem().Interface()
			}
		}
		found[keyOf(keys)] = idValues
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("gormplugin: reading back the IDs of an upsert: %w", err)
	}
	for _, rec := range recs {
		keys := make([]any, len(keyFields))
		for i, f := range keyFields {
			keys[i], _ = f.ValueOf(ctx, rec)
		}
		idValues, ok := found[keyOf(keys)]
		if !ok {
			return fmt.Errorf("gormplugin: upsert: no row has %s %v after it: %w", s.Name, keys, ErrUpsertID)
		}
		for i, f := range ids {
			value := idValues[i]
			if f.FieldType.Kind() != reflect.Pointer {
				value = value.Elem()
			}
			if err := f.Set(ctx, rec, value.Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyOf makes a map key of conflict-column values, alike whether they come
// from a record or from the driver (which returns text as []byte).
func keyOf(values []any) string {
	var b strings.Builder
	for _, v := range values {
		if raw, ok := v.([]byte); ok {
			v = string(raw)
		}
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			v = rv.Elem().Interface() // a pointer field's key is its value
		}
		fmt.Fprintf(&b, "%v\x00", v)
	}
	return b.String()
}
