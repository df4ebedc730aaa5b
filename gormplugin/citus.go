package gormplugin

import (
	"context"
	"reflect"
	"sync"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// Citus returns the rows of a multi-row INSERT ... RETURNING shard by
// shard, not in the order of VALUES, and GORM hands RETURNING's rows to
// the records by position. A key the database makes (a `default:` tag
// the server computes) would then reach another record, and that
// record's associations would be saved under it. In a Citus database the
// plugin makes such keys itself when several records are created at
// once, and puts each record's key back after GORM has read RETURNING.

// citusProbe remembers whether the database has the Citus extension.
type citusProbe struct {
	mu    sync.Mutex
	known bool
	has   bool
}

// hasCitus reports whether db's database has Citus, asking it once. A
// failed question counts as yes, and is asked again next time: the cost
// of yes is keys made in Go; of a wrong no, records with others' keys.
func (d dialector) hasCitus(db *gorm.DB) bool {
	if d.Name() != "postgres" || d.citus == nil || db.Statement.ConnPool == nil {
		return false
	}
	d.citus.mu.Lock()
	defer d.citus.mu.Unlock()
	if d.citus.known {
		return d.citus.has
	}
	ctx := db.Statement.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var has bool
	err := db.Statement.ConnPool.QueryRowContext(ctx, "SELECT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'citus')").Scan(&has)
	if err != nil {
		return true
	}
	d.citus.known, d.citus.has = true, has
	return has
}

// settingKeptKeys holds, for a create of several records in a Citus
// database, the key fields the database would have made and their values
// in each record, to put back after GORM reads RETURNING.
const settingKeptKeys = "sortid:kept_keys"

type keptKeys struct {
	fields []*schema.Field
	recs   []reflect.Value
	values [][]any
}

// databaseFillsHere reports whether the database makes f for this
// create: it does (databaseFills), unless this is a create of several
// records in a Citus database.
func databaseFillsHere(db *gorm.DB, f *schema.Field) bool {
	if !databaseFills(db, f) {
		return false
	}
	d, ok := db.Dialector.(dialector)
	return !ok || len(records(db)) < 2 || !d.hasCitus(db)
}

// keepKeys notes the values of the key fields the database would have
// made, after the plugin filled them, for restoreKeys.
func keepKeys(db *gorm.DB, fields []*schema.Field) {
	var kept []*schema.Field
	for _, f := range fields {
		if databaseFills(db, f) {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return
	}
	k := keptKeys{fields: kept, recs: records(db)}
	for _, rec := range k.recs {
		values := make([]any, len(kept))
		for i, f := range kept {
			values[i], _ = f.ValueOf(db.Statement.Context, rec)
		}
		k.values = append(k.values, values)
	}
	db.Statement.Settings.Store(settingKeptKeys, k)
}

// restoreKeys runs after GORM's create: it puts back each record's own
// keys, which GORM's read of RETURNING may have given to other records.
func restoreKeys(db *gorm.DB) {
	v, ok := db.Statement.Settings.Load(settingKeptKeys)
	if !ok || db.Error != nil {
		return
	}
	k := v.(keptKeys)
	for i, rec := range k.recs {
		for j, f := range k.fields {
			if err := f.Set(db.Statement.Context, rec, k.values[i][j]); err != nil {
				db.AddError(err)
			}
		}
	}
}
