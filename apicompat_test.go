package sortid_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAPICompatible fails when a name of the last release's API
// (api/vX.Y.Z.txt, the listing copied there when vX.Y.Z is tagged) is
// gone from the packages or changed (its line differs), unless
// CHANGELOG.md's newest section names it under a "Changed" or "Removed"
// heading or label. Additions need nothing. Before the first release
// there is no baseline, and only the rule's own cases run
// (TestAPIBreaks).
func TestAPICompatible(t *testing.T) {
	baseline, version := lastReleasedAPI(t)
	if baseline == nil {
		t.Log("no released API listing (api/v*.txt) yet: nothing to be compatible with")
		return
	}
	current := readLines(t, "api/sortid.txt") // TestAPI holds it equal to the packages
	changelog, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range apiBreaks(baseline, current, string(changelog)) {
		t.Errorf("%s (in api/%s.txt) is gone or changed, and CHANGELOG.md's newest section does not name it under Changed or Removed", b, version)
	}
}

// TestAPIBreaks: the rule on a made-up release.
func TestAPIBreaks(t *testing.T) {
	baseline := []string{
		"pkg github.com/sortid/sortid/ksuid, func Parse(string) (KSUID, error)",
		"pkg github.com/sortid/sortid/ksuid, method (KSUID) Time() time.Time",
		"pkg github.com/sortid/sortid/pgsql, type PartitionSpec struct, Retain int",
		"pkg github.com/sortid/sortid/gormplugin, var ErrTextIDColumn error",
		"pkg github.com/sortid/sortid/sqltype, const Day Period",
	}
	current := []string{
		"pkg github.com/sortid/sortid/ksuid, func Parse(string, int) (KSUID, error)", // changed
		"pkg github.com/sortid/sortid/sqltype, const Day Period",                     // kept
		"pkg github.com/sortid/sortid/sqltype, const Week Period",                    // added
	}
	// The project's own CHANGELOG names its removals in a form the rule
	// reads ("**Removed:** `gormplugin.WithTextIDColumns`, …, `ErrUUIDText`").
	changelog, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if b := apiBreaks([]string{"pkg github.com/sortid/sortid/gormplugin, var ErrUUIDText error"}, nil, string(changelog)); len(b) != 0 {
		t.Errorf("CHANGELOG.md's removal of gormplugin.ErrUUIDText is not read: %v", b)
	}
	for _, tc := range []struct {
		changelog string
		want      []string
	}{
		{"# Changelog\n\n## v0.2.0\n\n### Faster\n\n- nothing about them\n", []string{"ksuid.Parse", "KSUID.Time", "PartitionSpec.Retain", "gormplugin.ErrTextIDColumn"}},
		{"## v0.2.0\n\n### Parse takes a base (**changed**)\n\n- `ksuid.Parse` and `KSUID.Time`\n\n### Other\n\n- `PartitionSpec.Retain` is gone\n- **Removed:** `gormplugin.WithX`, `ErrTextIDColumn`.\n",
			[]string{"PartitionSpec.Retain"}},
		// Named in an older release's section: not enough.
		{"## v0.2.0\n\n- x\n\n## v0.1.0\n\n### Removed\n\n- `ksuid.Parse`, `KSUID.Time`, `PartitionSpec.Retain`, `gormplugin.ErrTextIDColumn`\n",
			[]string{"ksuid.Parse", "KSUID.Time", "PartitionSpec.Retain", "gormplugin.ErrTextIDColumn"}},
	} {
		if got := apiBreaks(baseline, current, tc.changelog); !slices.Equal(got, tc.want) {
			t.Errorf("with CHANGELOG\n%s\nbreaks %q, want %q", tc.changelog, got, tc.want)
		}
	}
}

// apiBreaks returns the names of the baseline's lines that current lacks
// and the changelog's newest section does not name as changed or
// removed, in the baseline's order.
func apiBreaks(baseline, current []string, changelog string) []string {
	have := make(map[string]bool, len(current))
	for _, l := range current {
		have[l] = true
	}
	allowed := changedOrRemoved(changelog)
	var breaks []string
	for _, l := range baseline {
		if have[l] {
			continue
		}
		qualified, bare := apiName(l)
		if !strings.Contains(allowed, qualified) && !strings.Contains(allowed, "`"+bare+"`") {
			breaks = append(breaks, qualified)
		}
	}
	return breaks
}

var listingLine = regexp.MustCompile(`^pkg \S*?([a-z0-9]+), (?:(?:func|const|var) (\w+)|method \(\*?(\w+)\) (\w+)|type (\w+)(?: \w+, (\w+))?)`)

// apiName returns how the CHANGELOG names a listing line's name:
// qualified (pkg.Func, Type.Method, Type.Field) and bare.
func apiName(line string) (qualified, bare string) {
	m := listingLine.FindStringSubmatch(line)
	switch {
	case m == nil:
		return line, line
	case m[2] != "":
		return m[1] + "." + m[2], m[2]
	case m[3] != "":
		return m[3] + "." + m[4], m[4]
	case m[6] != "":
		return m[5] + "." + m[6], m[6]
	}
	return m[1] + "." + m[5], m[5]
}

// changedOrRemoved returns the text of the changelog's newest section
// ("## …" to the next) that says what changed or went: each "### "
// subsection whose heading says changed or removed, and each list item
// with a **Changed:** or **Removed:** label.
func changedOrRemoved(changelog string) string {
	_, section, _ := strings.Cut("\n"+changelog, "\n## ")
	section, _, _ = strings.Cut(section, "\n## ")
	var b strings.Builder
	for _, sub := range strings.Split(section, "\n### ") {
		heading, _, _ := strings.Cut(sub, "\n")
		if h := strings.ToLower(heading); strings.Contains(h, "changed") || strings.Contains(h, "removed") {
			b.WriteString(sub)
			continue
		}
		for _, item := range strings.Split(sub, "\n- ") {
			if strings.Contains(item, "**Changed:**") || strings.Contains(item, "**Removed:**") {
				b.WriteString(item)
			}
		}
	}
	return b.String()
}

// lastReleasedAPI reads the listing of the newest release, api/vX.Y.Z.txt.
func lastReleasedAPI(t *testing.T) (lines []string, version string) {
	t.Helper()
	files, err := filepath.Glob("api/v*.txt")
	if err != nil || len(files) == 0 {
		return nil, ""
	}
	semver := func(f string) []int {
		var v []int
		for _, p := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "v"), ".txt"), ".") {
			n, _ := strconv.Atoi(p)
			v = append(v, n)
		}
		return v
	}
	newest := slices.MaxFunc(files, func(a, b string) int { return slices.Compare(semver(a), semver(b)) })
	return readLines(t, newest), strings.TrimSuffix(filepath.Base(newest), ".txt")
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
