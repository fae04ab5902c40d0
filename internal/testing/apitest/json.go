// Package apitest is the support the tests of httpapi and of integration
// share: JSON helpers, the gateway's fake OpenAI-compatible upstream and
// its client, the Messages face's (Claude Code's) fixtures, the Responses
// face's Codex gateway over a fakeresponses fake, and the sessions some
// tests import. It was the httpapi tests' own until the
// slow suites moved to integration (issue 41 §1).
package apitest

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// JSONText returns v as JSON text: a request body, or a response's message
// list for exact comparisons.
func JSONText(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// MustJSON returns v as indented JSON.
func MustJSON(v any) []byte {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return data
}

// JSONString is s as a JSON string, its quotes included.
func JSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// GetJSON decodes GET path's answer into v.
func GetJSON(t *testing.T, base, path string, v any) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
