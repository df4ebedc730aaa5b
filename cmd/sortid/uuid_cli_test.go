package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/uuidv7"
)

// The UUIDs of RFC 9562's appendix A, all made at 2022-02-22T19:22:22Z
// (the v1 and v6 ones to the 100 ns, the v7 one to the millisecond); the
// outputs are written by hand.
func TestInspectUUIDGolden(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", `017f22e2-79b0-7cc3-98c4-dc0c0c07398f
  type       UUID version 7, variant RFC 9562
  time       2022-02-22T19:22:22Z (unix 1645557742; the millisecond in the first 48 bits)
  hex        017f22e279b07cc398c4dc0c0c07398f
`},
		{"C232AB00-9414-11EC-B3C8-9F6BDECED846", `c232ab00-9414-11ec-b3c8-9f6bdeced846
  type       UUID version 1, variant RFC 9562
  time       2022-02-22T19:22:22Z (unix 1645557742; 100 ns since 1582-10-15)
  hex        c232ab00941411ecb3c89f6bdeced846
`},
		{"1EC9414C-232A-6B00-B3C8-9F6BDECED846", `1ec9414c-232a-6b00-b3c8-9f6bdeced846
  type       UUID version 6, variant RFC 9562
  time       2022-02-22T19:22:22Z (unix 1645557742; 100 ns since 1582-10-15)
  hex        1ec9414c232a6b00b3c89f6bdeced846
`},
		{"919108f7-52d1-4320-9bac-f847db4148a8", `919108f7-52d1-4320-9bac-f847db4148a8
  type       UUID version 4, variant RFC 9562
  time       none (this version holds no time)
  hex        919108f752d143209bacf847db4148a8
`},
		// Version 7 with the Microsoft variant is not a UUIDv7.
		{"017f22e2-79b0-7cc3-d8c4-dc0c0c07398f", `017f22e2-79b0-7cc3-d8c4-dc0c0c07398f
  type       UUID version 7, variant Microsoft (reserved)
  time       none (this version holds no time)
  hex        017f22e279b07cc3d8c4dc0c0c07398f
`},
	} {
		out, errOut, code := sortid(t, "", "inspect", "--hex", tc.in)
		if code != exitOK || out != tc.want {
			t.Errorf("inspect %s: exit %d, %s\n%s\nwant\n%s", tc.in, code, errOut, out, tc.want)
		}
	}
}

// Every form a database or shell shows a UUID in is read as the same.
func TestInspectUUIDForms(t *testing.T) {
	const id = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
	for _, in := range []string{
		id,
		`\x017f22e279b07cc398c4dc0c0c07398f`,
		"017f22e279b07cc398c4dc0c0c07398f",
		`UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")`,
		`Binary.createFromBase64("AX8i4nmwfMOYxNwMDAc5jw==", 4)`,
		`BinData(4, "AX8i4nmwfMOYxNwMDAc5jw==")`,
		`HexData(4, "017f22e279b07cc398c4dc0c0c07398f")`,
		`{"$binary": {"base64": "AX8i4nmwfMOYxNwMDAc5jw==", "subType": "04"}}`,
	} {
		out, errOut, code := sortid(t, "", "inspect", "--json", in)
		var info Info
		if code != exitOK || json.Unmarshal([]byte(out), &info) != nil || info.ID != id || info.Type != "uuidv7" ||
			info.Time != "2022-02-22T19:22:22Z" || info.Version == nil || *info.Version != 7 {
			t.Errorf("inspect %s: exit %d, %s %s", in, code, out, errOut)
		}
	}
	for _, in := range []string{
		`BinData(4, "AX8i4nmwfMOYxNwMDAc5jwAAAAA=")`, // 20 bytes of subtype 4
		`BinData(3, "AX8i4nmwfMOYxNwMDAc5jw==")`,     // the legacy subtype
		`UUID("017f22e2")`,
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398g",
	} {
		if out, _, code := sortid(t, "", "inspect", in); code != exitError {
			t.Errorf("inspect %s: exit %d, %s; want an error", in, code, out)
		}
	}
}

func TestGenerateUUIDv7(t *testing.T) {
	out, errOut, code := sortid(t, "", "-t", "uuidv7", "-n", "2000")
	lines := strings.Fields(out)
	if code != exitOK || len(lines) != 2000 {
		t.Fatalf("exit %d, %d lines, %s", code, len(lines), errOut)
	}
	var prev uuidv7.UUID
	for i, line := range lines {
		id, err := uuidv7.Parse(line)
		if err != nil || id.Compare(prev) <= 0 || time.Since(id.Time()) > time.Minute {
			t.Fatalf("line %d: %s (%v) after %v", i, line, err, prev)
		}
		prev = id
	}
	out, _, code = sortid(t, "", "-t", "uuidv7", "--time", "2024-03-01T12:00:00Z", "-n", "3", "--json")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct{ Type, ID string }
		if code != exitOK || json.Unmarshal([]byte(line), &v) != nil || v.Type != "uuidv7" || !strings.HasPrefix(v.ID, "018df9e2-b200-7000-") {
			t.Errorf("--time: exit %d, %s", code, line)
		}
	}
}

func TestRangeUUIDv7(t *testing.T) {
	// (2024-03-01T12:00:00Z is 0x018df9e2b200 ms.) 2026-12-01 is 0x01a22ee6b000 ms; its last millisecond 0x01a2340d0bff.
	out, errOut, code := sortid(t, "", "range", "-t", "uuidv7", "2026-12-01", "2026-12-01")
	if want := "01a22ee6-b000-7000-8000-000000000000\n01a2340d-0bff-7fff-bfff-ffffffffffff\n"; code != exitOK || out != want {
		t.Errorf("range of a day: exit %d, %s%s; want\n%s", code, out, errOut, want)
	}
	// A time to the second means all of that second.
	out, _, _ = sortid(t, "", "range", "-t", "uuidv7", "--mongo", "2026-12-01T00:00:00Z", "2026-12-01T00:00:01Z")
	if want := `{"_id": {$gte: UUID("01a22ee6-b000-7000-8000-000000000000"), $lte: UUID("01a22ee6-b7cf-7fff-bfff-ffffffffffff")}}` + "\n"; out != want {
		t.Errorf("--mongo: %s, want %s", out, want)
	}
	out, _, _ = sortid(t, "", "range", "-t", "uuidv7", "--hex", "2026-12-01", "2026-12-01")
	if want := `\x01a22ee6b00070008000000000000000` + "\n" + `\x01a2340d0bff7fffbfffffffffffffff` + "\n"; out != want {
		t.Errorf("--hex: %s, want %s", out, want)
	}
}
