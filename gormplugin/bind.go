package gormplugin

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/internal/idkind"
)

// ErrUnclearColumn is wrapped by the error for a string or an ID whose
// placeholder the plugin cannot match to a column, in a fragment that
// names an ID column: coalesce(id, parent_id) = ?, or a form of SQL it
// does not read. Sent as it is, the value could match other rows than
// meant, so the statement fails instead.
var ErrUnclearColumn = errors.New("cannot tell which column a value is compared with")

// ErrWrongIDType is wrapped by the error for an ID compared with a column
// that holds IDs of another type (an ObjectID with a KSUID column), which
// no row could match.
var ErrWrongIDType = errors.New("ID of another type than the column's")

// The clauses whose values the plugin sends by the column they meet.
var boundClauses = []string{"WHERE", "SET", "VALUES", "ON CONFLICT", "FROM"}

// binder decides how each value of a statement goes to the database: by
// its Go type, by the type of the column it meets (from the database's
// catalog on PostgreSQL, from the model elsewhere) and by GORM's clause
// tree. It replaces the values in the clauses before GORM writes them.
type binder struct {
	columns columnCache
	textIDs bool // WithTextIDColumns
}

// install wraps the clause builders of db for the clauses that carry
// values compared with or stored in columns, keeping any the dialect has.
func (b *binder) install(db *gorm.DB) error {
	switch db.Dialector.Name() {
	case "postgres", "mysql":
	default:
		return nil // SQLite and others store the text form the IDs' Value gives
	}
	// SQL written whole (db.Raw, db.Exec) reaches no clause builder.
	if err := db.Callback().Raw().Before("gorm:raw").Register("sortid:bind_raw", b.bindRaw); err != nil {
		return err
	}
	if err := db.Callback().Row().Before("gorm:row").Register("sortid:bind_raw", b.bindRaw); err != nil {
		return err
	}
	if err := db.Callback().Query().Before("gorm:query").Register("sortid:bind_raw", b.bindRaw); err != nil {
		return err
	}
	for _, name := range boundClauses {
		next := db.ClauseBuilders[name]
		db.ClauseBuilders[name] = func(c clause.Clause, builder clause.Builder) {
			if stmt, ok := builder.(*gorm.Statement); ok && c.Expression != nil {
				s := scope{b: b, stmt: stmt, dialect: stmt.DB.Dialector.Name()}
				c.Expression = s.expression(c.Expression)
				if s.err != nil {
					stmt.AddError(s.err)
				}
			}
			if next != nil {
				next(c, builder)
			} else {
				c.Build(builder)
			}
		}
	}
	return nil
}

// scope binds the values of one clause of one statement.
type scope struct {
	b       *binder
	stmt    *gorm.Statement
	dialect string
	aliases map[string]string // alias -> table, from the statement's FROM clause
	err     error             // the first error
	// raw is true for SQL a user wrote whole (db.Raw, db.Exec), where a
	// rawID is an ID that BindVarTo sent by default, to bind again.
	raw bool
}

