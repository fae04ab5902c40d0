package httpapi_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
)

// newGuardEnv is newAPIEnv with limits.
func newGuardEnv(t *testing.T, limits httpapi.Limits) *apiEnv {
	t.Helper()
	return newAPIEnv(t, apiOptions{limits: limits})
}

// withHost sends a request with the given Host header.
func (e *apiEnv) withHost(host, method, path string) apiResponse {
	e.t.Helper()
	req, err := http.NewRequest(method, e.base+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
	resp, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return apiResponse{status: resp.StatusCode, header: resp.Header, body: []byte(b.String())}
}

// TestForbiddenHosts: a request for a Host the server does not serve (a
// DNS-rebinding page's name) is 403 forbidden, the page included; the
// listen address, localhost names with its port and --allowed-host names
// are answered (issue 9, item 1).
func TestForbiddenHosts(t *testing.T) {
	e := newGuardEnv(t, httpapi.Limits{AllowedHosts: []string{"kompact.example", "proxy.example:8443"}})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(e.base, "http://"))
	for _, host := range []string{"evil.example", "evil.example:" + port, "localhost:1", "127.0.0.2.evil.example:" + port,
		"proxy.example", "proxy.example:8444", "127.0.0.1:" + port + "0", "[::1]:1"} {
		for _, path := range []string{"/v1/sessions", "/v1/sessions/s", "/"} {
			r := e.withHost(host, "GET", path)
			if path == "/" {
				if r.status != http.StatusForbidden {
					t.Errorf("Host %s GET %s: status %d, want 403", host, path, r.status)
				}
				continue
			}
			wantError(t, r, 403, "forbidden", "does not answer requests for the host")
			if strings.Contains(string(r.body), `"s"`) {
				t.Errorf("Host %s GET %s leaked a session: %s", host, path, r.body)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "[::1]:" + port,
		"kompact.example", "kompact.example:443", "KOMPACT.example.", "proxy.example:8443"} {
		if r := e.withHost(host, "GET", "/v1/sessions"); r.status != 200 {
			t.Errorf("Host %s: status %d, want 200\n%s", host, r.status, r.body)
		}
	}
}

// TestCrossSiteWritesForbidden: a state-changing request whose Origin is
// another site's (or, without Origin, whose Sec-Fetch-Site says
// cross-site) is 403 forbidden and changes nothing; the server's own
// origin and programs without an Origin pass (issue 9, item 1).
func TestCrossSiteWritesForbidden(t *testing.T) {
	e := newGuardEnv(t, httpapi.Limits{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	msg := map[string]any{"message": map[string]any{"role": "user", "content": "hi"}}
	for _, h := range [][]string{
		{"Origin", "http://evil.example"},
		{"Origin", "null"},
		{"Origin", "http://127.0.0.1:1"},
		{"Origin", strings.Replace(e.base, "http://", "http://x", 1)},
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
	} {
		wantError(t, e.do("DELETE", "/v1/sessions/s", nil, h...), 403, "forbidden", "from another site's page")
		wantError(t, e.do("POST", "/v1/sessions/s/messages", msg, h...), 403, "forbidden")
		wantError(t, e.do("POST", "/v1/sessions", apiSession("t", 1), h...), 403, "forbidden")
		wantError(t, e.do("POST", "/v1/sessions/s/revisions/1/restore", nil, h...), 403, "forbidden")
		wantError(t, e.do("PATCH", "/v1/sessions/s/settings", map[string]any{}, h...), 403, "forbidden")
		// Reading stays possible (the browser keeps another site from
		// seeing the answer).
		e.must(200, "GET", "/v1/sessions/s", nil, h...)
	}
	if got := len(e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)); got != 3 {
		t.Fatalf("the session has %d messages after the refused writes, want 3", got)
	}
	e.must(404, "GET", "/v1/sessions/t", nil)
	// The server's own page, and programs.
	e.must(201, "POST", "/v1/sessions/s/messages", msg, "Origin", e.base)
	e.must(201, "POST", "/v1/sessions/s/messages", msg, "Origin", e.base, "Sec-Fetch-Site", "same-origin")
	e.must(201, "POST", "/v1/sessions/s/messages", msg, "Sec-Fetch-Site", "none")
	e.must(204, "DELETE", "/v1/sessions/s", nil)
}

// TestBodiesMustBeJSON: a request body declared as anything but
// application/json (a form's text/plain, urlencoded or multipart) is 415
// unsupported_media_type and changes nothing (issue 9, item 1).
func TestBodiesMustBeJSON(t *testing.T) {
	e := newGuardEnv(t, httpapi.Limits{})
	body := `{"id":"t","messages":[]}`
	for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
		"multipart/form-data; boundary=x", "application/json; charset=latin1", "application/jsonx", ""} {
		hdr := []string{"Content-Type", ct}
		wantError(t, e.do("POST", "/v1/sessions", body, hdr...), 415, "unsupported_media_type", "it must be application/json")
	}
	// An empty form post declares a type, and is refused too.
	wantError(t, e.do("POST", "/v1/sessions/t/revisions/1/restore", "", "Content-Type", "application/x-www-form-urlencoded"),
		415, "unsupported_media_type")
	e.must(404, "GET", "/v1/sessions/t", nil)
	e.must(201, "POST", "/v1/sessions", body, "Content-Type", "application/json; charset=utf-8")
	// No body needs no type.
	e.must(204, "DELETE", "/v1/sessions/t", nil, "Content-Type", "")
}

// TestSessionIDRule: ids outside the rule are 400 invalid_request naming
// the rule, and Location is the percent-encoded path (issue 9, item 2).
func TestSessionIDRule(t *testing.T) {
	e := newGuardEnv(t, httpapi.Limits{})
	for _, id := range []string{".", "..", "a/b", "a b", "a%20b", "é", strings.Repeat("x", 129), strings.Repeat("y", 1<<20)} {
		for _, path := range []string{"/v1/sessions", "/v1/sessions/import"} {
			r := e.do("POST", path, apiSession(id, 1))
			wantError(t, r, 400, "invalid_request", "a session id is 1 to 128 bytes of ASCII letters, digits")
			if len(r.body) > 1000 {
				t.Errorf("the error echoes the id: %d bytes", len(r.body))
			}
		}
	}
	if list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any); len(list) != 0 {
		t.Fatalf("sessions stored: %v", list)
	}
	r := e.do("POST", "/v1/sessions/import", apiSession("2024-01-01T10:00:00.5Z_a-b", 1))
	if r.status != 201 || r.header.Get("Location") != "/v1/sessions/2024-01-01T10:00:00.5Z_a-b" {
		t.Fatalf("status %d, Location %q", r.status, r.header.Get("Location"))
	}
	e.must(201, "POST", "/v1/sessions/import", apiSession(strings.Repeat("z", 128), 1))
}

// TestInvalidUTF8Refused: invalid UTF-8 in any message field, a data part
// included, is 400 on the way in and never stored (issue 9, item 2).
func TestInvalidUTF8Refused(t *testing.T) {
	e := newGuardEnv(t, httpapi.Limits{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	bad := map[string]string{
		"text":      `{"role":"user","content":[{"type":"text","text":"a` + "\xff" + `"}]}`,
		"data":      `{"role":"tool","tool_call_id":"c","content":[{"type":"data","data":{"k":"` + "\xc3" + `"}}]}`,
		"arguments": `{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c","function":{"name":"f","arguments":"` + "\xed\xa0\x80" + `"}}]}`,
		"name":      `{"role":"user","name":"` + "\xfe" + `","content":"x"}`,
	}
	for what, m := range bad {
		wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"message":`+m+`}`), 400, "invalid_request", "not valid UTF-8")
		wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"messages":[`+m+`]}`), 400, "invalid_request", "not valid UTF-8")
		wantError(t, e.do("POST", "/v1/sessions", `{"id":"n-`+what+`","messages":[`+m+`]}`), 400, "invalid_request", "not valid UTF-8")
		wantError(t, e.do("POST", "/v1/sessions/import", `{"id":"i-`+what+`","messages":[`+m+`]}`), 400, "invalid_request", "not valid UTF-8")
	}
	if got := len(e.must(200, "GET", "/v1/sessions/s", nil)["messages"].([]any)); got != 3 {
		t.Fatalf("the session has %d messages, want 3", got)
	}
	if list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any); len(list) != 1 {
		t.Fatalf("sessions: %v", list)
	}
}

