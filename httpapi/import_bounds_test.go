package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/httpapi"
)

// postChunked posts body without a Content-Length, so that only the bytes
// read can trip a limit.
func postChunked(t *testing.T, e *apiEnv, path, body string) apiResponse {
	t.Helper()
	req, err := http.NewRequest("POST", e.base+path, io.MultiReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return apiResponse{status: resp.StatusCode, header: resp.Header, body: data}
}

// TestImportOwnBounds (issue 28 §3): an imported session document has
// bounds of its own, sized for what the import streams: --max-import-body
// (default 1 GiB) in place of --max-body, and no --max-request-messages,
// so that a session longer and larger than those limits imports at the
// server's other defaults, with or without a Content-Length; past
// --max-import-body it is 413 naming that flag. Every other body keeps
// --max-body, a kimi-cli import too (it is read whole), and a 413 writes
// the limit for people ("64 KiB", not "65536 bytes").
func TestImportOwnBounds(t *testing.T) {
	e := newAPIEnv(t, apiOptions{maxBody: 64 << 10, limits: httpapi.Limits{MaxRequestMessages: 100}})
	doc := longDoc("long", 1000, "") // about 300 KB: over both
	if got := e.must(201, "POST", "/v1/sessions/import", doc); len(got["messages"].([]any)) != 1000 {
		t.Fatalf("imported %d messages, want 1000", len(got["messages"].([]any)))
	}
	chunked := postChunked(t, e, "/v1/sessions/import?format=session&id=chunked", doc)
	if chunked.status != http.StatusCreated {
		t.Fatalf("a chunked import: %d %.300s", chunked.status, chunked.body)
	}
	const overBody = "the request body exceeds the server's limit of 64 KiB (--max-body)"
	wantError(t, e.do("POST", "/v1/sessions", doc), 413, "too_large", overBody)
	wantError(t, postChunked(t, e, "/v1/sessions", doc), 413, "too_large", overBody)
	kimi := strings.Repeat(`{"role":"user","content":"`+strings.Repeat("k", 200)+`"}`+"\n", 400)
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi", kimi), 413, "too_large", overBody)

	small := newAPIEnv(t, apiOptions{maxImport: 128 << 10})
	const overImport = "the request body exceeds the server's limit of 128 KiB (--max-import-body)"
	wantError(t, small.do("POST", "/v1/sessions/import", doc), 413, "too_large", overImport)
	wantError(t, postChunked(t, small, "/v1/sessions/import", doc), 413, "too_large", overImport)
	if n := len(small.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 0 {
		t.Errorf("%d sessions after refused imports", n)
	}
	if httpapi.DefaultMaxImportBody != 1<<30 {
		t.Errorf("DefaultMaxImportBody is %d, want 1 GiB", httpapi.DefaultMaxImportBody)
	}
}