func (s *scope) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// expression returns e with its values bound; it never changes e itself,
// which the caller may use again.
func (s *scope) expression(e clause.Expression) clause.Expression {
	switch x := e.(type) {
	case clause.Where:
		x.Exprs = s.expressions(x.Exprs)
		return x
	case clause.AndConditions:
		x.Exprs = s.expressions(x.Exprs)
		return x
	case clause.OrConditions:
		x.Exprs = s.expressions(x.Exprs)
		return x
	case clause.NotConditions:
		x.Exprs = s.expressions(x.Exprs)
		return x
	case clause.Eq:
		return s.compared(x, false)
	case clause.Neq:
		return clause.Neq(s.compared(clause.Eq(x), false))
	case clause.Gt:
		return clause.Gt(s.compared(clause.Eq(x), true))
	case clause.Gte:
		return clause.Gte(s.compared(clause.Eq(x), true))
	case clause.Lt:
		return clause.Lt(s.compared(clause.Eq(x), true))
	case clause.Lte:
		return clause.Lte(s.compared(clause.Eq(x), true))
	case clause.Like:
		return clause.Like(s.compared(clause.Eq(x), false))
	case clause.IN:
		if len(x.Values) > 0 {
			values := make([]any, len(x.Values))
			for i, v := range x.Values {
				values[i] = s.columnValue(x.Column, v, false)
			}
			x.Values = values
		}
		return x
	case clause.Expr:
		x.Vars = s.fragmentVars(x.SQL, x.Vars, false)
		return x
	case clause.NamedExpr:
		x.Vars = s.fragmentVars(x.SQL, x.Vars, true)
		return x
	case clause.Set:
		return s.set(x)
	case clause.Values:
		s.values(x)
		return x
	case clause.OnConflict:
		x.DoUpdates = s.set(x.DoUpdates)
		x.Where.Exprs = s.expressions(x.Where.Exprs)
		x.TargetWhere.Exprs = s.expressions(x.TargetWhere.Exprs)
		return x
	case clause.From:
		if len(x.Joins) > 0 {
			joins := make([]clause.Join, len(x.Joins))
			for i, j := range x.Joins {
				j.ON.Exprs = s.expressions(j.ON.Exprs)
				if j.Expression != nil {
					j.Expression = s.expression(j.Expression)
				}
				joins[i] = j
			}
			x.Joins = joins
		}
		return x
	}
	return e
}

// compared binds the value of a comparison of one column (Eq and its
// siblings, which share its layout); ordered for <, >.
func (s *scope) compared(e clause.Eq, ordered bool) clause.Eq {
	e.Value = s.columnValue(e.Column, e.Value, ordered)
	return e
}

func (s *scope) expressions(exprs []clause.Expression) []clause.Expression {
	if len(exprs) == 0 {
		return exprs
	}
	out := make([]clause.Expression, len(exprs))
	for i, e := range exprs {
		out[i] = s.expression(e)
	}
	return out
}

func (s *scope) set(set clause.Set) clause.Set {
	if len(set) == 0 {
		return set
	}
	out := make(clause.Set, len(set))
	for i, a := range set {
		a.Value = s.columnValue(a.Column, a.Value, false)
		out[i] = a
	}
	return out
}

// values binds an INSERT's values in place: GORM makes them anew for
// each statement. Only the columns that may hold IDs are looked at.
func (s *scope) values(v clause.Values) {
	for i, col := range v.Columns {
		var field *schema.Field
		if s.stmt.Schema != nil {
			field = s.stmt.Schema.LookUpField(col.Name)
		}
		if field != nil {
			if k, _ := idkind.Of(field.FieldType); k == nil {
				continue // a field of another type: its values are no IDs
			}
		}
		info, field := s.column(col)
		for _, row := range v.Values {
			if i < len(row) {
				row[i] = s.bind(row[i], info, field, nil)
			}
		}
	}
}

// columnValue binds v, compared with or assigned to column (a
// clause.Column, or a name as a string); ordered for <, >, BETWEEN.
func (s *scope) columnValue(column any, v any, ordered bool) any {
	var col clause.Column
	switch c := column.(type) {
	case clause.Column:
		col = c
	case string:
		col = clause.Column{Name: c}
		if i := strings.LastIndexByte(c, '.'); i > 0 {
			col = clause.Column{Table: c[:i], Name: c[i+1:]}
		}
	default:
		return s.bind(v, columnInfo{}, nil, nil)
	}
	if col.Raw {
		return s.bind(v, columnInfo{}, nil, nil)
	}
	info, field := s.column(col)
	info.ordered = ordered
	return s.bind(v, info, field, nil)
}

