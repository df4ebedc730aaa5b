package browser

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// generateIn makes count IDs of kind with the page's form and returns
// the lines it shows, with the test's clock before and after.
func generateIn(b *tab, kind string, count int) (lines []string, start, end time.Time) {
	b.t.Helper()
	b.eval(`document.getElementById("reset").click(), ""`)
	start = time.Now()
	b.do("generate "+kind,
		chromedp.Click(chromedp.CSS(`input[name=type][value=`+kind+`]`)),
		chromedp.SetValue(chromedp.ID("count"), itoa(count)),
		chromedp.Click(chromedp.ID("generate")),
	)
	b.waitFor("the "+kind+" batch", `document.getElementById("gen-status").textContent.startsWith("Generated")`)
	end = time.Now()
	return strings.Fields(b.text("result")), start, end
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestPageMakesIDs: the page's own script makes 10,000 KSUIDs and 10,000
// ObjectIDs that the Go packages decode, all distinct and dated by the
// test's clock; it encodes fixed bytes as Go does; and its inspect of
// 1,000 Go-made IDs, in the forms databases show, gives the fields
// `sortid inspect --json` gives.
func TestPageMakesIDs(t *testing.T) {
	srvURL := serve(t)
	b := newTab(t)
	b.do("open the page", chromedp.Navigate(srvURL), chromedp.WaitVisible(chromedp.ID("generate")))
	if where := b.text("where"); !strings.Contains(where, "IDs are made in this page, by your browser") {
		t.Errorf("the page says %q about where IDs are made", where)
	}

	within := func(at, start, end time.Time) bool {
		return !at.Before(start.Truncate(time.Second).Add(-2*time.Second)) && !at.After(end.Add(2*time.Second))
	}
	lines, start, end := generateIn(b, "ksuid", 10000)
	seen := map[string]bool{}
	for _, l := range lines {
		id, err := ksuid.Parse(l)
		if err != nil || seen[l] || !within(id.Time(), start, end) {
			t.Fatalf("page KSUID %q: %v, repeated %v, time %v (test clock %v to %v)", l, err, seen[l], id.Time(), start, end)
		}
		seen[l] = true
	}
	if len(lines) != 10000 {
		t.Errorf("%d KSUIDs, want 10000", len(lines))
	}
	lines, start, end = generateIn(b, "objectid", 10000)
	clear(seen)
	for _, l := range lines {
		id, err := objectid.Parse(l)
		if err != nil || seen[l] || !within(id.Time(), start, end) {
			t.Fatalf("page ObjectID %q: %v, repeated %v, time %v (test clock %v to %v)", l, err, seen[l], id.Time(), start, end)
		}
		seen[l] = true
	}
	if len(lines) != 10000 {
		t.Errorf("%d ObjectIDs, want 10000", len(lines))
	}
	// UUIDv7s: strictly increasing, as uuidv7.New's are, and dated by
	// the clock to the millisecond.
	lines, start, end = generateIn(b, "uuidv7", 10000)
	var prev uuidv7.UUID
	for _, l := range lines {
		id, err := uuidv7.Parse(l)
		if err != nil || id.Compare(prev) <= 0 || !within(id.Time(), start, end) {
			t.Fatalf("page UUIDv7 %q: %v, after %v, time %v (test clock %v to %v)", l, err, prev, id.Time(), start, end)
		}
		prev = id
	}
	if len(lines) != 10000 {
		t.Errorf("%d UUIDv7s, want 10000", len(lines))
	}

	// Fixed bytes, through the page's inspect form: the seed's example
	// (timestamp 100000000, payload 1..16), the zero and the largest KSUID.
	for _, c := range []struct{ in, want string }{
		{`\x05f5e1000102030405060708090a0b0c0d0e0f10`, "0qjBBlJIfbVLKwnJn4xpLGDr00e"},
		{`\x` + strings.Repeat("00", 20), "000000000000000000000000000"},
		{`\x` + strings.Repeat("ff", 20), "aWgEPTl1tmebfsQzFP4bxwgy80V"},
	} {
		b.eval(`document.getElementById("inspect-result").textContent = "", ""`)
		b.do("inspect "+c.in, chromedp.SetValue(chromedp.ID("inspect-id"), c.in), chromedp.Click(chromedp.ID("inspect")))
		b.waitFor("inspect "+c.in, `document.getElementById("inspect-result").textContent.length > 0`)
		if got := b.text("inspect-result"); !strings.Contains(got, "id         "+c.want+"\n") {
			t.Errorf("the page shows %s as\n%s\nwant id %s", c.in, got, c.want)
		}
	}
	if got := b.text("inspect-result"); !strings.Contains(got, "time       2150-06-19T23:21:35Z") || !strings.Contains(got, "local      ") {
		t.Errorf("the page shows the largest KSUID's time as\n%s\nwant UTC and local time", got)
	}

	// 1,000 IDs made by Go, in the forms databases show them, and UUIDs
	// of RFC 9562's versions 1, 6 and 4 and of another variant.
	inputs := []string{"C232AB00-9414-11EC-B3C8-9F6BDECED846", "1ec9414c-232a-6b00-b3c8-9f6bdeced846",
		"919108f7-52d1-4320-9bac-f847db4148a8", "017f22e2-79b0-7cc3-d8c4-dc0c0c07398f"}
	for i := range 500 {
		id := must(uuidv7.NewAt(time.Now().Add(-time.Duration(i) * 1234567 * time.Microsecond)))
		inputs = append(inputs, []string{id.String(), strings.ToUpper(id.String()), `\x` + hex.EncodeToString(id[:]),
			`UUID("` + id.String() + `")`, `BinData(4, "` + base64.StdEncoding.EncodeToString(id[:]) + `")`}[i%5])
	}
	for i := range 1000 {
		if i%2 == 0 {
			id := ksuid.New()
			inputs = append(inputs, []string{id.String(), `\x` + hex.EncodeToString(id[:]), hex.EncodeToString(id[:]),
				`Binary.createFromBase64("` + base64.StdEncoding.EncodeToString(id[:]) + `", 0)`}[i/2%4])
		} else {
			id := objectid.New()
			inputs = append(inputs, []string{id.String(), strings.ToUpper(id.String()), `\x` + hex.EncodeToString(id[:]),
				`ObjectId("` + id.String() + `")`}[i/2%4])
		}
	}
	cmd := exec.Command(buildSortid(t), "inspect", "--json")
	cmd.Stdin = strings.NewReader(strings.Join(inputs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sortid inspect --json: %v", err)
	}
	var want []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		want = append(want, m)
	}
	quoted, _ := json.Marshal(inputs)
	var got []map[string]any
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify(`+string(quoted)+`.map(s => window.sortidPage.inspect(s)))`)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the page inspected %d IDs, the command %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("inspect %q:\n page    %v\n command %v", inputs[i], got[i], want[i])
		}
	}
}

// TestPageWithoutWebCrypto: where crypto.getRandomValues is missing or
// throws, Generate shows the error and no ID, for both types; the page
// says so on load, and what needs no random bytes still works.
func TestPageWithoutWebCrypto(t *testing.T) {
	srvURL := serve(t)
	for _, c := range []struct{ name, before, want string }{
		{"missing", `delete Crypto.prototype.getRandomValues;`, "this browser has no Web Crypto (crypto.getRandomValues)"},
		{"throwing", `Crypto.prototype.getRandomValues = function () { throw new Error("entropy source offline"); };`,
			"crypto.getRandomValues) failed: entropy source offline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newTab(t)
			b.beforeScripts(c.before)
			b.do("open the page", chromedp.Navigate(srvURL), chromedp.WaitVisible(chromedp.ID("generate")))
			if b.hidden("no-crypto") != "false" || !strings.Contains(b.text("no-crypto"), c.want) {
				t.Errorf("on load: notice hidden %s, %q; want it shown with %q", b.hidden("no-crypto"), b.text("no-crypto"), c.want)
			}
			for _, kind := range []string{"ksuid", "objectid"} {
				b.eval(`document.getElementById("gen-status").textContent = "", ""`)
				b.do("generate "+kind,
					chromedp.Click(chromedp.CSS(`input[name=type][value=`+kind+`]`)),
					chromedp.Click(chromedp.ID("generate")),
				)
				b.waitFor("the error", `document.getElementById("gen-status").textContent.startsWith("Error")`)
				if got := b.text("gen-status"); !strings.Contains(got, c.want) || strings.TrimSpace(b.text("result")) != "" ||
					b.hidden("result-box") != "true" || b.hidden("copy") != "true" {
					t.Errorf("%s: status %q, result %q, result hidden %s; want the error and no ID", kind, got, b.text("result"), b.hidden("result-box"))
				}
			}
			b.do("a range", chromedp.SetValue(chromedp.ID("range-from"), "2026-11-30"),
				chromedp.SetValue(chromedp.ID("range-to"), "2026-11-30"), chromedp.Click(chromedp.ID("range")))
			b.waitFor("the range", `!document.getElementById("range-result").hidden`)
			if lo := b.text("range-min"); lo != "3Mnqhiv0Q0UYFGD3D9qkgA030zI" {
				t.Errorf("range without Web Crypto: min %q", lo)
			}
		})
	}
}

// TestPageFromFile: the file `sortid page` writes, opened from disk with
// the network off, generates, copies, resets and inspects.
func TestPageFromFile(t *testing.T) {
	out, err := exec.Command(buildSortid(t), "page").Output()
	if err != nil {
		t.Fatalf("sortid page: %v", err)
	}
	file := filepath.Join(t.TempDir(), "sortid.html")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newTab(t)
	target := chromedp.FromContext(b.ctx).Target
	if _, err := cdp.Call(b.ctx, target, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Call(b.ctx, target, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: true}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Call(b.ctx, target, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true}); err != nil {
		t.Fatal(err)
	}
	b.do("open the file", chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.ID("generate")))
	if online := b.eval(`String(navigator.onLine) + " " + location.protocol`); online != "false file:" {
		t.Fatalf("navigator.onLine and protocol: %s; want the page offline from a file", online)
	}
	if b.hidden("reset") != "true" || b.hidden("result-box") != "true" {
		t.Errorf("before generating: Reset hidden %s, result hidden %s", b.hidden("reset"), b.hidden("result-box"))
	}
	start := time.Now()
	b.do("generate", chromedp.Click(chromedp.ID("generate")), chromedp.WaitVisible(chromedp.ID("reset")))
	id, err := ksuid.Parse(strings.TrimSpace(b.text("result")))
	if err != nil || id.Time().Before(start.Truncate(time.Second).Add(-2*time.Second)) {
		t.Fatalf("the file page made %q (%v), dated %v", b.text("result"), err, id.Time())
	}
	b.do("copy", chromedp.Click(chromedp.ID("copy")))
	b.waitFor("copy confirmation", `document.getElementById("gen-status").textContent.startsWith("Copied")`)
	if got := b.eval(`navigator.clipboard.readText()`); got != id.String() {
		t.Errorf("clipboard holds %q, want %q", got, id)
	}
	b.do("reset", chromedp.Click(chromedp.ID("reset")), chromedp.WaitNotVisible(chromedp.ID("reset")))
	if got := strings.TrimSpace(b.text("result")); got != "" || b.hidden("result-box") != "true" {
		t.Errorf("after Reset: result %q, hidden %s", got, b.hidden("result-box"))
	}
	b.do("inspect", chromedp.SetValue(chromedp.ID("inspect-id"), id.String()), chromedp.Click(chromedp.ID("inspect")))
	b.waitFor("inspect result", `document.getElementById("inspect-result").textContent.length > 0`)
	if got := b.text("inspect-result"); !strings.Contains(got, "id         "+id.String()) || !strings.Contains(got, id.Time().Format(time.RFC3339)) {
		t.Errorf("inspect from the file shows %q", got)
	}
}

// TestPageClockOutOfRange: a browser clock before 2014 or after 2150 gives
// the error the Go packages give for that time, and no ID.
func TestPageClockOutOfRange(t *testing.T) {
	srvURL := serve(t)
	for _, at := range []time.Time{
		time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2151, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		t.Run(at.Format("2006"), func(t *testing.T) {
			b := newTab(t)
			b.beforeScripts(`Date.now = () => ` + itoa(int(at.UnixMilli())) + `;`)
			b.do("open the page", chromedp.Navigate(srvURL), chromedp.WaitVisible(chromedp.ID("generate")))
			_, want := ksuid.MinAt(at)
			b.do("generate", chromedp.Click(chromedp.ID("generate")))
			b.waitFor("the error", `document.getElementById("gen-status").textContent.startsWith("Error")`)
			if got := b.text("gen-status"); got != "Error: "+want.Error() || b.hidden("result-box") != "true" {
				t.Errorf("status %q, result hidden %s; want %q and no ID", got, b.hidden("result-box"), "Error: "+want.Error())
			}
			if at.Year() > 2106 {
				_, want = objectid.MinAt(at)
				b.do("generate an ObjectID", chromedp.Click(chromedp.CSS(`input[name=type][value=objectid]`)), chromedp.Click(chromedp.ID("generate")))
				b.waitFor("the ObjectID error", `document.getElementById("gen-status").textContent.includes("objectid")`)
				if got := b.text("gen-status"); got != "Error: "+want.Error() {
					t.Errorf("ObjectID: status %q, want %q", got, "Error: "+want.Error())
				}
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestPageUUIDv7Bounds: the page's bounds of a window of UUIDv7s are
// those of sortid range -t uuidv7.
func TestPageUUIDv7Bounds(t *testing.T) {
	srvURL := serve(t)
	b := newTab(t)
	b.do("open the page", chromedp.Navigate(srvURL), chromedp.WaitVisible(chromedp.ID("generate")))
	for _, w := range [][2]string{{"2026-12-01", "2026-12-01"}, {"2026-12-01T00:00:00Z", "2026-12-01T00:00:01Z"}, {"2024-02-29T12:34:56.789Z", "2024-03-01T00:00:00.001Z"}} {
		out, err := exec.Command(buildSortid(t), "range", "-t", "uuidv7", w[0], w[1]).Output()
		if err != nil {
			t.Fatalf("sortid range: %v", err)
		}
		got := b.eval(`(() => { const r = window.sortidPage.bounds("uuidv7", ` + quote(w[0]) + `, ` + quote(w[1]) + `, false); return r.min + "\n" + r.max + "\n"; })()`)
		if got != string(out) {
			t.Errorf("window %s to %s: the page gives\n%s the command\n%s", w[0], w[1], got, out)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
