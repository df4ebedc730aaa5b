package gormplugin

import (
	"strings"
	"testing"
)

// TestTargetOf: which column each placeholder of a fragment meets.
func TestTargetOf(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []string // per placeholder: "table.col", "col", "expr", "arg", "const" or "?"
	}{
		{"id = ?", []string{"id"}},
		{"? = id", []string{"id"}},
		{"id NOT IN ?", []string{"id"}},
		{"id NOT IN (?, ?)", []string{"id", "id"}},
		{"NOT (id IN ?)", []string{"id"}},
		{"id IS DISTINCT FROM ?", []string{"id"}},
		{"id IS NOT DISTINCT FROM ?", []string{"id"}},
		{"id NOT BETWEEN ? AND ?", []string{"id", "id"}},
		{"id BETWEEN SYMMETRIC ? AND ?", []string{"id", "id"}},
		{`"Orders"."ID" <> ?`, []string{"Orders.ID"}},
		{"inv.items.order_id = ?", []string{"inv.items.order_id"}},
		{"id = ANY(?)", []string{"id"}},
		{"id <> ALL (?)", []string{"id"}},
		{"lower(ref) = ? AND id > ?", []string{"expr", "id"}},
		{"coalesce(parent, id) = ?", []string{"expr"}},
		{"id::text = ?", []string{"cast"}},
		{"id = ksuid_from_text(?)", []string{"arg"}},
		{"ref LIKE ? ESCAPE '!'", []string{"ref"}},
		{"'x' = ?", []string{"const"}},
		{"(id, ref) = (?, ?)", []string{"expr", "expr"}}, // a row: refused when it holds an ID column
		{"id > ? LIMIT ?", []string{"id", "arg"}},
		{"id = ? -- a comment", []string{"id"}},
		{"id = ? /* a comment */ AND ref = ?", []string{"id", "ref"}},
	} {
		toks, ok := scanSQL(tc.sql, scanFragment)
		if !ok {
			t.Errorf("%q: not read", tc.sql)
			continue
		}
		var got []string
		for p, tok := range toks {
			if tok.kind != tokPlaceholder {
				continue
			}
			tg := targetOf(toks, p)
			switch {
			case tg.column != nil && tg.column.qualifier != "":
				got = append(got, tg.column.qualifier+"."+tg.column.name)
			case tg.column != nil:
				got = append(got, tg.column.name)
			case tg.cast != "":
				got = append(got, "cast")
			case tg.argument:
				got = append(got, "arg")
			case tg.understood && len(tg.refs) > 0:
				got = append(got, "expr")
			case tg.understood:
				got = append(got, "const")
			default:
				got = append(got, "?")
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %v, want %v", tc.sql, got, tc.want)
		}
	}
	// A ? inside a string, a quoted name or a comment, which GORM would
	// still replace, and a dollar-quoted string are not read at all.
	for _, sql := range []string{"id = ? AND ref = 'a?b'", "id = ? AND ref = $$x$$", "id = 'unterminated",
		`"a?" = ?`, "id = ? -- which ?", "id = ? /* ? */ AND ref = ?"} {
		if _, ok := scanSQL(sql, scanFragment); ok {
			t.Errorf("%q: read; want it refused", sql)
		}
	}
}

// FuzzScanSQL: no fragment makes the tokenizer or the placeholder
// analysis panic, and a fragment it reads has as many positional
// placeholders as GORM's Expr finds (every ?).
func FuzzScanSQL(f *testing.F) {
	for _, s := range []string{"id = ?", "id NOT IN (?, ?)", "coalesce(a, id) = ?", `"t"."id" IS DISTINCT FROM ?`,
		"id = ANY(?)", "(?", "?)", "BETWEEN ? AND", "::", "id::text = ? OR ? = x.y.z", "@name = id",
		"INSERT INTO t (a, b) VALUES ($1, $2), ($3, (", "UPDATE t SET a = $1 WHERE id = $99999999999", "INTO t ("} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, sql string, named bool) {
		// As PostgreSQL gets it ($n): no panic, whatever the text.
		if toks, ok := scanSQL(sql, scanDollar); ok {
			for p, tok := range toks {
				if tok.kind == tokPlaceholder {
					targetOf(toks, p)
				}
			}
			insertColumns(toks)
		}
		toks, ok := scanSQL(sql, map[bool]scanMode{false: scanFragment, true: scanNamed}[named])
		if !ok {
			return
		}
		n := 0
		for p, tok := range toks {
			if tok.kind != tokPlaceholder {
				continue
			}
			targetOf(toks, p)
			if tok.arg >= 0 {
				if tok.arg != n {
					t.Fatalf("%q: placeholder %d numbered %d", sql, n, tok.arg)
				}
				n++
			}
		}
		if want := strings.Count(sql, "?"); n != want {
			t.Fatalf("%q: %d placeholders, GORM sees %d", sql, n, want)
		}
		columnRefs(toks)
		tableAliases(toks, map[string]string{})
		insertColumns(toks)
	})
}
