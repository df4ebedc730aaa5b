package sqltype

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/pgsql"
)

// Check reads the database conn is connected to, every schema, and
// returns each column that holds IDs where something can go silently
// wrong (a collation that misorders KSUIDs' text, a bytea column), with
// the fix, as sortid check prints them, and how many columns that may
// hold IDs it read. It runs pgsql.CheckQuery, one SELECT, in a READ ONLY
// transaction: it changes nothing, and needs only USAGE on the schemas
// and SELECT on the tables (a table it may not read is a finding).
func Check(ctx context.Context, conn *pgx.Conn) ([]pgsql.Finding, int, error) {
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, 0, fmt.Errorf("sqltype: check: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var result []byte
	if err := tx.QueryRow(ctx, pgsql.CheckQuery(), pgx.QueryExecModeSimpleProtocol).Scan(&result); err != nil {
		return nil, 0, fmt.Errorf("sqltype: check: %w", err)
	}
	findings, columns, err := pgsql.Check(result, time.Now())
	if err != nil {
		return nil, 0, fmt.Errorf("sqltype: check: %w", err)
	}
	return findings, columns, nil
}
