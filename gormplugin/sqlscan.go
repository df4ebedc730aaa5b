package gormplugin

import "strings"

// This file reads a fragment of SQL that a user gave GORM with its
// placeholders (Where("id NOT IN ?", ids), Joins(...), First(&o, "? = id",
// s)) to tell, for each placeholder, which column its value is compared
// with. The fragment is read whole, by tokens, never by looking at the
// text GORM has written before it.

type tokenKind uint8

const (
	tokIdent       tokenKind = iota // a name or keyword, unquoted
	tokQuoted                       // a "quoted" or `quoted` name
	tokPlaceholder                  // ? or @name
	tokLiteral                      // a string or number
	tokOp                           // an operator: = <> < ... ::
	tokPunct                        // ( ) , . ; [ ]
)

type token struct {
	kind tokenKind
	text string // names unquoted; operators as written
	arg  int    // a placeholder's index among the positional ones; -1 for @name
}

// scanMode says which placeholders a text holds.
type scanMode uint8

const (
	scanFragment scanMode = iota // a fragment GORM fills in: every ? is one
	scanNamed                    // the same, and @name (NamedExpr)
	scanDollar                   // SQL as PostgreSQL gets it: $1, $2, …
)

// scanFinal is the mode of SQL ready for dialect's driver.
func scanFinal(dialect string) scanMode {
	if dialect == "postgres" {
		return scanDollar
	}
	return scanFragment
}

// scanSQL splits s into tokens. In a fragment every ? is a placeholder,
// as GORM's Expr counts them; @name is one in scanNamed mode, $n in
// scanDollar mode (where ? is an operator, as in jsonb's). ok is false
// for what it cannot read: an unterminated string, name or comment, a
// dollar-quoted string, or a ? inside a string, a quoted name or a
// comment, which GORM would still replace, so that the placeholders
// would no longer line up with the values.
func scanSQL(s string, mode scanMode) (toks []token, ok bool) {
	args := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i - 1
			}
			if mode != scanDollar && strings.IndexByte(s[i:i+j+1], '?') >= 0 {
				return nil, false // GORM would put a value into the comment
			}
			i += j + 1
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 || mode != scanDollar && strings.IndexByte(s[i:i+j+4], '?') >= 0 {
				return nil, false
			}
			i += j + 4
		case c == '?' && mode != scanDollar:
			toks = append(toks, token{kind: tokPlaceholder, text: "?", arg: args})
			args++
			i++
		case c == '$' && mode == scanDollar && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j, n := i+1, 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' && n < 1<<20 {
				n = n*10 + int(s[j]-'0')
				j++
			}
			toks = append(toks, token{kind: tokPlaceholder, text: s[i:j], arg: n - 1})
			i = j
		case mode == scanNamed && c == '@' && i+1 < len(s) && isNameStart(s[i+1]):
			j := i + 1
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			toks = append(toks, token{kind: tokPlaceholder, text: s[i+1 : j], arg: -1})
			i = j
		case c == '\'':
			j, lit, good := scanQuoted(s, i, '\'')
			if !good || mode != scanDollar && strings.IndexByte(lit, '?') >= 0 {
				return nil, false
			}
			toks = append(toks, token{kind: tokLiteral, text: lit})
			i = j
		case c == '"' || c == '`':
			j, name, good := scanQuoted(s, i, c)
			if !good || mode != scanDollar && strings.IndexByte(name, '?') >= 0 {
				return nil, false
			}
			toks = append(toks, token{kind: tokQuoted, text: name})
			i = j
		case c == '$':
			return nil, false // $1 or a dollar-quoted string: not GORM's placeholders
		case isNameStart(c):
			j := i
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			if (c == 'E' || c == 'e') && j == i+1 && j < len(s) && s[j] == '\'' {
				i = j // E'...': the string follows
				continue
			}
			toks = append(toks, token{kind: tokIdent, text: s[i:j]})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isNameChar(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, token{kind: tokLiteral, text: s[i:j]})
			i = j
		case strings.IndexByte("(),.;[]", c) >= 0:
			toks = append(toks, token{kind: tokPunct, text: s[i : i+1]})
			i++
		case strings.IndexByte("+-*/<>=~!#%^&|:@?", c) >= 0: // ? only in scanDollar mode, @ where no name follows
			j := i
			for j < len(s) && strings.IndexByte("+-*/<>=~!#%^&|:@?", s[j]) >= 0 && (s[j] != '?' || mode == scanDollar) {
				j++
			}
			toks = append(toks, token{kind: tokOp, text: s[i:j]})
			i = j
		default:
			if c >= 0x80 { // a non-ASCII name
				j := i
				for j < len(s) && (s[j] >= 0x80 || isNameChar(s[j])) {
					j++
				}
				toks = append(toks, token{kind: tokIdent, text: s[i:j]})
				i = j
				continue
			}
			return nil, false
		}
	}
	return toks, true
}

