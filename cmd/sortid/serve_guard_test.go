package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// request sends a request with the given headers and returns the status
// and the decoded JSON body, which every answer of the API must have.
func request(t *testing.T, srv *httptest.Server, method, path, body string, header map[string]string) (int, http.Header, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	if method != "HEAD" && resp.Header.Get("Content-Type") == "application/json" {
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode, resp.Header, v
}

func TestAPIRefusals(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	jsonCT := map[string]string{"Content-Type": "application/json"}
	for _, tc := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
	}{
		{"trailing garbage", "POST", "/api/generate", `{"count":1}garbage`, jsonCT, 400},
		{"two objects", "POST", "/api/generate", `{"count":1}{"count":2}`, jsonCT, 400},
		{"megabyte after the object", "POST", "/api/generate", `{"count":1}` + strings.Repeat(" ", 1<<20), jsonCT, 413},
		{"form content type", "POST", "/api/generate", `{"count":1}`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"no content type", "POST", "/api/inspect", `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`, nil, 415},
		{"text/plain", "POST", "/api/inspect", `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"cross-site fetch", "POST", "/api/generate", `{}`, map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403},
		{"other origin", "POST", "/api/generate", `{}`, map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, 403},
		{"rebound host", "POST", "/api/generate", `{}`, map[string]string{"Content-Type": "application/json", "Host": "evil.example:8080"}, 421},
		{"rebound host, page", "GET", "/", ``, map[string]string{"Host": "evil.example"}, 421},
		{"unknown path", "GET", "/api/nothing", ``, nil, 404},
		{"wrong method", "GET", "/api/generate", ``, nil, 405},
		{"wrong method on the page", "DELETE", "/", ``, nil, 405},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, header, body := request(t, srv, tc.method, tc.path, tc.body, tc.header)
			if status != tc.status {
				t.Errorf("status %d, want %d (body %v)", status, tc.status, body)
			}
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("no JSON error message: %v", body)
			}
			if header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", header.Get("X-Content-Type-Options"))
			}
		})
	}
	// The same requests, well-formed, are served; a loopback name with a
	// port is a loopback host.
	for _, host := range []string{"localhost:8080", "127.0.0.1", "[::1]:9"} {
		status, _, body := request(t, srv, "POST", "/api/generate", `{"count":2}`+"\n", map[string]string{"Content-Type": "application/json; charset=utf-8", "Host": host, "Sec-Fetch-Site": "same-origin"})
		if ids, _ := body["ids"].([]any); status != 200 || len(ids) != 2 {
			t.Errorf("Host %s: %d %v", host, status, body)
		}
	}
	status, header, _ := request(t, srv, "GET", "/", "", nil)
	if status != 200 || !strings.Contains(header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("page: %d, CSP %q", status, header.Get("Content-Security-Policy"))
	}
}

func TestServeArguments(t *testing.T) {
	var stderr strings.Builder
	if code := run([]string{"serve", "127.0.0.1:9090"}, strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
		t.Errorf("serve with a positional argument: exit %d, want %d (%s)", code, exitUsage, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"serve", "--addr", "256.0.0.1:1"}, strings.NewReader(""), io.Discard, &stderr); code != exitError || strings.Contains(stderr.String(), "serving on") {
		t.Errorf("unlistenable address: exit %d, stderr %q; want 1 and no 'serving on'", code, stderr.String())
	}
}

// TestServeShutsDownOnSIGTERM starts the server on a free port, reads the
// port it reports, serves a request, then sends SIGTERM: the server must
// stop cleanly with exit 0.
func TestServeShutsDownOnSIGTERM(t *testing.T) {
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"serve", "--addr", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatal("no output from serve")
	}
	url, ok := strings.CutPrefix(lines.Text(), "sortid: serving on ")
	if !ok || strings.HasSuffix(url, ":0") {
		t.Fatalf("first line %q; want the address really listened on", lines.Text())
	}
	resp, err := http.Post(url+"/api/generate", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("request to %s: %v %v", url, resp, err)
	}
	resp.Body.Close()
	go io.Copy(io.Discard, pr)
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after SIGTERM, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop within 10 s of SIGTERM")
	}
}
