package sqltype

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/sqltype/internal/idkind"
)

// Register teaches m to encode sortid's ID types by the column type: the
// text form for text and the domains of `sortid sql`, a uuid's 16 bytes,
// and where m does not know the column's type (QueryExecModeExec, the
// simple protocol) the text form, which every column type sortid makes
// reads. An ID for a bytea parameter is an error wrapping
// ErrByteaParameter. Call it once per connection, before the connection
// is used.
func Register(m *pgtype.Map) {
	// pgx offers a value to each wrapper in turn until the codec of the
	// target column accepts what a wrapper makes of it. Both go before
	// pgx's own wrappers, which would treat a KSUID as the array [20]byte
	// that it is underneath, or fall back to driver.Valuer. A UUIDv7 goes
	// to a uuid column as its 16 bytes through pgx's own uuid codec.
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapAsUUID, tryWrapAsText}, m.TryWrapEncodePlanFuncs...)

	registerByteaGuard(m)
	registerUntyped(m)
}

// AfterConnect registers the ID types on a new connection, and the sortid
// extension's ksuid and objectid types where the database has them (in
// any schema), so that their values go in and come out as raw bytes in
// binary format, and a []ksuid.KSUID goes as an array in every query
// mode. Nothing needs it to be right: without it every ID goes as its
// text, which the types and the domains read. It has the signature pgx
// wants for a hook, so one line does it for a pool,
//
//	cfg.AfterConnect = sqltype.AfterConnect
//
// and for database/sql over pgx's stdlib driver,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
//
// A connection registers what the database has when it connects: one made
// before CREATE EXTENSION sends text, which stays right. To keep a hook of
// your own, see AfterConnectThen.
func AfterConnect(ctx context.Context, conn *pgx.Conn) error {
	Register(conn.TypeMap())
	return registerTypes(ctx, conn)
}

// AfterConnectThen returns a hook that runs AfterConnect and then next
// (if next is not nil), for a pool that has a hook already:
//
//	cfg.AfterConnect = sqltype.AfterConnectThen(cfg.AfterConnect)
func AfterConnectThen(next func(context.Context, *pgx.Conn) error) func(context.Context, *pgx.Conn) error {
	return func(ctx context.Context, conn *pgx.Conn) error {
		if err := AfterConnect(ctx, conn); err != nil {
			return err
		}
		if next != nil {
			return next(ctx, conn)
		}
		return nil
	}
}

// registerTypes registers the sortid extension's base types ksuid and
// objectid, in any schema, and arrays of them, with their own codec:
// binary in both directions. The domains of `sortid sql` need nothing:
// they are text.
func registerTypes(ctx context.Context, conn *pgx.Conn) error {
	rows, err := conn.Query(ctx, `SELECT t.oid, t.typname, t.typarray, n.nspname FROM pg_type t
		JOIN pg_namespace n ON n.oid = t.typnamespace
		WHERE t.typname IN ('ksuid', 'objectid') AND t.typtype = 'b' AND t.typlen = CASE t.typname WHEN 'ksuid' THEN 20 ELSE 12 END
			AND EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
				WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND e.extname = 'sortid')
		ORDER BY n.nspname`,
		pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return fmt.Errorf("sqltype: looking up the ksuid and objectid types: %w", err)
	}
	type idType struct {
		oid, array   uint32
		name, schema string
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (t idType, err error) {
		err = r.Scan(&t.oid, &t.name, &t.array, &t.schema)
		return t, err
	})
	if err != nil {
		return fmt.Errorf("sqltype: looking up the ksuid and objectid types: %w", err)
	}
	m := conn.TypeMap()
	for _, f := range found {
		kind := idkind.KSUID
		if f.name == "objectid" {
			kind = idkind.ObjectID
		}
		t := &pgtype.Type{Name: f.schema + "." + f.name, OID: f.oid, Codec: extensionCodec{kind}}
		m.RegisterType(t)
		if f.array != 0 {
			m.RegisterType(&pgtype.Type{Name: f.schema + "._" + f.name, OID: f.array, Codec: &pgtype.ArrayCodec{ElementType: t}})
		}
	}
	return nil
}

// idBytes is an ID, or NULL, in its raw bytes. Each plan keeps one and
// refills it for every value it encodes, so that encoding allocates
// nothing: a plan belongs to one pgtype.Map, and pgx uses a Map
// from one goroutine at a time, as it does the connection that owns it.
type idBytes struct {
	buf  [idkind.MaxSize]byte
	kind *idkind.Kind
	n    int
	null bool
}

// set loads value into v; it reports false if value is not an ID.
func (v *idBytes) set(value any) bool {
	var ok bool
	v.kind, v.n, v.null, ok = idkind.Load(v.buf[:], value)
	return ok
}

// idText is an ID, or NULL, as a pgtype.TextValuer only; reused like
// idBytes.
type idText struct {
	bytes idBytes
}

// TextValue returns the text form of the ID.
func (v *idText) TextValue() (pgtype.Text, error) {
	b := &v.bytes
	if b.null {
		return pgtype.Text{}, nil
	}
	return pgtype.Text{String: b.kind.FormatText(b.buf[:b.n]), Valid: true}, nil
}

// idUUID is a UUIDv7, or NULL, as a pgtype.UUIDValuer only; reused like
// idBytes. Other IDs are not UUIDs, and it does not take them.
type idUUID struct {
	bytes idBytes
}

// UUIDValue returns the UUID for pgx's uuid codec.
func (v *idUUID) UUIDValue() (pgtype.UUID, error) {
	if v.bytes.null {
		return pgtype.UUID{}, nil
	}
	return pgtype.UUID{Bytes: [16]byte(v.bytes.buf[:16]), Valid: true}, nil
}

func tryWrapAsUUID(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	if !isUUIDType(value) {
		return nil, nil, false
	}
	p := &uuidPlan{}
	p.v.bytes.set(value)
	return p, &p.v, true
}

// isUUIDType reports whether value is one of the UUIDv7 types, NULL or
// not.
func isUUIDType(value any) bool {
	var buf [idkind.MaxSize]byte
	k, _, _, ok := idkind.Load(buf[:], value)
	return ok && k == idkind.UUIDv7
}

// uuidPlan hands its idUUID, loaded with each value, to the next plan.
type uuidPlan struct {
	v    idUUID
	next pgtype.EncodePlan
}

func (p *uuidPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidPlan) Encode(value any, buf []byte) ([]byte, error) {
	p.v.bytes.set(value)
	return p.next.Encode(&p.v, buf)
}

func tryWrapAsText(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	p := &textPlan{}
	if !p.v.bytes.set(value) {
		return nil, nil, false
	}
	return p, &p.v, true
}

// textPlan hands its idText, loaded with each value, to the next plan.
type textPlan struct {
	v    idText
	next pgtype.EncodePlan
}

func (p *textPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *textPlan) Encode(value any, buf []byte) ([]byte, error) {
	p.v.bytes.set(value)
	return p.next.Encode(&p.v, buf)
}
