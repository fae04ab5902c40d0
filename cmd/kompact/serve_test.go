package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/testserver"
)

func TestServeRefusesAnOpenAddressWithoutAToken(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "example.com:8484"} {
		status, _, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, "serve", "--addr", addr, "--db", filepath.Join(t.TempDir(), "k.db"))
		if status != exitUsage || !strings.Contains(stderr, "refusing to serve "+addr+" without a token") || !strings.Contains(stderr, "fix: Pass --token") {
			t.Errorf("%s: status %d\n%s", addr, status, stderr)
		}
	}
	status, _, stderr := runCLI(t, "", nil, "serve", "--addr", "nonsense")
	if status != exitUsage || !strings.Contains(stderr, "not a host:port address") {
		t.Errorf("bad addr: %d %s", status, stderr)
	}
	status, _, stderr = runCLI(t, "", nil, "serve", "extra")
	if status != exitUsage || !strings.Contains(stderr, "serve takes no arguments") {
		t.Errorf("extra argument: %d %s", status, stderr)
	}
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "localhost:1": true, "[::1]:1": true, "127.9.9.9:1": true,
		"10.0.0.1:1": false, ":1": false, "0.0.0.0:1": false, "host:1": false} {
		if got, err := isLoopback(addr); err != nil || got != want {
			t.Errorf("isLoopback(%s) = %v, %v", addr, got, err)
		}
	}
}

// summaryLLM answers every call with a fixed summary.
type summaryLLM struct{}

func (summaryLLM) Complete(context.Context, kompact.RequestConfig, []kompact.Message, func(kompact.Progress)) (kompact.Answer, error) {
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart("summary")}}, nil
}

// TestServeLimitFlags: --max-preview-bytes must be more than 0 and
// --log-format text or json.
func TestServeLimitFlags(t *testing.T) {
	checkServeRejects(t, [][]string{
		{"--max-preview-bytes", "0"},
		{"--log-format", "xml"},
	})
}

// checkServeRejects runs `kompact serve` with each of flags: it must exit
// with a usage error that names the flag (the first word).
func checkServeRejects(t *testing.T, flags [][]string) {
	t.Helper()
	for _, args := range flags {
		all := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "k.db")}, args...)
		status, _, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, all...)
		if status != exitUsage || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v: status %d\n%s", args, status, stderr)
		}
	}
}

// TestServeMaxPreviewBytesAndJSONLogs: the server applies
// --max-preview-bytes (a preview larger than it is 413 too_large) and
// --log-format json (JSON lines, each request's with its request id).
func TestServeMaxPreviewBytesAndJSONLogs(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, &serveCommand{llm: summaryLLM{}}, map[string]string{"HOME": dir},
		"--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "k.db"), "--max-preview-bytes", "1000", "--log-format", "json")
	base, stderr := srv.url(), srv.stderr
	post := func(path, body string) *http.Response {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	long := strings.Repeat("x", 2000)
	if r := post("/v1/sessions/import", `{"id":"s","messages":[{"role":"user","content":"`+long+`"},{"role":"assistant","content":"a"},{"role":"user","content":"b"},{"role":"assistant","content":"c"}]}`); r.StatusCode != 201 {
		t.Fatalf("import: %d", r.StatusCode)
	}
	r := post("/v1/sessions/s/actions/compact_conversation", `{"preview": true}`)
	if r.StatusCode != 413 {
		t.Fatalf("a preview over --max-preview-bytes: %d", r.StatusCode)
	}
	id := r.Header.Get("X-Request-Id")
	found := false
	for _, line := range strings.Split(stderr.String(), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["request_id"] == id && m["msg"] == "request" && m["status"] == 413.0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no JSON log line for request %s:\n%s", id, stderr.String())
	}
}

// The README states the serve token's minimum length as the code has it,
// and its serve synopsis lists every flag serve takes (issue 19 §4).
func TestReadmeServeSynopsisAndToken(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(data)), " ")
	if want := fmt.Sprintf("at least %d characters", httpapi.MinTokenLen); !strings.Contains(readme, want) {
		t.Errorf("the README does not say the token has %q", want)
	}
	for _, f := range strings.Fields(serveSynopsis)[1:] {
		if !strings.Contains(readme, f) {
			t.Errorf("the README's serve synopsis lacks %s", f)
		}
	}
}

