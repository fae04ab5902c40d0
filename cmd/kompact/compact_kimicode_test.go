package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/kcvectors"
	"kompact/internal/testing/testenv"
)

// TestRequestKimiCode: "kompact request --kimi-code SESSION_DIR" prints, byte for byte, the
// body Kimi Code 2.1.0 sent for each recorded compaction (issue 31), its texts read from a
// Kimi Code package folder (KIMI_CODE_PATH) and the context size from the home's
// config.toml; the path of wire.jsonl works too.
func TestRequestKimiCode(t *testing.T) {
	raw := kcvectors.Texts(t)
	environ := map[string]string{"KIMI_CODE_PATH": kcvectors.Package(t, raw)}
	for _, c := range kcvectors.Cases(t) {
		for i, cp := range c.Compactions {
			t.Run(c.Name+"/"+cp.Dir, func(t *testing.T) {
				m := c.Materialize(t, raw, cp.Dir, "http://127.0.0.1:9/v1")
				want := string(m.Untemplate(c.Read(t, raw, cp.Dir+"/compaction_request.json"))) + "\n"
				arg := m.SessionDir
				if i == 0 {
					arg = filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl")
				}
				status, stdout, stderr := runCLI(t, "", environ, "request", "--kimi-code", "--instructions", cp.Instruction, arg)
				if status != exitOK || strings.Contains(stderr, "warning") {
					t.Fatalf("status %d: %s", status, stderr)
				}
				if stdout != want {
					t.Errorf("the request differs from Kimi Code's (%d bytes, want %d)", len(stdout), len(want))
				}
			})
		}
	}
}

// kimiCodeFixture lays out compaction dir of c (its session_before) with a fake LLM that
// answers compaction requests with the recorded summary and the rest with "OK.", and a
// kompact configuration whose agent calls it.
func kimiCodeFixture(t *testing.T, c *kcvectors.Case, dir string, raw map[string]string) (*fakellm.Server, *kcvectors.Materialized, map[string]string) {
	t.Helper()
	var cp = c.Compactions[0]
	for _, x := range c.Compactions {
		if x.Dir == dir {
			cp = x
		}
	}
	srv := fakellm.New(t)
	first := strings.SplitN(raw["compaction-instruction.md"], "\n", 2)[0]
	srv.SetFunc(func(r fakellm.Request) fakellm.Reply {
		msgs := r.Messages()
		if last, _ := msgs[len(msgs)-1]["content"].(string); strings.HasPrefix(last, first) {
			u := cp.SummaryResponse.Usage
			return fakellm.Answer(fakellm.Text(cp.SummaryResponse.Text)).
				WithUsage(fakellm.Usage{PromptTokens: int64(u.PromptTokens), CompletionTokens: int64(u.CompletionTokens)})
		}
		return fakellm.Answer(fakellm.Text("OK.")).WithUsage(fakellm.Usage{PromptTokens: 1000, CompletionTokens: 2})
	})
	m := c.Materialize(t, raw, dir, srv.URL())
	cfg := filepath.Join(t.TempDir(), "agents.yaml")
	doc := "default_agent: kc\nagents:\n  kc:\n    llm:\n      base_url: " + srv.URL() + "\n      model: mock-model\n    compaction:\n      enabled: true\n"
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, m, map[string]string{"KIMI_CODE_PATH": kcvectors.Package(t, raw), "KOMPACT_CONFIG": cfg}
}