// fragmentVars binds the values of a fragment of SQL with placeholders,
// each by the column its placeholder meets.
func (s *scope) fragmentVars(fragment string, vars []any, named bool) []any {
	if len(vars) == 0 || !s.anyIDish(vars) {
		return vars
	}
	toks, ok := scanSQL(fragment, map[bool]scanMode{false: scanFragment, true: scanNamed}[named])
	out := make([]any, len(vars))
	copy(out, vars)
	if !ok {
		for i, v := range vars {
			out[i] = s.bind(v, columnInfo{}, nil, &unclear{fragment: fragment, mentionsID: true})
		}
		return out
	}
	mentions := s.mentionsIDColumn(toks)
	namedIndex := map[string]int{} // sql.Named arguments; maps are looked up below
	for i, v := range vars {
		if nv, ok := v.(sql.NamedArg); ok {
			namedIndex[nv.Name] = i
		}
	}
	for p, t := range toks {
		if t.kind != tokPlaceholder {
			continue
		}
		tg := targetOf(toks, p)
		bindOne := func(v any) any { return s.bindTarget(v, tg, fragment, mentions) }
		switch {
		case t.arg >= 0 && t.arg < len(vars) && !named:
			out[t.arg] = bindOne(out[t.arg])
		case t.arg >= 0 && named:
			// NamedExpr numbers its ? among the positional vars that are
			// not named arguments or maps.
			if i := positional(vars, t.arg); i >= 0 {
				out[i] = bindOne(out[i])
			}
		case t.arg < 0:
			if i, ok := namedIndex[t.text]; ok {
				nv := out[i].(sql.NamedArg)
				nv.Value = bindOne(nv.Value)
				out[i] = nv
				continue
			}
			for i, v := range out {
				if m, ok := v.(map[string]any); ok {
					if mv, ok := m[t.text]; ok {
						m2 := make(map[string]any, len(m))
						for k, v := range m {
							m2[k] = v
						}
						m2[t.text] = bindOne(mv)
						out[i] = m2
					}
				}
			}
		}
	}
	return out
}

// positional returns the index in vars of the n-th var that is neither a
// sql.NamedArg nor a map, or -1.
func positional(vars []any, n int) int {
	for i, v := range vars {
		switch v.(type) {
		case sql.NamedArg, map[string]any:
			continue
		}
		if n == 0 {
			return i
		}
		n--
	}
	return -1
}

// unclear says, for a value whose column is not known, whether the
// fragment it stands in names an ID column.
type unclear struct {
	fragment   string
	mentionsID bool
}

// bindTarget binds v by what its placeholder meets.
func (s *scope) bindTarget(v any, tg target, fragment string, mentions bool) any {
	switch {
	case tg.column != nil:
		info, field := s.column(clause.Column{Table: tg.column.qualifier, Name: tg.column.name})
		info.ordered = tg.ordered
		return s.bind(v, info, field, nil)
	case tg.cast != "":
		info := columnInfo{form: formOther}
		switch {
		case isTextType(tg.cast):
			info.form = formText
		case tg.cast == "bytea":
			info.form = formBytes
		}
		return s.bind(v, info, nil, nil)
	case tg.argument:
		return s.bind(v, columnInfo{}, nil, nil)
	case tg.understood && len(tg.refs) == 0:
		return s.bind(v, columnInfo{form: formOther}, nil, nil) // compared with a constant
	case tg.understood:
		for _, r := range tg.refs {
			if info, field := s.column(clause.Column{Table: r.qualifier, Name: r.name}); info.kind != nil || fieldKind(field) != nil {
				return s.bind(v, columnInfo{}, nil, &unclear{fragment: fragment, mentionsID: true})
			}
		}
		return s.bind(v, columnInfo{form: formOther}, nil, nil)
	}
	return s.bind(v, columnInfo{}, nil, &unclear{fragment: fragment, mentionsID: mentions})
}

// mentionsIDColumn reports whether any name in toks is an ID column of a
// table the statement reads.
func (s *scope) mentionsIDColumn(toks []token) bool {
	for _, r := range columnRefs(toks) {
		if info, field := s.column(clause.Column{Table: r.qualifier, Name: r.name}); info.kind != nil || fieldKind(field) != nil {
			return true
		}
	}
	return false
}

// anyIDish reports whether vars hold a string or an ID, alone or in a
// slice: the values whose column matters.
func (s *scope) anyIDish(vars []any) bool {
	for _, v := range vars {
		if _, ok := v.(rawID); ok && s.raw || idish(v) {
			return true
		}
	}
	return false
}