// scanQuoted reads the quoted text that starts at s[i] (the quote q), a
// doubled quote standing for one, and returns the index after it.
func scanQuoted(s string, i int, q byte) (next int, text string, ok bool) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			b.WriteByte(s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return j + 1, b.String(), true
	}
	return 0, "", false
}

func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isNameChar(c byte) bool { return isNameStart(c) || '0' <= c && c <= '9' || c == '$' }

// colRef is a column named in SQL: qualifier.name, the qualifier (a
// table, an alias, schema.table) empty when not written.
type colRef struct {
	qualifier string
	name      string
}

// A target is what the value of one placeholder meets.
type target struct {
	// understood is false when the placeholder's context was not one of
	// the forms below.
	understood bool
	// column is set when the value is compared with a plain column:
	// col = ?, ? = col, col <> ?, col IN (?, ?), col NOT IN ?, col = ANY(?),
	// col IS [NOT] DISTINCT FROM ?, col [NOT] BETWEEN ? AND ?,
	// col [NOT] LIKE ?, with or without the column's table.
	column *colRef
	// cast is the type name of col::type = ?, when that is the operand.
	cast string
	// refs are the columns inside an operand that is an expression
	// (lower(col) = ?, coalesce(a, b) = ?).
	refs []colRef
	// argument is true for a value passed to a function, ksuid_time(?), or
	// standing in a place that compares it with nothing (LIMIT ?).
	argument bool
	// ordered is true for <, <=, >, >= and BETWEEN, whose answer depends
	// on the order of the column's type (and collation).
	ordered bool
}

func isOrdering(op string) bool { return op == "<" || op == "<=" || op == ">" || op == ">=" }

func (tg target) withOrder(ordered bool) target {
	tg.ordered = ordered
	return tg
}

// comparisons are the operators after which a placeholder is compared
// with the operand before them.
var comparisons = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func isKeyword(t token, words ...string) bool {
	if t.kind != tokIdent {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.text, w) {
			return true
		}
	}
	return false
}

func isPunct(t token, p string) bool { return t.kind == tokPunct && t.text == p }