// caseNamed is the recorded case called name.
func caseNamed(t *testing.T, name string) *kcvectors.Case {
	for _, c := range kcvectors.Cases(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return nil
}

// TestCompactKimiCode: "kompact compact --kimi-code" sends Kimi Code's request to the
// agent's LLM and appends the six records Kimi Code appends, keeping every byte that was
// there; the summary record is Kimi Code's (the footer names the real wire.jsonl and its
// line windows). A failed call changes nothing on disk.
func TestCompactKimiCode(t *testing.T) {
	raw := kcvectors.Texts(t)
	for _, name := range []string{"manual_tools_instruction", "long_cjk_auto"} {
		t.Run(name, func(t *testing.T) {
			c := caseNamed(t, name)
			cp := c.Compactions[0]
			srv, m, environ := kimiCodeFixture(t, c, cp.Dir, raw)
			wire := filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl")
			before := mustRead(t, wire)
			status, stdout, stderr := runCLI(t, "", environ, "compact", "--kimi-code", "--instructions", cp.Instruction, m.SessionDir)
			if status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			if !strings.Contains(stdout, "6 records appended") || !strings.Contains(stdout, "artifacts kept: ") {
				t.Errorf("report: %s", stdout)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || !bytes.Equal(reqs[0].Body, m.Untemplate(c.Read(t, raw, cp.Dir+"/compaction_request.json"))) {
				t.Fatalf("%d requests; the first is not Kimi Code's", len(reqs))
			}
			after := mustRead(t, wire)
			if !strings.HasPrefix(after, before) {
				t.Fatal("the records were not appended to what was there")
			}
			got := strings.Split(strings.TrimSpace(after[len(before):]), "\n")
			// kompact's compaction is a manual one, whatever started Kimi Code's.
			recorded := strings.Replace(string(m.Untemplate(c.Read(t, raw, cp.Dir+"/appended.jsonl"))), `"source":"auto"`, `"source":"manual"`, 1)
			want := strings.Split(strings.TrimSpace(recorded), "\n")
			compareRecords(t, got, want)
		})
	}
	t.Run("failure changes nothing", func(t *testing.T) {
		c := caseNamed(t, "manual_tools_instruction")
		srv, m, environ := kimiCodeFixture(t, c, "compaction_1", raw)
		srv.SetFunc(func(fakellm.Request) fakellm.Reply { return fakellm.Fail(400, "bad request") })
		wire := filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl")
		before := mustRead(t, wire)
		if status, _, stderr := runCLI(t, "", environ, "compact", "--kimi-code", m.SessionDir); status != exitError {
			t.Fatalf("status %d: %s", status, stderr)
		}
		if mustRead(t, wire) != before {
			t.Fatal("a failed compaction changed wire.jsonl")
		}
		if status, stdout, _ := runCLI(t, "", environ, "compact", "--kimi-code", "--dry-run", m.SessionDir); status != exitOK ||
			!strings.Contains(stdout, "dry run") || mustRead(t, wire) != before {
			t.Fatalf("--dry-run: status %d, %q", status, stdout)
		}
		for _, flag := range [][]string{{"--auto"}, {"--up-to", "m1"}, {"--model", "x"}, {"-o", "out.jsonl"}, {"--kimi"}} {
			args := append(append([]string{"compact", "--kimi-code"}, flag...), m.SessionDir)
			if status, _, stderr := runCLI(t, "", environ, args...); status != exitUsage || mustRead(t, wire) != before {
				t.Errorf("%v: status %d (%s), want a usage error and nothing written", flag, status, stderr)
			}
		}
	})
}

// compareRecords compares appended records field for field, but their times and the token
// estimates (which count the characters of the session's paths: kimicode's
// TestRecordVectors checks them with the recording's).
func compareRecords(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records appended, Kimi Code %d", len(got), len(want))
	}
	skip := map[string]bool{"time": true, "tokensBefore": true, "tokensAfter": true, "summaryOutputTokens": true, "tokens": true}
	for i := range want {
		var g, w map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got[i]), &g); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal([]byte(want[i]), &w)
		if len(g) != len(w) {
			t.Errorf("record %d has %d fields, Kimi Code's %d", i, len(g), len(w))
		}
		for k, v := range w {
			if !skip[k] && !bytes.Equal(g[k], v) {
				t.Errorf("record %d %s: %.200s, Kimi Code %.200s", i, k, g[k], v)
			}
		}
	}
}

