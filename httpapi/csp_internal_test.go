package httpapi

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestPageCSP: the page's header and its meta element both keep media to
// the page's own origin, data: and blob: (issue 21, item 8).
func TestPageCSP(t *testing.T) {
	rec := httptest.NewRecorder()
	webHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"img-src 'self' data: blob:", "media-src 'self' data: blob:", "default-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP header %q lacks %q", csp, want)
		}
	}
	page, err := os.ReadFile("web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "img-src *") || !strings.Contains(string(page), "img-src 'self' data: blob:") {
		t.Error("index.html's CSP meta element allows remote images")
	}
}