// targetOf tells what the placeholder toks[p] is compared with.
func targetOf(toks []token, p int) target {
	at := func(i int) token {
		if i < 0 || i >= len(toks) {
			return token{kind: tokPunct, text: ""}
		}
		return toks[i]
	}
	i := p - 1
	// Inside a parenthesized list of values, (?, ?, 'x'), go to its
	// opening parenthesis.
	if isPunct(at(i), ",") || isPunct(at(i), "(") {
		j := i
		for isPunct(at(j), ",") && isValue(at(j-1)) {
			j -= 2
		}
		if !isPunct(at(j), "(") {
			return target{} // a function's later argument with an expression before it, or worse
		}
		// The list must close after values only.
		k := p + 1
		for isPunct(at(k), ",") && isValue(at(k+1)) {
			k += 2
		}
		if !isPunct(at(k), ")") {
			return target{}
		}
		before := at(j - 1)
		switch {
		case isKeyword(before, "IN"):
			return operandBefore(toks, skipNot(toks, j-2))
		case isKeyword(before, "ANY", "ALL", "SOME"):
			if op := at(j - 2); op.kind == tokOp && comparisons[op.text] {
				return operandBefore(toks, j-3).withOrder(isOrdering(op.text))
			}
			return target{}
		case before.kind == tokOp && comparisons[before.text]:
			return operandBefore(toks, j-2).withOrder(isOrdering(before.text)) // col = (?)
		case before.kind == tokIdent || before.kind == tokQuoted:
			if isKeyword(before, "AND", "OR", "NOT", "WHERE", "ON", "WHEN", "THEN", "ELSE", "SELECT") {
				break
			}
			return target{understood: true, argument: true} // f(?, ...)
		}
		// (? = col): look right.
		return operandAfterPlaceholder(toks, p)
	}
	prev := at(i)
	switch {
	case prev.kind == tokOp && comparisons[prev.text]:
		return operandBefore(toks, i-1).withOrder(isOrdering(prev.text))
	case isKeyword(prev, "IN"):
		return operandBefore(toks, skipNot(toks, i-1))
	case isKeyword(prev, "LIKE", "ILIKE"):
		return operandBefore(toks, skipNot(toks, i-1))
	case isKeyword(prev, "FROM") && isKeyword(at(i-1), "DISTINCT"):
		j := i - 2
		if isKeyword(at(j), "NOT") {
			j--
		}
		if isKeyword(at(j), "IS") {
			return operandBefore(toks, j-1)
		}
		return target{}
	case isKeyword(prev, "BETWEEN", "SYMMETRIC"):
		j := i
		if isKeyword(at(j), "SYMMETRIC") {
			j--
		}
		if !isKeyword(at(j), "BETWEEN") {
			return target{}
		}
		return operandBefore(toks, skipNot(toks, j-1)).withOrder(true)
	case isKeyword(prev, "AND") && isValue(at(i-1)) && isKeyword(at(i-2), "BETWEEN", "SYMMETRIC"):
		j := i - 2
		if isKeyword(at(j), "SYMMETRIC") {
			j--
		}
		if !isKeyword(at(j), "BETWEEN") {
			return target{}
		}
		return operandBefore(toks, skipNot(toks, j-1)).withOrder(true)
	case isKeyword(prev, "LIMIT", "OFFSET"):
		return target{understood: true, argument: true}
	}
	return operandAfterPlaceholder(toks, p)
}

// operandAfterPlaceholder handles ? = col, ? <> col and the like.
func operandAfterPlaceholder(toks []token, p int) target {
	if p+1 < len(toks) && toks[p+1].kind == tokOp && comparisons[toks[p+1].text] {
		return operandAfter(toks, p+2).withOrder(isOrdering(toks[p+1].text))
	}
	return target{}
}

// skipNot returns i, or i-1 where toks[i] is NOT.
func skipNot(toks []token, i int) int {
	if i >= 0 && isKeyword(toks[i], "NOT") {
		return i - 1
	}
	return i
}

// isValue reports whether t is a single value in a list: a placeholder
// or a literal.
func isValue(t token) bool { return t.kind == tokPlaceholder || t.kind == tokLiteral }

