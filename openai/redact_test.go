package openai

import (
	"strings"
	"testing"
)

// TestRedactURLHidesQueries: no URL quoted in an error or fix keeps its
// query string or credentials (issue 9, item 2).
func TestRedactURLHidesQueries(t *testing.T) {
	for _, u := range []string{"https://api.example.com/v1?api_key=sk-live-123", "https://me:sk-live-123@api.example.com/v1",
		"http://h:1/v1?x=sk-live-123#y"} {
		if got := redactURL(u); strings.Contains(got, "sk-live-123") || !strings.Contains(got, "example.com") && !strings.Contains(got, "h:1") {
			t.Errorf("redactURL(%q) = %q", u, got)
		}
	}
	_, err := checkBaseURL("ftp://api.example.com/v1?token=sk-live-123")
	if err == nil || strings.Contains(err.Error(), "sk-live-123") {
		t.Errorf("checkBaseURL: %v", err)
	}
}
