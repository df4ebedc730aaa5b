package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

func post(t *testing.T, srv *httptest.Server, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q", path, ct)
	}
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode, v
}

func TestAPIGenerate(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()

	code, v := post(t, srv, "/api/generate", `{"type":"objectid","count":5}`)
	ids, _ := v["ids"].([]any)
	if code != 200 || len(ids) != 5 || v["type"] != "objectid" {
		t.Fatalf("generate: %d %v", code, v)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if _, err := objectid.Parse(id.(string)); err != nil || seen[id.(string)] {
			t.Errorf("id %v: %v (or repeated)", id, err)
		}
		seen[id.(string)] = true
	}

	code, v = post(t, srv, "/api/generate", `{"time":"2017-07-14T02:40:00Z"}`)
	ids, _ = v["ids"].([]any)
	if code != 200 || len(ids) != 1 || ksuid.MustParse(ids[0].(string)).Timestamp() != 100000000 {
		t.Errorf("generate with time: %d %v", code, v)
	}

	code, v = post(t, srv, "/api/generate", `{"count":10000}`)
	if ids, _ := v["ids"].([]any); code != 200 || len(ids) != 10000 {
		t.Errorf("count 10000: %d, %d IDs", code, len(ids))
	}

	for _, tc := range []struct {
		body   string
		status int
		msg    string
	}{
		{`{"count":10001}`, 400, "count 10001 out of range"},
		{`{"count":-1}`, 400, "count -1 out of range"},
		{`{"type":"uuid"}`, 400, `unknown ID type "uuid"`},
		{`{"time":"soon"}`, 400, `cannot read time "soon"`},
		{`{"time":"1900-01-01T00:00:00Z"}`, 400, "time 1900-01-01T00:00:00Z outside"},
		{`{"type":"objectid","monotonic":true}`, 400, "--monotonic applies to KSUIDs"},
		{`{"colour":"blue"}`, 400, "unknown field"},
		{`{"count":`, 400, "invalid JSON"},
		{`{"time":"` + strings.Repeat("x", 5000) + `"}`, 413, "request body over 4096 bytes"},
	} {
		code, v := post(t, srv, "/api/generate", tc.body)
		msg, _ := v["error"].(string)
		if code != tc.status || !strings.Contains(msg, tc.msg) || v["ids"] != nil {
			t.Errorf("%.40s: %d %v; want %d and %q", tc.body, code, v, tc.status, tc.msg)
		}
	}

	resp, err := http.Get(srv.URL + "/api/generate")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/generate: %d, want 405", resp.StatusCode)
	}
}

func TestAPIInspect(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	code, v := post(t, srv, "/api/inspect", `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`)
	if code != 200 || v["type"] != "ksuid" || v["time"] != "2017-07-14T02:40:00Z" || v["payload"] != "0102030405060708090a0b0c0d0e0f10" {
		t.Errorf("inspect KSUID: %d %v", code, v)
	}
	code, v = post(t, srv, "/api/inspect", `{"id":"60c468e6101bf215dc9fa835"}`)
	legacy, _ := v["legacy"].(map[string]any)
	if code != 200 || v["type"] != "objectid" || legacy["machine"] != "101bf2" || legacy["pid"] != float64(0x15dc) {
		t.Errorf("inspect ObjectID: %d %v", code, v)
	}
	code, v = post(t, srv, "/api/inspect", `{"id":"0qjBBlJIfbVLK-nJn4xpLGDr00e"}`)
	if msg, _ := v["error"].(string); code != 400 || !strings.Contains(msg, "invalid character '-' at offset 13") {
		t.Errorf("inspect bad: %d %v", code, v)
	}
}

func TestAPIRange(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	// As in TestRange: 2026-11-30 is KSUID timestamp 0x179a6e80, and the
	// whole day ends at 0x179bbfff.
	code, v := post(t, srv, "/api/range", `{"type":"ksuid","from":"2026-11-30","to":"2026-11-30"}`)
	if code != 200 || v["min"] != "3Mnqhiv0Q0UYFGD3D9qkgA030zI" || v["max"] != "3MqfpNUxdljkx0pIXdFzqLnabdf" || v["to"] != "2026-11-30T23:59:59Z" {
		t.Errorf("range of a day: %d %v", code, v)
	}
	code, v = post(t, srv, "/api/range", `{"type":"objectid","from":"1623484646","to":"1623484646","hex":true}`)
	if code != 200 || v["min"] != `\x60c468e60000000000000000` || v["max"] != `\x60c468e6ffffffffffffffff` {
		t.Errorf("range --hex of ObjectIDs: %d %v", code, v)
	}
	// Half-open: the day ends where 2026-12-01 starts (3Mqf…dbdg, the
	// largest of 2026-11-30 plus one), and there is no max.
	code, v = post(t, srv, "/api/range", `{"type":"ksuid","from":"2026-11-30","to":"2026-11-30","half_open":true}`)
	if _, hasMax := v["max"]; code != 200 || v["min"] != "3Mnqhiv0Q0UYFGD3D9qkgA030zI" || v["before"] != "3MqfpNUxdljkx0pIXdFzqLnabdg" || hasMax || v["to"] != "2026-12-01T00:00:00Z" {
		t.Errorf("half-open range of a day: %d %v", code, v)
	}
	code, v = post(t, srv, "/api/range", `{"type":"ksuid","from":"2024-02-01","to":"2024-01-01"}`)
	if msg, _ := v["error"].(string); code != 400 || !strings.Contains(msg, "before it starts") {
		t.Errorf("an inverted range: %d %v", code, v)
	}
	code, v = post(t, srv, "/api/range", `{"type":"ksuid","from":"soon","to":"now"}`)
	if msg, _ := v["error"].(string); code != 400 || !strings.Contains(msg, `from: cannot read time "soon"`) {
		t.Errorf("a bad time: %d %v", code, v)
	}
}

func TestPage(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{`id="generate"`, `id="copy"`, `id="reset"`, `<label for="count">`, `<label for="inspect-id">`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// No external assets: everything is in the page.
	for _, bad := range []string{"http://", "https://", "src=\"//"} {
		if strings.Contains(string(body), bad) {
			t.Errorf("page refers to an outside address (%s)", bad)
		}
	}
	if r, _ := http.Get(srv.URL + "/nothing"); r.StatusCode != 404 {
		t.Errorf("GET /nothing: %d", r.StatusCode)
	}
}

// TestPageCommand: `sortid page` writes the very page serve serves, and
// the page asks no server for anything (it must work from a file).
func TestPageCommand(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	out, errOut, code := sortid(t, "", "page")
	if code != 0 || errOut != "" || out != string(served) {
		t.Fatalf("sortid page: exit %d, stderr %q, %d bytes; want the %d bytes serve serves", code, errOut, len(out), len(served))
	}
	for _, bad := range []string{"fetch(", "XMLHttpRequest", "/api/", "Math.random"} {
		if strings.Contains(out, bad) {
			t.Errorf("the page contains %q; it must make IDs itself, from Web Crypto only", bad)
		}
	}
	if _, errOut, code := sortid(t, "", "page", "x.html"); code != exitUsage || !strings.Contains(errOut, "sortid page > sortid.html") {
		t.Errorf("sortid page x.html: exit %d, %q", code, errOut)
	}
}