func TestServeServesAndStops(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "data", "k.db")
	srv := startServe(t, &serveCommand{}, map[string]string{"KOMPACT_TOKEN": "tok-0123456789abcdef", "HOME": dir}, "--addr", "127.0.0.1:0", "--db", db)
	stderr := srv.stderr
	// The path names no file yet: the banner says the database is new.
	if want := "kompact serving http://" + srv.addr.String() + " (data: " + db + ", a new database)\n"; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	// The built-in agents read MOONSHOT_API_KEY, unset here: one warning.
	if n := strings.Count(stderr.String(), "warning: MOONSHOT_API_KEY is not set: agent(s) "); n != 1 || !strings.Contains(stderr.String(), "set it and restart") {
		t.Errorf("%d key warnings in %q", n, stderr.String())
	}
	get := func(token string) int {
		req, _ := http.NewRequest("GET", srv.url()+"/v1/health", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get(""); s != 401 {
		t.Errorf("without the token from $KOMPACT_TOKEN: %d", s)
	}
	if s := get("tok-0123456789abcdef"); s != 200 {
		t.Errorf("with the token: %d", s)
	}
	status, stopped := srv.stop(t)
	if !stopped {
		t.FailNow()
	}
	if status != exitOK {
		t.Errorf("status %d after the shutdown", status)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("no database: %v", err)
	}
	if logs := stderr.String(); !strings.Contains(logs, "path=/v1/health status=200") || strings.Contains(logs, "tok\"") || strings.Contains(logs, "Bearer") {
		t.Errorf("log:\n%s", logs)
	}
	// Started again on the same file, the database is not new.
	again := startServe(t, &serveCommand{}, map[string]string{"KOMPACT_TOKEN": "tok-0123456789abcdef", "HOME": dir}, "--addr", "127.0.0.1:0", "--db", db)
	if want := "kompact serving http://" + again.addr.String() + " (data: " + db + ")\n"; !strings.HasPrefix(again.stderr.String(), want) {
		t.Errorf("second start: stderr %q, want %q", again.stderr.String(), want)
	}
}

// serving is a `kompact serve` running in-process (startServe).
type serving struct {
	addr   net.Addr
	stderr *testserver.Buffer // what it wrote to stderr
	cancel context.CancelFunc
	done   chan int // its exit status

	once    sync.Once
	status  int
	stopped bool
}

// startServe runs cmd, `kompact serve ARGS`, in-process (it sets cmd's env:
// getenv answers from environ, stdout is discarded) until it listens; a
// serve that ends before is fatal. The test's end stops it.
func startServe(t *testing.T, cmd *serveCommand, environ map[string]string, args ...string) *serving {
	t.Helper()
	s := &serving{stderr: &testserver.Buffer{}, done: make(chan int, 1)}
	cmd.env = &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: s.stderr, getenv: func(k string) string { return environ[k] }}
	addrc := make(chan net.Addr, 1)
	cmd.onListen = func(a net.Addr) { addrc <- a }
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() {
		status, err := cmd.Run(ctx, args)
		if err != nil {
			t.Errorf("serve: %v", err)
		}
		s.done <- status
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case s.addr = <-addrc:
	case status := <-s.done:
		s.once.Do(func() { s.status, s.stopped = status, true })
		t.Fatalf("serve ended with %d:\n%s", status, s.stderr.String())
	}
	return s
}

// url is the server's base URL.
func (s *serving) url() string { return "http://" + s.addr.String() }

// stop ends the server and returns its exit status; stopped is false, and
// the test has failed, when it did not stop within 10 s.
func (s *serving) stop(t *testing.T) (status int, stopped bool) {
	t.Helper()
	s.once.Do(func() {
		s.cancel()
		select {
		case s.status = <-s.done:
			s.stopped = true
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	})
	return s.status, s.stopped
}
