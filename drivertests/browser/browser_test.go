// Package browser drives the page of the sortid command in headless
// Chromium, against the built command serving on a free port.
package browser

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// chromiumPath finds the browser: SORTID_CHROMIUM, or Debian's chromium,
// which make test installs (scripts/install-packages.sh).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SORTID_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "the browser test needs Chromium: run scripts/install-packages.sh (make test does) or set SORTID_CHROMIUM"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// buildSortid builds the sortid command for t and returns its path.
func buildSortid(t *testing.T) string {
	t.Helper()
	binary := filepath.Join(t.TempDir(), "sortid")
	if out, err := exec.Command("go", "build", "-o", binary, "github.com/sortid/sortid/cmd/sortid").CombinedOutput(); err != nil {
		t.Fatalf("building the sortid command: %v\n%s", err, out)
	}
	return binary
}

// serve builds the sortid command, starts `sortid serve` on a free port
// and returns the URL it reports; the server is stopped when t ends.
func serve(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(buildSortid(t), "serve", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	lines := bufio.NewScanner(stderr)
	if !lines.Scan() {
		t.Fatal("sortid serve printed nothing")
	}
	url, ok := strings.CutPrefix(lines.Text(), "sortid: serving on ")
	if !ok {
		t.Fatalf("sortid serve printed %q first", lines.Text())
	}
	return url
}

// tab is one Chromium tab of a test, with the steps the tests take.
type tab struct {
	t   *testing.T
	ctx context.Context
}

// newTab starts headless Chromium for t, with the clipboard permitted to
// every origin (the file:// page has none of its own).
func newTab(t *testing.T) *tab {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	// The first action starts the browser; it must run on a context
	// without a timeout (see chromedp.Run).
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name},
			Setting:    "granted",
		})
		if err != nil {
			t.Fatalf("granting %s: %v", name, err)
		}
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelTimeout)
	return &tab{t: t, ctx: ctx}
}

// beforeScripts runs js in every page the tab opens, before the page's
// own script.
func (b *tab) beforeScripts(js string) {
	b.t.Helper()
	_, err := cdp.Call(b.ctx, chromedp.FromContext(b.ctx).Target, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
	if err != nil {
		b.t.Fatal(err)
	}
}

func (b *tab) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", step, err)
	}
}

// eval evaluates expr in the page, awaiting a promise, as a string.
func (b *tab) eval(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func (b *tab) waitFor(step, predicate string) {
	b.t.Helper()
	b.do(step, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(20*time.Second)))
}

func (b *tab) hidden(id string) string {
	return b.eval(`String(document.getElementById("` + id + `").hidden)`)
}

func (b *tab) text(id string) string {
	return b.eval(`document.getElementById("` + id + `").textContent`)
}