func idish(v any) bool {
	switch x := v.(type) {
	case string, []string:
		return true
	case []any:
		for _, e := range x {
			if idish(e) {
				return true
			}
		}
		return false
	case sql.NamedArg:
		return idish(x.Value)
	case map[string]any:
		for _, e := range x {
			if idish(e) {
				return true
			}
		}
		return false
	case nil, []byte, rawID, int, int64, bool, clause.Expression:
		return false
	}
	if _, ok := idkind.ValueOf(v); ok {
		return true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		if rv.Type().Elem().Kind() == reflect.String {
			return true
		}
		if k, _ := idkind.Of(rv.Type().Elem()); k != nil {
			return true
		}
		if rv.Type().Elem().Kind() == reflect.Interface {
			for i := range rv.Len() {
				if idish(rv.Index(i).Interface()) {
					return true
				}
			}
		}
	}
	return false
}

// column returns what the statement knows of col: from the database's
// catalog (PostgreSQL's, MySQL's information schema), else from the
// model; and the model's field for it, where col is a column of the
// model's table.
func (s *scope) column(col clause.Column) (columnInfo, *schema.Field) {
	stmt := s.stmt
	if col.Name == clause.PrimaryKey && stmt.Schema != nil && stmt.Schema.PrioritizedPrimaryField != nil {
		col.Name = stmt.Schema.PrioritizedPrimaryField.DBName
	}
	ownTable := col.Table == "" || col.Table == clause.CurrentTable || col.Table == stmt.Table ||
		stmt.Schema != nil && col.Table == stmt.Schema.Table
	var field *schema.Field
	if ownTable && stmt.Schema != nil {
		field = stmt.Schema.LookUpField(col.Name)
	}
	var table string
	switch {
	case ownTable:
		table = s.modelTable()
	default:
		table = s.alias(col.Table)
	}
	info := columnInfo{}
	if table != "" {
		cols, err := s.b.columns.columnsOf(stmt, s.dialect, table)
		if err != nil {
			s.fail(err)
		}
		info = cols[col.Name]
	}
	if info.form == formUnknown && col.Table == "" && field == nil {
		// Not a column of the model's table: one of a joined table?
		for _, t := range s.joinedTables() {
			cols, err := s.b.columns.columnsOf(stmt, s.dialect, t)
			if err != nil {
				s.fail(err)
			}
			if c, ok := cols[col.Name]; ok {
				info = c
				break
			}
		}
	}
	if info.form == formUnknown && field != nil {
		return s.modelColumn(field), field
	}
	if info.kind == nil && info.form != formOther {
		info.kind = fieldKind(field) // a plain bytea or text column of an ID field
	}
	return info, field
}

// modelColumn is what a field's column takes where the database does not
// say: the column the plugin's AutoMigrate would make for it.
func (s *scope) modelColumn(field *schema.Field) columnInfo {
	k := fieldKind(field)
	if k == nil {
		if field != nil {
			return columnInfo{form: formOther}
		}
		return columnInfo{}
	}
	_, typed := field.TagSettings["TYPE"]
	t := strings.ToLower(field.TagSettings["TYPE"])
	switch s.dialect {
	case "postgres":
		switch {
		case k == idkind.UUIDv7:
			return columnInfo{form: formServer, kind: k}
		case s.b.textIDs || strings.Contains(t, "text") || strings.Contains(t, "char"):
			return columnInfo{form: formText, kind: k}
		}
		return columnInfo{form: formBytes, kind: k}
	case "mysql":
		if k == idkind.UUIDv7 && !typed {
			return columnInfo{form: formBytes, kind: k} // binary(16)
		}
	}
	return columnInfo{form: formText, kind: k}
}

func fieldKind(field *schema.Field) *idkind.Kind {
	if field == nil {
		return nil
	}
	k, _ := idkind.Of(field.FieldType)
	return k
}

// modelTable is the statement's table, named plainly ("orders",
// "inv.items"), or "".
func (s *scope) modelTable() string {
	stmt := s.stmt
	if stmt.TableExpr != nil {
		if strings.ContainsAny(stmt.TableExpr.SQL, " ()") {
			return "" // db.Table("orders o") and the like: not one name
		}
		return plainName(stmt.TableExpr.SQL)
	}
	return stmt.Table
}