// operandBefore reads the operand that ends at toks[e].
func operandBefore(toks []token, e int) target {
	if e < 0 {
		return target{}
	}
	t := toks[e]
	switch {
	case t.kind == tokLiteral || t.kind == tokPlaceholder:
		return target{understood: true} // a constant: no column
	case t.kind == tokIdent || t.kind == tokQuoted:
		start := chainStart(toks, e)
		if start >= 1 && toks[start-1].kind == tokOp && toks[start-1].text == "::" {
			// x::type: the operand is what the cast makes.
			castStart, ok := exprStart(toks, start-2)
			if !ok {
				return target{}
			}
			return target{understood: true, cast: strings.ToLower(t.text), refs: columnRefs(toks[castStart : start-1])}
		}
		if t.kind == tokIdent && isReserved(t.text) {
			return target{}
		}
		return target{understood: true, column: chainRef(toks[start : e+1])}
	case isPunct(t, ")"):
		s, ok := exprStart(toks, e)
		if !ok {
			return target{}
		}
		return target{understood: true, refs: columnRefs(toks[s : e+1])}
	}
	return target{}
}

// operandAfter reads the operand that starts at toks[s], for ? = operand.
func operandAfter(toks []token, s int) target {
	if s >= len(toks) {
		return target{}
	}
	t := toks[s]
	switch {
	case t.kind == tokLiteral || t.kind == tokPlaceholder:
		return target{understood: true}
	case t.kind == tokIdent || t.kind == tokQuoted:
		end := chainEnd(toks, s)
		next := token{}
		if end+1 < len(toks) {
			next = toks[end+1]
		}
		switch {
		case isPunct(next, "("), next.kind == tokOp && next.text == "::":
			// A function call or a cast: an expression; its columns
			// are what it holds.
			e := end + 1
			depth := 0
			for ; e < len(toks); e++ {
				if isPunct(toks[e], "(") {
					depth++
				} else if isPunct(toks[e], ")") {
					if depth--; depth == 0 {
						break
					}
				} else if depth == 0 && !(toks[e].kind == tokOp && toks[e].text == "::") && e > end+1 && toks[e-1].kind != tokOp {
					break
				}
			}
			return target{understood: true, refs: columnRefs(toks[s:min(e+1, len(toks))])}
		}
		if t.kind == tokIdent && isReserved(t.text) {
			return target{}
		}
		return target{understood: true, column: chainRef(toks[s : end+1])}
	case isPunct(t, "("):
		depth := 0
		for e := s; e < len(toks); e++ {
			if isPunct(toks[e], "(") {
				depth++
			} else if isPunct(toks[e], ")") {
				if depth--; depth == 0 {
					return target{understood: true, refs: columnRefs(toks[s : e+1])}
				}
			}
		}
	}
	return target{}
}

// exprStart returns where the expression ending at toks[e] starts: a
// parenthesized group with the function name before it, or a name chain.
func exprStart(toks []token, e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if !isPunct(toks[e], ")") {
		if toks[e].kind != tokIdent && toks[e].kind != tokQuoted && toks[e].kind != tokLiteral && toks[e].kind != tokPlaceholder {
			return 0, false
		}
		return chainStart(toks, e), true
	}
	depth := 0
	for s := e; s >= 0; s-- {
		if isPunct(toks[s], ")") {
			depth++
		} else if isPunct(toks[s], "(") {
			if depth--; depth == 0 {
				if s >= 1 && (toks[s-1].kind == tokIdent && !isReserved(toks[s-1].text) || toks[s-1].kind == tokQuoted) {
					s = chainStart(toks, s-1) // the function's name, schema.function
				}
				return s, true
			}
		}
	}
	return 0, false
}

// columnRefs returns the name chains in toks that are not function
// names, cast types or keywords: the columns an expression reads.
func columnRefs(toks []token) []colRef {
	var refs []colRef
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tokIdent && t.kind != tokQuoted {
			continue
		}
		e := chainEnd(toks, i)
		afterCast := i >= 1 && toks[i-1].kind == tokOp && toks[i-1].text == "::"
		call := e+1 < len(toks) && isPunct(toks[e+1], "(")
		if !afterCast && !call && !(t.kind == tokIdent && isReserved(t.text) && e == i) {
			refs = append(refs, *chainRef(toks[i : e+1]))
		}
		i = e
	}
	return refs
}

