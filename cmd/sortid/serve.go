package main

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
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
	srv := &http.Server{
		Addr:              *addr,
		Handler:           newHandler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
	}
	fmt.Fprintf(stderr, "sortid: serving on http://%s\n", *addr)
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(stderr, "sortid: serve:", err)
		return exitError
	}
	return exitOK
}

// newHandler serves the page and the API behind it.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		page, _ := webFiles.ReadFile("web/index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' blob:; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
		w.Write(page)
	})
	mux.HandleFunc("POST /api/generate", handleGenerate)
	mux.HandleFunc("POST /api/inspect", handleInspect)
	return mux
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
		t, err := parseTime(req.Time)
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

// decodeRequest reads a JSON body of at most maxBodyBytes into v, or
// answers with a 4xx error and returns false.
func decodeRequest(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
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
