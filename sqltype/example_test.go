package sqltype_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// Register on every connection of a pool.
func Example_pool() {
	cfg, err := pgxpool.ParseConfig("postgres://app@localhost/app")
	if err != nil {
		panic(err)
	}
	cfg.AfterConnect = sqltype.AfterConnect
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	// pool.Exec(ctx, "INSERT INTO items (id) VALUES ($1)", ksuid.New())
	// sends 20 raw bytes into a bytea column, the text form into text.
}

// What Register changes: the same KSUID is encoded by the column type.
func ExampleRegister() {
	m := pgtype.NewMap()
	sqltype.Register(m)
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")

	asText, _ := m.Encode(pgtype.TextOID, pgtype.BinaryFormatCode, id, nil)
	fmt.Printf("text:  %d bytes %s\n", len(asText), asText)
	_, err := m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, id, nil)
	fmt.Println("bytea:", errors.Is(err, sqltype.ErrByteaParameter))
	// Output:
	// text:  27 bytes 0qjBBlJIfbVLKwnJn4xpLGDr00e
	// bytea: true
}

// The SQL to install once per database: the domains and functions.
func ExampleInstallSQL() {
	// The KSUID part alone; with no ID type named, all three.
	script, err := sqltype.InstallSQL("", "ksuid")
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(script, "\n") {
		if strings.HasPrefix(line, "CREATE OR REPLACE FUNCTION ") || strings.HasPrefix(line, "\tCREATE DOMAIN ") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// CREATE DOMAIN ksuid AS text COLLATE "C"
	// CREATE OR REPLACE FUNCTION bytea_to_ksuid(id bytea) RETURNS ksuid
	// CREATE OR REPLACE FUNCTION ksuid_to_bytea(id ksuid) RETURNS bytea
	// CREATE OR REPLACE FUNCTION ksuid_generate() RETURNS ksuid
	// CREATE OR REPLACE FUNCTION ksuid_to_text(id ksuid) RETURNS text
	// CREATE OR REPLACE FUNCTION ksuid_from_text(text_form text) RETURNS ksuid
	// CREATE OR REPLACE FUNCTION ksuid_time(id ksuid) RETURNS timestamptz
	// CREATE OR REPLACE FUNCTION ksuid_min_at(t timestamptz) RETURNS ksuid
	// CREATE OR REPLACE FUNCTION ksuid_max_at(t timestamptz) RETURNS ksuid
	// CREATE OR REPLACE FUNCTION ksuid_time_encoder(t timestamptz) RETURNS text
	// CREATE OR REPLACE FUNCTION ksuid_time_decoder(id text) RETURNS timestamptz
}

// Keep a hook the pool has already.
func ExampleAfterConnectThen() {
	cfg, err := pgxpool.ParseConfig("postgres://app@localhost/app")
	if err != nil {
		panic(err)
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, "SET application_name = 'orders'")
		return err
	}
	cfg.AfterConnect = sqltype.AfterConnectThen(cfg.AfterConnect)
}

// The partitions of a table keyed by KSUIDs: yesterday, today and the next
// two days, each from the smallest KSUID of its midnight to the next's.
func ExamplePartitionsSQL() {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	script, err := sqltype.PartitionsSQL(sqltype.PartitionSpec{
		Table: "events", IDType: "ksuid", Period: sqltype.Day, Back: 1, Ahead: 2,
	}, now)
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(script, "\n") {
		if strings.Contains(line, "('events_p") {
			fmt.Println(strings.TrimSpace(line[strings.Index(line, "--"):]))
		}
	}
	// Output:
	// -- 2026-12-01T00:00:00Z to 2026-12-02T00:00:00Z
	// -- 2026-12-02T00:00:00Z to 2026-12-03T00:00:00Z
	// -- 2026-12-03T00:00:00Z to 2026-12-04T00:00:00Z
	// -- 2026-12-04T00:00:00Z to 2026-12-05T00:00:00Z
}