// alias returns the table a qualifier in SQL stands for.
func (s *scope) alias(qualifier string) string {
	if s.aliases == nil {
		s.readFrom()
	}
	if t, ok := s.aliases[qualifier]; ok {
		return t
	}
	return qualifier
}

// joinedTables lists the tables the statement's FROM clause joins.
func (s *scope) joinedTables() []string {
	if s.aliases == nil {
		s.readFrom()
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range s.aliases {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// readFrom reads the tables and aliases of the statement's FROM clause:
// db.Joins("JOIN items i ON ..."), association joins, db.Table(...).
func (s *scope) readFrom() {
	s.aliases = map[string]string{}
	c, ok := s.stmt.Clauses["FROM"]
	if !ok {
		return
	}
	from, ok := c.Expression.(clause.From)
	if !ok {
		return
	}
	for _, t := range from.Tables {
		s.addTable(t)
	}
	for _, j := range from.Joins {
		s.addTable(j.Table)
		switch e := j.Expression.(type) {
		case clause.Expr:
			s.addJoinSQL(e.SQL)
		case clause.NamedExpr:
			s.addJoinSQL(e.SQL)
		}
	}
}

func (s *scope) addTable(t clause.Table) {
	if t.Name == "" || t.Raw || t.Name == clause.CurrentTable {
		return
	}
	s.aliases[t.Name] = t.Name
	if t.Alias != "" {
		s.aliases[t.Alias] = t.Name
	}
}

func (s *scope) addJoinSQL(fragment string) {
	if toks, ok := scanSQL(fragment, scanNamed); ok {
		tableAliases(toks, s.aliases)
	}
}

// bind returns what to send for v, a value meeting a column described by
// info (and field, the model's, if any); where the column is not known,
// u says whether the value's fragment names an ID column.
func (s *scope) bind(v any, info columnInfo, field *schema.Field, u *unclear) any {
	switch x := v.(type) {
	case rawID:
		if id, ok := rawIDValue(x); ok && s.raw {
			return s.bindID(v, id, info, u)
		}
		return v
	case nil, []byte, clause.Expression:
		return v
	case string:
		return s.bindString(x, info, u)
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.bindString(e, info, u)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.bind(e, info, field, u)
		}
		return out
	}
	if id, ok := idkind.ValueOf(v); ok {
		return s.bindID(v, id, info, u)
	}
	rv := reflect.ValueOf(v)
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
		elem := rv.Type().Elem()
		if k, _ := idkind.Of(elem); k == nil && elem.Kind() != reflect.String && elem.Kind() != reflect.Interface {
			return v // a slice of numbers and the like
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = s.bind(rv.Index(i).Interface(), info, field, u)
		}
		return out
	}
	return v // any other value: the user's own (a named string type too)
}

// bindString returns what to send for a string meeting a column.
func (s *scope) bindString(str string, info columnInfo, u *unclear) any {
	switch info.form {
	case formBytes:
		kind := info.kind
		if kind == nil {
			// A bytea column that does not say which ID it holds (one of
			// a joined table, say): the string's length does. Its own
			// bytes would match nothing.
			for _, k := range idkind.All {
				if len(str) == k.TextLen {
					kind = k
				}
			}
			if kind == nil {
				s.fail(fmt.Errorf("gormplugin: the string %s compared with a bytea column is no ID's text form (%w); pass []byte for other bytes",
					excerpt.Text(str), ErrUnclearColumn))
				return str
			}
		}
		b, err := kind.ParseText(str)
		if err != nil {
			s.fail(fmt.Errorf("gormplugin: a string compared with a %s column: %w", kind.Name, err))
			return str
		}
		return s.typed(rawID(b), info)
	case formText:
		if info.kind != nil {
			if _, err := info.kind.ParseText(str); err != nil {
				s.fail(fmt.Errorf("gormplugin: a string compared with a %s column: %w", info.kind.Name, err))
			}
		}
		s.checkOrder(str, info)
		return s.typed(str, info)
	case formServer:
		// The extension's types read the string themselves, and refuse a
		// bad one; it is refused here first, as for the other columns,
		// with the plugin's error. (uuid reads more forms than the text
		// form; the server decides there.)
		if info.kind != nil && info.kind != idkind.UUIDv7 {
			if _, err := info.kind.ParseText(str); err != nil {
				s.fail(fmt.Errorf("gormplugin: a string compared with a %s column: %w", info.kind.Name, err))
			}
		}
	case formUnknown:
		if u != nil && u.mentionsID {
			s.fail(fmt.Errorf("gormplugin: the string %s in %s: %w; compare the ID column itself (id = ?, id IN ?), or pass a typed ID",
				excerpt.Text(str), excerpt.Text(u.fragment), ErrUnclearColumn))
		}
	}
	return str // the server reads it (uuid, the extension's types), or no ID column
}

// bindID returns what to send for an ID value meeting a column.
func (s *scope) bindID(v any, id idkind.Value, info columnInfo, u *unclear) any {
	if id.Bytes == nil {
		return nil
	}
	if info.kind != nil && info.kind != id.Kind && (info.form == formBytes || info.form == formServer) {
		s.fail(fmt.Errorf("gormplugin: the %s %s compared with a %s column: %w",
			id.Kind.Name, id.Kind.FormatText(id.Bytes), info.kind.Name, ErrWrongIDType))
		return v
	}
	form := info.form
	if form == formUnknown {
		if u != nil && u.mentionsID {
			s.fail(fmt.Errorf("gormplugin: the %s %s in %s: %w; compare the ID column itself (id = ?, id IN ?)",
				id.Kind.Name, id.Kind.FormatText(id.Bytes), excerpt.Text(u.fragment), ErrUnclearColumn))
			return v
		}
		form = s.defaultForm(id.Kind)
	}
	switch form {
	case formBytes:
		return s.typed(rawID(id.Bytes), info)
	case formText, formOther, formServer:
		text := id.Kind.FormatText(id.Bytes)
		s.checkOrder(text, info)
		return s.typed(text, info)
	}
	return v
}

// typed casts v to the column's type in the SQL, where the catalog gave
// the type (see columnInfo.cast). SQL written whole is sent as written:
// its values only are bound.
func (s *scope) typed(v any, info columnInfo) any {
	if info.cast == "" || s.raw {
		return v
	}
	return clause.Expr{SQL: "?::" + info.cast, Vars: []any{v}}
}

// checkOrder fails a <, > or BETWEEN with a text column whose collation
// does not sort IDs by their bytes: its answer would not follow time.
func (s *scope) checkOrder(text string, info columnInfo) {
	if info.form == formText && info.ordered && info.misorders {
		s.fail(fmt.Errorf("gormplugin: %s compared by order with a text column whose collation does not sort IDs by time: %w; "+
			`give the column COLLATE "C" (ALTER TABLE … ALTER COLUMN … TYPE text COLLATE "C"), or convert it to the ksuid or objectid type`,
			excerpt.Text(text), ErrMisorderingColumn))
	}
}

// defaultForm is how an ID goes where the plugin knows no column for it:
// a value outside the clauses it binds, or in a place of SQL written
// whole that the tokenizer does not read.
func (s *scope) defaultForm(k *idkind.Kind) columnForm { return defaultForm(s.dialect, s.b.textIDs, k) }

func defaultForm(dialect string, textIDs bool, k *idkind.Kind) columnForm {
	switch {
	case k == idkind.UUIDv7 && dialect == "mysql":
		return formBytes // the binary(16) the plugin makes
	case k == idkind.UUIDv7:
		return formServer
	case dialect == "postgres" && !textIDs:
		return formBytes
	}
	return formText
}

// rawID is the raw bytes of an ID on their way to the database. The
// driver sends it as any []byte; GORM's logger prints it as the ID's
// text, by String.
type rawID []byte

// String returns the text form of the ID whose bytes p holds, or the
// bytes in hex.
func (p rawID) String() string {
	for _, k := range idkind.All {
		if len(p) == k.Size {
			return k.FormatText(p)
		}
	}
	return fmt.Sprintf("\\x%x", []byte(p))
}