// TestCheckToken: serve's tokens are at least 16 characters without
// surrounding white space, and the error says how to make one without
// echoing the token (issue 9, item 2).
func TestCheckToken(t *testing.T) {
	for tok, ok := range map[string]bool{
		"0123456789abcdef":       true,
		strings.Repeat("ab", 32): true,
		"with inner space 0123":  true,
		"short":                  false,
		"0123456789abcde":        false,
		" 0123456789abcdef":      false,
		"0123456789abcdef\n":     false,
		"0123456789abcdef\t":     false,
		"0123456789\x01abcdef":   false,
		"":                       false,
	} {
		err := httpapi.CheckToken(tok)
		if (err == nil) != ok {
			t.Errorf("CheckToken(%q) = %v, want ok=%v", tok, err, ok)
			continue
		}
		if err != nil {
			if fixes := strings.Join(kompactFixes(err), " "); !strings.Contains(fixes, "openssl rand -hex 32") {
				t.Errorf("CheckToken(%q): fixes %q lack openssl rand -hex 32", tok, fixes)
			}
			if strings.TrimSpace(tok) != "" && strings.Contains(err.Error(), strings.TrimSpace(tok)) {
				t.Errorf("CheckToken(%q) echoes the token: %v", tok, err)
			}
		}
	}
}

func kompactFixes(err error) []string { return kompact.ErrorFixes(err) }
