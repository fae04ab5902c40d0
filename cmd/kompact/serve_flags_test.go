package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testserver"
)

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
	var stderr testserver.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr, getenv: func(k string) string {
		return map[string]string{"HOME": dir}[k]
	}}
	addrc := make(chan net.Addr, 1)
	cmd := &serveCommand{env: e, llm: summaryLLM{}, onListen: func(a net.Addr) { addrc <- a }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		status, _ := cmd.Run(ctx, []string{"--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "k.db"), "--max-preview-bytes", "1000", "--log-format", "json"})
		done <- status
	}()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a.String()
	case status := <-done:
		t.Fatalf("serve ended with %d:\n%s", status, stderr.String())
	}
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