// TestBrowserPage drives the page in headless Chromium: generate, copy,
// reset, a batch, and inspect a good and a bad ID.
func TestBrowserPage(t *testing.T) {
	srvURL := serve(t)
	b := newTab(t)
	do, eval, waitFor, hidden, text := b.do, b.eval, b.waitFor, b.hidden, b.text

	// A phone's width: nothing may scroll sideways.
	do("open the page at 390 px", chromedp.EmulateViewport(390, 844), chromedp.Navigate(srvURL), chromedp.WaitVisible(chromedp.ID("generate")))
	if hidden("reset") != "true" || hidden("copy") != "true" || hidden("result-box") != "true" {
		t.Errorf("before generating: Reset hidden %s, Copy hidden %s, result hidden %s; want all hidden", hidden("reset"), hidden("copy"), hidden("result-box"))
	}
	noSidewaysScroll := func(when string) {
		t.Helper()
		if w := eval(`String(document.documentElement.scrollWidth) + " " + String(window.innerWidth)`); func() bool {
			var sw, iw int
			fmt.Sscan(w, &sw, &iw)
			return sw > iw
		}() {
			t.Errorf("%s: the page is wider than the window (scrollWidth, innerWidth: %s)", when, w)
		}
	}
	noSidewaysScroll("on load")

	do("generate", chromedp.Click(chromedp.ID("generate")), chromedp.WaitVisible(chromedp.ID("reset")))
	id, err := ksuid.Parse(strings.TrimSpace(text("result")))
	if err != nil {
		t.Fatalf("the page shows %q: %v", text("result"), err)
	}
	if time.Since(id.Time()) > time.Minute {
		t.Errorf("generated ID is from %v", id.Time())
	}

	do("copy", chromedp.Click(chromedp.ID("copy")))
	waitFor("copy confirmation", `document.getElementById("gen-status").textContent.startsWith("Copied")`)
	if got := eval(`navigator.clipboard.readText()`); got != id.String() {
		t.Errorf("clipboard holds %q, want %q", got, id)
	}

	do("reset", chromedp.Click(chromedp.ID("reset")), chromedp.WaitNotVisible(chromedp.ID("reset")))
	if got := strings.TrimSpace(text("result")); got != "" {
		t.Errorf("after Reset the result shows %q", got)
	}

	do("monotonic KSUIDs",
		chromedp.Click(chromedp.ID("monotonic")),
		chromedp.SetValue(chromedp.ID("count"), "50"),
		chromedp.Click(chromedp.ID("generate")),
		chromedp.WaitVisible(chromedp.ID("download")),
	)
	// The download link is already visible from an earlier batch, so wait
	// for the new batch itself.
	waitFor("the monotonic batch", `document.getElementById("result").textContent.trim().split(/\s+/).length === 50`)
	mono := strings.Fields(text("result"))
	for i := 1; i < len(mono); i++ {
		if mono[i] <= mono[i-1] {
			t.Fatalf("monotonic KSUID #%d %s is not above #%d %s", i, mono[i], i-1, mono[i-1])
		}
	}
	if len(mono) != 50 {
		t.Errorf("monotonic: %d IDs, want 50", len(mono))
	}
	noSidewaysScroll("with 50 IDs")

	do("batch of ObjectIDs",
		chromedp.Click(chromedp.CSS(`input[name=type][value=objectid]`)),
		chromedp.SetValue(chromedp.ID("count"), "25"),
		chromedp.Click(chromedp.ID("generate")),
	)
	waitFor("the ObjectID batch", `document.getElementById("result").textContent.trim().split(/\s+/).every(l => l.length === 24)`)
	lines := strings.Fields(text("result"))
	seen := map[string]bool{}
	for _, l := range lines {
		if _, err := objectid.Parse(l); err != nil || seen[l] {
			t.Errorf("batch line %q: %v (or repeated)", l, err)
		}
		seen[l] = true
	}
	download := eval(`document.getElementById("download").getAttribute("download")`)
	href := eval(`document.getElementById("download").href`)
	if len(lines) != 25 || download != "ids.txt" || !strings.HasPrefix(href, "blob:") {
		t.Errorf("batch: %d IDs, download %q from %q; want 25 and ids.txt from a blob", len(lines), download, href)
	}
	if file := eval(`fetch(document.getElementById("download").href).then(r => r.text())`); file != strings.Join(lines, "\n")+"\n" {
		t.Errorf("the download holds %q", file)
	}

	do("a bad time",
		chromedp.SetValue(chromedp.ID("time"), "soon"),
		chromedp.Click(chromedp.ID("generate")),
	)
	waitFor("generate error", `document.getElementById("gen-status").textContent.startsWith("Error")`)
	if got := text("gen-status"); !strings.Contains(got, `cannot read time "soon"`) || strings.TrimSpace(text("result")) != "" || hidden("copy") != "true" {
		t.Errorf("after a failed generate: status %q, result %q, Copy hidden %s; want the error and no ID", got, text("result"), hidden("copy"))
	}

	do("inspect a good ID",
		chromedp.SetValue(chromedp.ID("inspect-id"), "60c468e6101bf215dc9fa835"),
		chromedp.Click(chromedp.ID("inspect")),
	)
	waitFor("inspect result", `document.getElementById("inspect-result").textContent.length > 0`)
	if got := text("inspect-result"); !strings.Contains(got, "2021-06-12T07:57:26Z") || !strings.Contains(got, "if legacy  machine 101bf2") {
		t.Errorf("inspect shows %q", got)
	}
	// The byte picture: each part's hex with what it means under it.
	parts := eval(`[...document.querySelectorAll("#inspect-bytes .part")].map(p => p.className + "=" + p.querySelector(".hex").textContent + "=" + p.querySelector(".what").textContent).join("|")`)
	if want := "part timestamp=60c468e6=time 2021-06-12T07:57:26Z|part random=101bf215dc=random value of the process|part counter=9fa835=counter 10463285"; parts != want {
		t.Errorf("the byte picture shows\n %s\nwant\n %s", parts, want)
	}
	noSidewaysScroll("after inspect")
	do("inspect a bad ID",
		chromedp.SetValue(chromedp.ID("inspect-id"), "0qjBBlJIfbVLK-nJn4xpLGDr00e"),
		chromedp.Click(chromedp.ID("inspect")),
	)
	waitFor("inspect error", `document.getElementById("inspect-error").textContent.length > 0`)
	if got := text("inspect-error"); !strings.Contains(got, "invalid character '-' at offset 13") || strings.TrimSpace(text("inspect-result")) != "" || hidden("inspect-bytes") != "true" {
		t.Errorf("bad ID: error %q, result %q, byte picture hidden %s", got, text("inspect-result"), hidden("inspect-bytes"))
	}

	// The range tool: 2026-11-30 as a whole day, as sortid range prints it.
	do("range of a day",
		chromedp.SetValue(chromedp.ID("range-from"), "2026-11-30"),
		chromedp.SetValue(chromedp.ID("range-to"), "2026-11-30"),
		chromedp.Click(chromedp.ID("range")),
		chromedp.WaitVisible(chromedp.ID("range-result")),
	)
	if lo, hi := text("range-min"), text("range-max"); lo != "3Mnqhiv0Q0UYFGD3D9qkgA030zI" || hi != "3MqfpNUxdljkx0pIXdFzqLnabdf" {
		t.Errorf("range shows %s .. %s", lo, hi)
	}
	do("copy the max", chromedp.Click(chromedp.ID("copy-max")))
	waitFor("copy confirmation", `document.getElementById("range-status").textContent.startsWith("Copied")`)
	if got := eval(`navigator.clipboard.readText()`); got != "3MqfpNUxdljkx0pIXdFzqLnabdf" {
		t.Errorf("clipboard holds %q after copying the max", got)
	}
	do("range as hex",
		chromedp.Click(chromedp.ID("range-hex")),
		chromedp.Click(chromedp.ID("range")),
	)
	waitFor("hex bounds", `document.getElementById("range-min").textContent.startsWith("\\x")`)
	if lo := text("range-min"); lo != `\x179a6e80`+strings.Repeat("00", 16) {
		t.Errorf("range --hex shows min %s", lo)
	}
	do("a bad range",
		chromedp.SetValue(chromedp.ID("range-from"), "soon"),
		chromedp.Click(chromedp.ID("range")),
	)
	waitFor("range error", `document.getElementById("range-error").textContent.length > 0`)
	if got := text("range-error"); !strings.Contains(got, `cannot read time "soon"`) || hidden("range-result") != "true" {
		t.Errorf("bad range: error %q, result hidden %s", got, hidden("range-result"))
	}
	noSidewaysScroll("at the end")
}