// chainRef makes a column of a name chain: col, table.col,
// schema.table.col.
func chainRef(chain []token) *colRef {
	names := make([]string, 0, (len(chain)+1)/2)
	for i := 0; i < len(chain); i += 2 {
		names = append(names, identText(chain[i]))
	}
	last := len(names) - 1
	return &colRef{qualifier: strings.Join(names[:last], "."), name: names[last]}
}

// identText is the name a token stands for: an unquoted name as
// PostgreSQL folds it (lower case), a quoted one as written.
func identText(t token) string {
	if t.kind == tokQuoted {
		return t.text
	}
	return strings.ToLower(t.text)
}

// isReserved reports whether an unquoted word is a keyword that is never
// a column.
func isReserved(word string) bool {
	switch strings.ToUpper(word) {
	case "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE", "DISTINCT", "FROM", "BETWEEN", "SYMMETRIC",
		"LIKE", "ILIKE", "ANY", "ALL", "SOME", "CASE", "WHEN", "THEN", "ELSE", "END", "SELECT", "WHERE", "EXISTS",
		"AS", "ON", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "FULL", "CROSS", "USING", "LIMIT", "OFFSET", "ORDER",
		"BY", "GROUP", "HAVING", "ARRAY", "CURRENT_DATE", "CURRENT_TIMESTAMP", "DEFAULT", "ASC", "DESC", "UNION",
		"COLLATE", "ESCAPE", "SIMILAR", "TO", "INTERVAL", "CAST", "SET", "VALUES", "RETURNING", "ONLY", "INTO",
		"UPDATE", "DELETE", "INSERT", "LATERAL", "NATURAL", "WITH", "CONFLICT", "DO", "NOTHING":
		return true
	}
	return false
}

// tableAliases reads the tables a fragment names and their aliases
// ("JOIN items i ON ...", "LEFT JOIN inv.items AS it USING (...)", FROM,
// UPDATE, INSERT INTO): alias
// (or the table's own name) -> the table as written.
func tableAliases(toks []token, into map[string]string) {
	for i := 0; i < len(toks); i++ {
		if !isKeyword(toks[i], "JOIN", "FROM", "UPDATE", "INTO") {
			continue
		}
		name, base, e, ok := tableAt(toks, i+1)
		if !ok {
			continue
		}
		into[base] = name
		a := e + 1
		if a < len(toks) && isKeyword(toks[a], "AS") {
			a++
		}
		if a < len(toks) && (toks[a].kind == tokQuoted || toks[a].kind == tokIdent && !isReserved(toks[a].text)) {
			into[identText(toks[a])] = name
		}
		i = e
	}
}

func isName(t token) bool { return t.kind == tokIdent || t.kind == tokQuoted }

// chainStart returns the index of the first name of the chain a.b.c
// that ends at toks[e].
func chainStart(toks []token, e int) int {
	s := e
	for s >= 2 && isPunct(toks[s-1], ".") && isName(toks[s-2]) {
		s -= 2
	}
	return s
}

// chainEnd returns the index of the last name of the chain a.b.c that
// starts at toks[s].
func chainEnd(toks []token, s int) int {
	e := s
	for e+2 < len(toks) && isPunct(toks[e+1], ".") && isName(toks[e+2]) {
		e += 2
	}
	return e
}

// tableAt reads the table name that starts at toks[s]: plainly, with its
// schema ("inv.items"), and without (base, "items"), and the index of its
// last token; ok is false where no name starts there.
func tableAt(toks []token, s int) (name, base string, end int, ok bool) {
	if s >= len(toks) || !isName(toks[s]) {
		return "", "", 0, false
	}
	end = chainEnd(toks, s)
	table := chainRef(toks[s : end+1])
	name = table.name
	if table.qualifier != "" {
		name = table.qualifier + "." + table.name
	}
	return name, table.name, end, true
}
