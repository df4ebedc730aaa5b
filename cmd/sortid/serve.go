package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sortid/sortid/internal/excerpt"
)

//go:embed web/index.html
var webFiles embed.FS

// Limits of the JSON API.
const (
	maxCount     = 10_000
	maxBodyBytes = 4 << 10
)

func runServe(args []string, stderr io.Writer) int {
	fs := newFlagSet("sortid serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "serve takes no arguments; use --addr %s", fs.Arg(0))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "sortid: serve:", err)
		return exitError
	}
	srv := &http.Server{
		Handler:           newHandlerFor(ln.Addr()),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "sortid: serving on http://%s\n", ln.Addr())

	select {
	case err := <-served:
		fmt.Fprintln(stderr, "sortid: serve:", err)
		return exitError
	case <-ctx.Done():
	}
	// Finish the requests in flight, then stop.
	fmt.Fprintln(stderr, "sortid: shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		fmt.Fprintln(stderr, "sortid: serve: shutdown:", err)
		return exitError
	}
	return exitOK
}

// newHandler serves the page and the API behind it, for a server on the
// loopback interface.
func newHandler() http.Handler {
	return newHandlerFor(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
}

// newHandlerFor serves the page and the API for a server listening on
// addr. Every response says nosniff; the page may not be framed; requests
// that change state must be same-origin and JSON, so that another site's
// page cannot drive the API; and a server on a loopback address answers
// only requests addressed to a loopback name, so that a rebound DNS name
// cannot read it.
func newHandlerFor(addr net.Addr) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' blob:; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-ancestors 'none'")
		w.Write(page())
	})
	mux.HandleFunc("POST /api/generate", handleGenerate)
	mux.HandleFunc("POST /api/inspect", handleInspect)
	mux.HandleFunc("POST /api/range", handleRange)
	for _, path := range []string{"/{$}", "/api/generate", "/api/inspect", "/api/range"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			allow := "POST"
			if path == "/{$}" {
				allow = "GET, HEAD"
			}
			w.Header().Set("Allow", allow)
			apiError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed; use "+allow)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		apiError(w, http.StatusNotFound, "no such page or API: "+excerpt.Text(r.URL.Path))
	})

	loopback := false
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		loopback = true
	}
	protect := http.NewCrossOriginProtection()
	protect.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiError(w, http.StatusForbidden, "cross-origin request refused")
	}))
	guarded := protect.Handler(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if loopback && !isLoopbackHost(r.Host) {
			apiError(w, http.StatusMisdirectedRequest, "this server answers only requests to localhost or a loopback address, not "+excerpt.Text(r.Host))
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

// isLoopbackHost reports whether a Host header names this machine's
// loopback interface: localhost or a loopback IP, with or without a port.
func isLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type generateRequest struct {
	Type      string `json:"type"`
	Count     int    `json:"count"`
	Time      string `json:"time"`
	Monotonic bool   `json:"monotonic"`
}

type generateResponse struct {
	Type string   `json:"type"`
	IDs  []string `json:"ids"`
}

func handleGenerate(w http.ResponseWriter, r *http.Request) {
	var req generateRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	if req.Count == 0 {
		req.Count = 1
	}
	if req.Count < 1 || req.Count > maxCount {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("count %d out of range: want 1 to %d", req.Count, maxCount))
		return
	}
	kind, err := parseKind(req.Type)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	var at *time.Time
	if req.Time != "" {
		t, _, err := parseTime(req.Time)
		if err != nil {
			apiError(w, http.StatusBadRequest, err.Error())
			return
		}
		at = &t
	}
	maker, err := newIDMaker(kind, at, req.Monotonic)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	resp := generateResponse{Type: kind, IDs: make([]string, 0, req.Count)}
	buf := make([]byte, 0, 32)
	for range req.Count {
		if buf, err = maker.appendNew(buf[:0]); err != nil {
			// No ID is shown when generation fails, not even partly.
			apiError(w, http.StatusInternalServerError, "generating IDs: "+err.Error())
			return
		}
		resp.IDs = append(resp.IDs, string(buf))
	}
	writeAPI(w, http.StatusOK, resp)
}

type inspectRequest struct {
	ID string `json:"id"`
}

func handleInspect(w http.ResponseWriter, r *http.Request) {
	var req inspectRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	info, err := inspect(req.ID)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeAPI(w, http.StatusOK, info)
}

type rangeRequest struct {
	Type string `json:"type"`
	From string `json:"from"`
	To   string `json:"to"`
	Hex  bool   `json:"hex"`
	// HalfOpen asks for MinAt(from) and MinAt(to), as --half-open.
	HalfOpen bool `json:"half_open"`
}

// handleRange answers with the Bounds of a time window, as sortid range
// prints them: the times as parseWindow reads them, the bounds as text or,
// with hex, as \x hex for bytea.
func handleRange(w http.ResponseWriter, r *http.Request) {
	var req rangeRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	kind, err := parseKind(req.Type)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	from, to, _, err := parseWindow(req.From, req.To, req.HalfOpen)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	var b Bounds
	if req.HalfOpen {
		b, err = halfOpenBounds(kind, from, to)
	} else {
		b, err = bounds(kind, from, to)
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Hex {
		b = b.asByteaHex()
	}
	writeAPI(w, http.StatusOK, b)
}

// decodeRequest reads a JSON body of at most maxBodyBytes, one object and
// nothing after it, into v, or answers with a 4xx error and returns false.
func decodeRequest(w http.ResponseWriter, r *http.Request, v any) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		apiError(w, http.StatusUnsupportedMediaType, "want Content-Type application/json")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		// One JSON value, and only white space after it.
		if _, next := dec.Token(); next != io.EOF {
			err = errors.New("unexpected data after the JSON object")
			if next != nil {
				err = next
			}
		}
	}
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBodyBytes))
		} else {
			apiError(w, http.StatusBadRequest, "invalid JSON request: "+err.Error())
		}
		return false
	}
	return true
}

func apiError(w http.ResponseWriter, status int, msg string) {
	writeAPI(w, status, map[string]string{"error": msg})
}

func writeAPI(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
