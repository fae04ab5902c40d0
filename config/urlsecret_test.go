package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestBaseURLSecrets: a base_url whose query names a key, token or secret
// is a configuration error, and no error quotes a URL's query string
// (issue 9, item 2).
func TestBaseURLSecrets(t *testing.T) {
	const doc = "agents:\n  a:\n    llm:\n      base_url: %q\n      model: m\n"
	for _, tc := range []struct{ url, want string }{
		{"https://api.example.com/v1?api_key=sk-live-123", `parameter "api_key"`},
		{"https://api.example.com/v1?x=1&access_token=sk-live-123", `parameter "access_token"`},
		{"https://api.example.com/v1?Secret=sk-live-123", `parameter "Secret"`},
		{"ftp://api.example.com/v1?sig=sk-live-123", "must be an http or https URL"},
		{"api.example.com/v1?q=sk-live-123", "must be an http or https URL"},
	} {
		_, err := Parse(fmt.Appendf(nil, doc, tc.url), "agents.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.url, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "sk-live-123") {
			t.Errorf("%s: the error echoes the secret: %v", tc.url, err)
		}
	}
	if _, err := Parse(fmt.Appendf(nil, doc, "https://x.openai.azure.com/openai?api-version=2024-02-01"), "agents.yaml"); err != nil {
		t.Errorf("a query without credentials: %v", err)
	}
}
