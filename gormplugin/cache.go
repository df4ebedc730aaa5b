package gormplugin

import (
	"context"
	"database/sql"
	"runtime"
	"sync"
	"weak"

	"gorm.io/gorm"
)

// columnCache keeps the columns of the tables checkColumns has read, per
// connection scope, since the same name can reach another table, or the
// same table hold other columns, elsewhere:
//
//   - a *sql.DB (GORM's pool): one scope, dropped whenever the pool opens
//     or closes a connection, so that a column another tool re-typed is
//     read again by the next connection at the latest;
//   - a *sql.Conn (db.Connection, where a tenant's SET search_path
//     lives) and a *sql.Tx: a scope each, gone with it.
//
// A warm scope answers from memory: no query per statement.
type columnCache struct {
	scopes sync.Map // weak.Pointer to the pool, Conn or Tx → *scopeColumns
}

// scopeColumns is the tables' columns read in one scope.
type scopeColumns struct {
	tables sync.Map // table as SQL → map[string]column

	db   *sql.DB // for a pool's scope: the pool
	mu   sync.Mutex
	seen poolConnections
}

// poolConnections is what a *sql.DB says of its connections; it changes
// when one is opened or closed.
type poolConnections struct {
	open, idleClosed, idleTimeClosed, lifetimeClosed int64
}

func connectionsOf(db *sql.DB) poolConnections {
	s := db.Stats()
	return poolConnections{int64(s.OpenConnections), s.MaxIdleClosed, s.MaxIdleTimeClosed, s.MaxLifetimeClosed}
}

// get returns the columns of the table named by tableSQL as pool's scope
// sees it, reading the catalog where the scope has not; none where the
// table is not there (not remembered, so that a table created later is
// read).
func (c *columnCache) get(ctx context.Context, pool gorm.ConnPool, dialect, tableSQL string) (map[string]column, error) {
	sc := c.scope(pool)
	if sc != nil {
		sc.dropOnNewConnections()
		if cols, ok := sc.tables.Load(tableSQL); ok {
			return cols.(map[string]column), nil
		}
	}
	cols, err := readColumns(ctx, pool, dialect, tableSQL)
	if err != nil || len(cols) == 0 || sc == nil {
		return cols, err
	}
	sc.tables.Store(tableSQL, cols)
	return cols, nil
}

// forget drops every scope's columns, after a migration.
func (c *columnCache) forget() { c.scopes.Clear() }

// scope returns the scope of pool; nil for a pool of another kind, whose
// statements are checked against the catalog each time.
func (c *columnCache) scope(pool gorm.ConnPool) *scopeColumns {
	switch p := pool.(type) {
	case *gorm.PreparedStmtDB:
		return c.scope(p.ConnPool)
	case *gorm.PreparedStmtTX:
		return c.scope(p.Tx)
	case *sql.DB:
		return scopeOf(c, p, p)
	case *sql.Conn:
		return scopeOf(c, p, nil)
	case *sql.Tx:
		return scopeOf(c, p, nil)
	}
	return nil
}

// scopeOf returns the scope of p, made on first use and dropped when p is
// garbage.
func scopeOf[T any](c *columnCache, p *T, db *sql.DB) *scopeColumns {
	key := weak.Make(p)
	if sc, ok := c.scopes.Load(key); ok {
		return sc.(*scopeColumns)
	}
	sc := &scopeColumns{db: db}
	if db != nil {
		sc.seen = connectionsOf(db)
	}
	actual, loaded := c.scopes.LoadOrStore(key, sc)
	if !loaded {
		runtime.AddCleanup(p, func(key weak.Pointer[T]) { c.scopes.Delete(key) }, key)
	}
	return actual.(*scopeColumns)
}

// dropOnNewConnections forgets a pool scope's tables when the pool has
// opened or closed a connection since they were read.
func (sc *scopeColumns) dropOnNewConnections() {
	if sc.db == nil {
		return
	}
	now := connectionsOf(sc.db)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if now != sc.seen {
		sc.seen = now
		sc.tables.Clear()
	}
}
