package kompact_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/urlsecret"
)

// TestSessionIDErrorNamesTheByte: the error of an id with a byte outside
// the rule names that byte as a newcomer reads it: a printable character
// quoted with its code, any other byte by its code alone.
func TestSessionIDErrorNamesTheByte(t *testing.T) {
	for id, want := range map[string]string{
		"a/b":    `has '/' (byte 0x2f) at offset 1, which is not allowed`,
		"ab c":   `has ' ' (byte 0x20) at offset 2, which is not allowed`,
		"a'b":    `has '\'' (byte 0x27) at offset 1, which is not allowed`,
		"a\x00b": `has a byte 0x00 at offset 1, which is not allowed`,
		"\xffa":  `has a byte 0xff at offset 0, which is not allowed`,
	} {
		if err := kompact.ValidateSessionID(id); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateSessionID(%q) = %v, want it to say %q", id, err, want)
		}
	}
}

// TestValidateSessionID checks the session id rule of issue 9: 1 to 128
// bytes of letters, digits, '-', '_', '.', ':', and not "." or "..".
func TestValidateSessionID(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"s1", true},
		{"a-b_c.d:e", true},
		{"2024-01-01T10:00:00.123Z", true},
		{"...", true},
		{".hidden", true},
		{strings.Repeat("x", 128), true},
		{strings.Repeat("x", 129), false},
		{strings.Repeat("x", 20<<20), false},
		{"", false},
		{".", false},
		{"..", false},
		{"a/b", false},
		{"a b", false},
		{"a%2Fb", false},
		{"a?b", false},
		{"a#b", false},
		{"é", false},
		{"a\x00", false},
		{"a\n", false},
	} {
		err := kompact.ValidateSessionID(tc.id)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateSessionID(%.40q) = %v, want ok=%v", tc.id, err, tc.ok)
			continue
		}
		if err != nil {
			if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), kompact.SessionIDRule) {
				t.Errorf("ValidateSessionID(%.40q): %v (code %s) does not state the rule", tc.id, err, kompact.ErrorCodeOf(err))
			}
			if len(err.Error()) > 400 {
				t.Errorf("ValidateSessionID(%.40q): the error echoes the id: %d bytes", tc.id, len(err.Error()))
			}
		}
	}
}

// TestValidateUTF8 checks that invalid UTF-8 anywhere in a message is
// found and named, a data part included.
func TestValidateUTF8(t *testing.T) {
	bad := "a\xffb"
	good := func() kompact.Message {
		args := `{"x":1}`
		enc := "sig"
		return kompact.Message{ID: "m", Role: kompact.RoleAssistant, Name: "n",
			Content:   []kompact.Part{kompact.TextPart("héllo"), {Type: kompact.PartThink, Think: "t", Encrypted: &enc}, {Type: kompact.PartData, Data: []byte(`{"k":"ü"}`)}, {Type: kompact.PartImage, URL: "https://x/y.png"}},
			ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f", Arguments: &args, Extras: []byte(`{}`)}}}
	}
	if err := kompact.ValidateUTF8([]kompact.Message{good(), {Role: kompact.RoleUser}}); err != nil {
		t.Fatalf("valid messages: %v", err)
	}
	for field, spoil := range map[string]func(m *kompact.Message){
		"messages[1].id":                               func(m *kompact.Message) { m.ID = bad },
		"messages[1].name":                             func(m *kompact.Message) { m.Name = bad },
		"messages[1].content[0].text":                  func(m *kompact.Message) { m.Content[0].Text = bad },
		"messages[1].content[1].think":                 func(m *kompact.Message) { m.Content[1].Think = bad },
		"messages[1].content[1].encrypted":             func(m *kompact.Message) { m.Content[1].Encrypted = &bad },
		"messages[1].content[2].data":                  func(m *kompact.Message) { m.Content[2].Data = []byte("{\"k\":\"\xc3\"}") },
		"messages[1].content[3].url":                   func(m *kompact.Message) { m.Content[3].URL = bad },
		"messages[1].tool_calls[0].function.name":      func(m *kompact.Message) { m.ToolCalls[0].Name = bad },
		"messages[1].tool_calls[0].function.arguments": func(m *kompact.Message) { m.ToolCalls[0].Arguments = &bad },
		"messages[1].tool_calls[0].extras":             func(m *kompact.Message) { m.ToolCalls[0].Extras = []byte("{\"\xed\xa0\x80\":1}") },
		"messages[1].tool_call_id":                     func(m *kompact.Message) { m.ToolCallID = bad },
	} {
		m := good()
		spoil(&m)
		err := kompact.ValidateUTF8([]kompact.Message{good(), m})
		if err == nil || kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), field+" is not valid UTF-8") {
			t.Errorf("%s: got %v", field, err)
		}
	}
}

// TestURLSecrets checks, for each URL, what survives into an error
// (RedactURL: no query string, fragment or user info) and which query
// parameter counts as a credential (SecretQueryParam, "" for none).
func TestURLSecrets(t *testing.T) {
	for _, tc := range []struct{ url, redacted, secret string }{
		{"https://api.moonshot.ai/v1", "https://api.moonshot.ai/v1", ""},
		{"https://api.example.com/v1?api_key=sk-123", "https://api.example.com/v1?REDACTED", "api_key"},
		{"https://api.example.com/v1?x=1#frag", "https://api.example.com/v1?REDACTED", ""},
		{"https://user:pass@api.example.com/v1", "https://REDACTED@api.example.com/v1", ""},
		{"https://u:p@h/v1?k=1", "https://REDACTED@h/v1?REDACTED", ""},
		{"http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/", ""},
		{"not a url ?token=abc", "not a url ?REDACTED", "token"},
		{"https://h/p@q", "https://h/p@q", ""},
		{"https://h/v1?api-version=2024-02-01", "https://h/v1?REDACTED", ""},
		{"https://h/v1?a=1&access_token=t", "https://h/v1?REDACTED", "access_token"},
		{"https://h/v1?Secret=x", "https://h/v1?REDACTED", "Secret"},
		{"https://h/v1?key", "https://h/v1?REDACTED", "key"},
		{"https://h/v1?X-Amz-Signature=abc&a=b", "https://h/v1?REDACTED", "X-Amz-Signature"},
		{"https://h/v1?x=1#token=fragment", "https://h/v1?REDACTED", ""},
		// A password holding an unencoded '@', '#' or '?' (issue 29): no
		// part of it shows.
		{"postgres://app:pw@s3cret@127.0.0.1:5432/db", "postgres://REDACTED@127.0.0.1:5432/db", ""},
		{"postgres://app:pw#s3cret@127.0.0.1/db", "postgres://REDACTED", ""},
		{"postgres://app:pw?s3cret@127.0.0.1/db?sslmode=disable", "postgres://REDACTED", ""},
		{"postgres://h/db?password=pw@s3cret", "postgres://h/db?REDACTED", "password"},
		{"postgres:app:pw@127.0.0.1/db", "REDACTED@127.0.0.1/db", ""},
	} {
		if got := urlsecret.RedactURL(tc.url); got != tc.redacted {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.url, got, tc.redacted)
		}
		if got := urlsecret.SecretQueryParam(tc.url); got != tc.secret {
			t.Errorf("SecretQueryParam(%q) = %q, want %q", tc.url, got, tc.secret)
		}
	}
}
