package gormplugin

import (
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/internal/idkind"
)

// bindRaw runs before GORM sends SQL that a user wrote whole (db.Raw,
// db.Exec), which no clause builder saw: it reads the final SQL with the
// tokenizer, finds the tables it names (FROM, JOIN, UPDATE, INSERT INTO)
// and the column each placeholder meets, and binds each value as the
// clause builders would. A typed ID that BindVarTo sent as bytes by
// default is sent as text where it meets a text column; a string that
// meets an ID column is parsed or refused. SQL the tokenizer cannot read
// (dollar-quoted bodies, a ? in a comment) keeps its values as they are.
func (b *binder) bindRaw(db *gorm.DB) {
	stmt := db.Statement
	if db.Error != nil || stmt.SQL.Len() == 0 || len(stmt.Vars) == 0 {
		return // a statement GORM builds from clauses: bound already
	}
	dialect := db.Dialector.Name()
	s := scope{b: b, stmt: stmt, dialect: dialect, raw: true}
	if !s.anyIDish(stmt.Vars) {
		return
	}
	sql := stmt.SQL.String()
	toks, ok := scanSQL(sql, scanFinal(dialect))
	if !ok {
		return
	}
	s.aliases = map[string]string{}
	tableAliases(toks, s.aliases)
	// Where a placeholder's place is not one the tokenizer understands
	// (a tuple, a CTE's VALUES), the value goes as it did before this
	// binding existed: raw SQL names many columns, and refusing every
	// such value would refuse sound statements. An expression over an ID
	// column is still refused.
	const mentions = false
	inserted := insertColumns(toks)
	vars := make([]any, len(stmt.Vars))
	copy(vars, stmt.Vars)
	for p, t := range toks {
		if t.kind != tokPlaceholder || t.arg < 0 || t.arg >= len(vars) {
			continue
		}
		if col, ok := inserted[p]; ok {
			info, field := s.column(clause.Column{Table: col.qualifier, Name: col.name})
			vars[t.arg] = s.bind(vars[t.arg], info, field, nil)
			continue
		}
		vars[t.arg] = s.bindTarget(vars[t.arg], targetOf(toks, p), sql, mentions)
	}
	if s.err != nil {
		db.AddError(s.err)
		return
	}
	stmt.Vars = vars
}

// rawIDValue is the ID whose bytes BindVarTo sent by default, by its
// length.
func rawIDValue(r rawID) (idkind.Value, bool) {
	for _, k := range idkind.All {
		if len(r) == k.Size {
			return idkind.Value{Kind: k, Bytes: r}, true
		}
	}
	return idkind.Value{}, false
}

// insertColumns maps each placeholder that stands alone in a VALUES row
// of INSERT INTO t (c1, c2, …) VALUES (…), (…) to its column.
func insertColumns(toks []token) map[int]colRef {
	out := map[int]colRef{}
	for i := 0; i+1 < len(toks); i++ {
		if !isKeyword(toks[i], "INTO") {
			continue
		}
		// The table's name, then the column list.
		qualifier, _, e, ok := tableAt(toks, i+1)
		if !ok {
			continue
		}
		k := e + 1
		if k >= len(toks) || !isPunct(toks[k], "(") {
			continue
		}
		var cols []string
		for k++; k < len(toks) && !isPunct(toks[k], ")"); k++ {
			switch {
			case toks[k].kind == tokIdent || toks[k].kind == tokQuoted:
				cols = append(cols, identText(toks[k]))
			case isPunct(toks[k], ","):
			default:
				cols = nil // not a plain list of names
			}
			if cols == nil {
				break
			}
		}
		if cols == nil || k+1 >= len(toks) || !isKeyword(toks[k+1], "VALUES") {
			continue
		}
		// The rows: ( v, v, … ) , ( … ) …
		for k += 2; k < len(toks) && isPunct(toks[k], "("); {
			n := 0
			k++
			for ; k < len(toks) && !isPunct(toks[k], ")"); k++ {
				switch {
				case isPunct(toks[k], ","):
					n++
				case toks[k].kind == tokPlaceholder && n < len(cols) &&
					(isPunct(toks[k-1], "(") || isPunct(toks[k-1], ",")) && k+1 < len(toks) && (isPunct(toks[k+1], ",") || isPunct(toks[k+1], ")")):
					out[k] = colRef{qualifier: qualifier, name: cols[n]}
				case isPunct(toks[k], "("):
					k = len(toks) // an expression in a row: stop reading rows
				}
			}
			if k+1 < len(toks) && isPunct(toks[k+1], ",") {
				k += 2
				continue
			}
			break
		}
	}
	return out
}