// TestKimiCodeResumesKompactCompaction is issue 31's proof: real Kimi Code 2.1.0 resumes a
// session kompact compacted (kimi -p PROMPT -r SESSION_ID) and sends the request it sent
// after its own /compact, value for value, kompact's compaction request being the one Kimi
// Code sent (byte for byte: with shell commands, their results as Kimi Code renders them); its max_tokens is the window less the
// tokensAfter kompact wrote, as Kimi Code computes it from its own record.
func TestKimiCodeResumesKompactCompaction(t *testing.T) {
	testenv.Require(t, os.Getenv("KIMI_CODE_BIN") != "", "KIMI_CODE_BIN is not set", "install Kimi Code 2.1.0 (bash .ci/kimi-code.sh) and set KIMI_CODE_BIN to its kimi launcher")
	raw := kcvectors.Texts(t)
	for _, tc := range []struct{ name, dir string }{
		{"manual_tools_instruction", "compaction_1"}, {"todos_two_manual", "compaction_1"}, {"todos_two_manual", "compaction_2"},
		// Shell commands (issue 39 §3): Bash results carry their wall time.
		{"shell_manual", "compaction_1"},
	} {
		t.Run(tc.name+"/"+tc.dir, func(t *testing.T) {
			c := caseNamed(t, tc.name)
			var instruction, next string
			for _, cp := range c.Compactions {
				if cp.Dir == tc.dir {
					instruction, next = cp.Instruction, cp.NextPrompt
				}
			}
			srv, m, environ := kimiCodeFixture(t, c, tc.dir, raw)
			if status, _, stderr := runCLI(t, "", environ, "compact", "--kimi-code", "--instructions", instruction, m.SessionDir); status != exitOK {
				t.Fatalf("compact: %s", stderr)
			}
			if reqs := srv.Requests(); len(reqs) != 1 || !bytes.Equal(reqs[0].Body, m.Untemplate(c.Read(t, raw, tc.dir+"/compaction_request.json"))) {
				t.Fatalf("%d requests; kompact's compaction request is not Kimi Code's", len(reqs))
			}
			got := resumeKimiCode(t, srv, m.Home, m.Work, m.SessionID, next)
			var want map[string]any
			_ = json.Unmarshal(m.Untemplate(c.Read(t, raw, tc.dir+"/after_request.json")), &want)
			if got["messages"] == nil || want["messages"] == nil {
				t.Fatalf("no messages: got %v", got)
			}
			tokensAfter := appliedTokensAfter(t, filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl"))
			if got["max_tokens"] != float64(c.MaxContextSize-tokensAfter) {
				t.Errorf("max_tokens %v, want %d - %d", got["max_tokens"], c.MaxContextSize, tokensAfter)
			}
			delete(got, "max_tokens")
			delete(want, "max_tokens")
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if !bytes.Equal(g, w) {
				t.Errorf("Kimi Code's next request differs from the one after its own compaction:\n got %.2000s\nwant %.2000s", tail(g), tail(w))
			}
		})
	}
}

// appliedTokensAfter is tokensAfter of the last context.apply_compaction of a wire.jsonl.
func appliedTokensAfter(t *testing.T, wire string) int {
	n := 0
	for _, line := range strings.Split(mustRead(t, wire), "\n") {
		var r struct {
			Type        string `json:"type"`
			TokensAfter int    `json:"tokensAfter"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Type == "context.apply_compaction" {
			n = r.TokensAfter
		}
	}
	return n
}

// tail is the last 2000 bytes of b, where the messages of a request end.
func tail(b []byte) []byte {
	return b[max(0, len(b)-2000):]
}

// TestSessionsImportKimiCode (issue 31 §2): "sessions import --kimi-code SESSION_DIR" makes
// a Kimi Code session a kompact session on the server: its system prompt first, then its
// context as Kimi Code folds it (an earlier compaction's rebuilt context included), with the
// Kimi Code session's id, or --id's.
func TestSessionsImportKimiCode(t *testing.T) {
	raw := kcvectors.Texts(t)
	ts := sessionsServer(t)
	environ := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok", "KIMI_CODE_PATH": kcvectors.Package(t, raw)}
	c := caseNamed(t, "todos_two_manual")
	m := c.Materialize(t, raw, "compaction_2", "http://127.0.0.1:9/v1")
	status, stdout, stderr := runCLI(t, "", environ, "sessions", "import", "--kimi-code", "--agent", "kimi", m.SessionDir)
	// The system prompt, then the rebuilt context of the first compaction (the kept user
	// message, the summary, the continuation note) and the second prompt's turn.
	if status != exitOK || !strings.Contains(stdout, "imported session "+m.SessionID+" (agent kimi, ") {
		t.Fatalf("import: %d %q %s", status, stdout, stderr)
	}
	status, stdout, stderr = runCLI(t, "", environ, "sessions", "export", m.SessionID)
	var doc struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if status != exitOK || json.Unmarshal([]byte(stdout), &doc) != nil {
		t.Fatalf("export: %d %s", status, stderr)
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(m.Untemplate(c.Read(t, raw, "compaction_2/compaction_request.json")), &req)
	// Kimi Code's request: the same messages, and its instruction last.
	if len(doc.Messages) != len(req.Messages)-1 {
		t.Fatalf("%d messages imported, Kimi Code's request has %d before its instruction", len(doc.Messages), len(req.Messages)-1)
	}
	for i, msg := range doc.Messages {
		if string(req.Messages[i].Content) == "null" { // a tool call alone: no text
			if msg.Role != "assistant" || string(msg.Content) != "[]" {
				t.Errorf("message %d: %s %s, want an assistant without text", i, msg.Role, msg.Content)
			}
			continue
		}
		if msg.Role != req.Messages[i].Role || !strings.Contains(string(msg.Content), strings.Trim(string(req.Messages[i].Content), `"`)[:min(40, len(req.Messages[i].Content)-2)]) {
			t.Errorf("message %d: %s %.80s, Kimi Code's %s %.80s", i, msg.Role, msg.Content, req.Messages[i].Role, req.Messages[i].Content)
		}
	}
	for _, args := range [][]string{{"--kimi-code", "-o", "-"}, {"--cwd", "/tmp"}, {"--kimi-code", "--kimi"}} {
		if status, _, _ := runCLI(t, "", environ, append(append([]string{"sessions", "export"}, args...), m.SessionID)...); status != exitUsage {
			t.Errorf("export %v: status %d, want a usage error", args, status)
		}
	}
}
