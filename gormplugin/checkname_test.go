package gormplugin

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheckName: names of the ID columns' checks fit PostgreSQL's 63 bytes, stay
// readable when short, and stay distinct for columns of a long table name
// that differ only past the cut.
func TestCheckName(t *testing.T) {
	if got := checkName("users", "id"); got != "chk_users_id_id" {
		t.Errorf("checkName(users, id) = %q", got)
	}
	table := strings.Repeat("order_line_item_", 4)
	a, b := checkName(table, "parent_order_id"), checkName(table, "parent_owner_id")
	if a == b || len(a) > 63 || len(b) > 63 || !strings.HasPrefix(a, "chk_order_line_item_") {
		t.Errorf("long names %q and %q: want distinct, at most 63 bytes, starting as the table", a, b)
	}
	// A cut never splits a character.
	for _, n := range []int{0, 1, 2, 3} {
		name := checkName(strings.Repeat("x", n)+strings.Repeat("é", 40), "id")
		if len(name) > 63 || !utf8.ValidString(name) {
			t.Errorf("checkName with a non-ASCII table: %q (%d bytes, valid UTF-8 %v)", name, len(name), utf8.ValidString(name))
		}
	}
}
