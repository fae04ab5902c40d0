package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testserver"
	"kompact/internal/testing/vectors"
	"kompact/kimicli"
	"kompact/openai"
)

// kimiServer serves the API over store with the agents of cfgPath, its LLM
// calls going out as kompact serve's do, and kimi-cli files read as serve
// reads them.
func kimiServer(t *testing.T, store kompact.Store, cfgPath string, environ map[string]string) *httptest.Server {
	t.Helper()
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return environ[k] }
	srv := httpapi.New(httpapi.Config{Store: store, Agents: cfg, LLM: &openai.Client{Getenv: getenv},
		Prompt: (&kimicli.Finder{Getenv: getenv}).AgentPrompt, KimiContext: kimicli.ImportContext, Token: "tok"})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, url, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
		t.Fatalf("POST %s: %s %s", url, resp.Status, b)
	}
	return out
}

// TestServiceKimiCompactionIsCompactKimi: kimi-cli's example session,
// imported into the service (sessions import --kimi), compacted there
// (the API's action, and the same through a preview applied) and exported
// (sessions export --kimi), is byte for byte what compact --kimi writes
// for the same answer, which is kimi-cli's own file; the request the LLM
// gets from the service is the one compact --kimi sends. Untouched, and
// after a restore of the compaction's revision, it exports as the file
// imported. With both stores.
func TestServiceKimiCompactionIsCompactKimi(t *testing.T) {
	example := filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example")
	before := mustRead(t, filepath.Join(example, "before.context.jsonl"))
	after := mustRead(t, filepath.Join(example, "after.context.jsonl"))
	answer := func() fakellm.Reply {
		return fakellm.Answer(fakellm.Text("<current_focus>\nDemo.\n</current_focus>")).
			WithUsage(fakellm.Usage{PromptTokens: 500, CompletionTokens: 12})
	}
	srv, cfg, _ := compactFixture(t, "")
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}
	dir := t.TempDir()
	path := filepath.Join(dir, "context.jsonl")
	os.WriteFile(path, []byte(before), 0o644)
	srv.Enqueue(answer())
	out := filepath.Join(dir, "compacted.jsonl")
	if status, _, stderr := runCompact(t, environ, "--config", cfg, "--kimi", path, "-o", out); status != exitOK {
		t.Fatalf("compact --kimi: %d %s", status, stderr)
	}
	if got := mustRead(t, out); got != after {
		t.Fatalf("compact --kimi wrote:\n%s", got)
	}
	wantRequest := string(srv.Requests()[0].Body)

	for name, open := range testserver.Stores() {
		t.Run(name, func(t *testing.T) {
			ts := kimiServer(t, open(t), cfg, environ)
			cli := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
			export := func(id string) string {
				t.Helper()
				o := filepath.Join(t.TempDir(), "exported.jsonl")
				if status, _, stderr := runCLI(t, "", cli, "sessions", "export", "--kimi", id, "-o", o); status != exitOK {
					t.Fatalf("export: %d %s", status, stderr)
				}
				return mustRead(t, o)
			}
			for i, preview := range []bool{false, true} {
				id := "kimi" + string(rune('a'+i))
				if status, stdout, stderr := runCLI(t, "", cli, "sessions", "import", "--kimi", "--id", id, path); status != exitOK {
					t.Fatalf("import: %d %s %s", status, stdout, stderr)
				}
				if got := export(id); got != before {
					t.Fatalf("untouched export:\n%s\nwant:\n%s", got, before)
				}
				n := len(srv.Requests())
				srv.Enqueue(answer())
				action := ts.URL + "/v1/sessions/" + id + "/actions/compact_conversation"
				if preview {
					pv := post(t, action, `{"preview": true}`)
					post(t, ts.URL+"/v1/sessions/"+id+"/previews/"+pv["preview_id"].(string)+"/apply", `{}`)
				} else {
					post(t, action, `{}`)
				}
				if got := string(srv.Requests()[n].Body); got != wantRequest {
					t.Fatalf("the service's request differs from compact --kimi's (%d and %d bytes)", len(got), len(wantRequest))
				}
				if got := export(id); got != after {
					t.Fatalf("preview %v: exported after the compaction:\n%s\nwant:\n%s", preview, got, after)
				}
			}
			// Restoring the compaction's revision gives the file back.
			post(t, ts.URL+"/v1/sessions/kimia/revisions/1/restore", ``)
			if got := export("kimia"); got != before {
				t.Fatalf("after the restore:\n%s", got)
			}
			post(t, ts.URL+"/v1/sessions/kimib/revisions/1/undo", ``)
			if got := export("kimib"); got != before {
				t.Fatalf("after the undo:\n%s", got)
			}
		})
	}
}

// vectorReply is the fake LLM's answer of vector v's scripted stream.
func vectorReply(v *vectors.Vector) fakellm.Reply {
	var items []fakellm.Item
	for i, it := range v.LLM.Stream {
		switch it.Type {
		case "text":
			items = append(items, fakellm.Text(it.Text))
		case "think":
			items = append(items, fakellm.Think(it.Think))
		case "tool_call":
			items = append(items, fakellm.Call(i, it.ID, it.Name, it.Arguments))
		}
	}
	r := fakellm.Answer(items...)
	if u := v.LLM.Usage; u != nil {
		r = r.WithUsage(fakellm.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, CachedTokens: u.CachedTokens})
	}
	return r
}

// TestServiceKimiVectors: for every vector that compacts, a kimi-cli file
// of its input imported into the service exports as the file (untouched),
// and compacted there with the vector's answer it exports as compact
// --kimi writes it, after the same request.
func TestServiceKimiVectors(t *testing.T) {
	n := 0
	for _, v := range vectors.Load(t) {
		if v.Expected.Outcome != "compact" || v.Expected.ContextRestoreLossy != nil || v.Params.MaxPreserved <= 0 {
			continue
		}
		n++
		t.Run(v.Name(), func(t *testing.T) {
			in := v.Session(t)
			sp := "You are Kimi Code CLI."
			file := string(kimicli.CompactedFile(&sp, in.Messages, 4321))
			srv, cfg, _ := compactFixture(t, "      max_preserved_messages: "+strconv.Itoa(v.Params.MaxPreserved)+"\n")
			environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}
			dir := t.TempDir()
			path, out := filepath.Join(dir, "context.jsonl"), filepath.Join(dir, "compacted.jsonl")
			os.WriteFile(path, []byte(file), 0o644)
			srv.Enqueue(vectorReply(v))
			args := []string{"--config", cfg, "--kimi", path, "-o", out}
			body := `{}`
			if v.Params.CustomInstruction != "" {
				args = append(args, "--instructions", v.Params.CustomInstruction)
				b, _ := json.Marshal(map[string]string{"instructions": v.Params.CustomInstruction})
				body = string(b)
			}
			if status, _, stderr := runCompact(t, environ, args...); status != exitOK {
				t.Fatalf("compact --kimi: %d %s", status, stderr)
			}
			want := mustRead(t, out)
			ts := kimiServer(t, testserver.SQLite(t), cfg, environ)
			cli := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
			if status, _, stderr := runCLI(t, "", cli, "sessions", "import", "--kimi", "--id", "v", path); status != exitOK {
				t.Fatalf("import: %d %s", status, stderr)
			}
			export := filepath.Join(dir, "exported.jsonl")
			if status, _, stderr := runCLI(t, "", cli, "sessions", "export", "--kimi", "v", "-o", export); status != exitOK || mustRead(t, export) != file {
				t.Fatalf("untouched export: %d %s\n%s", status, stderr, mustRead(t, export))
			}
			srv.Enqueue(vectorReply(v))
			post(t, ts.URL+"/v1/sessions/v/actions/compact_conversation", body)
			reqs := srv.Requests()
			if a, b := string(reqs[0].Body), string(reqs[1].Body); a != b {
				t.Fatalf("the service's request differs from compact --kimi's (%d and %d bytes)", len(b), len(a))
			}
			if status, _, stderr := runCLI(t, "", cli, "sessions", "export", "--kimi", "v", "-o", export); status != exitOK {
				t.Fatalf("export: %d %s", status, stderr)
			}
			if got := mustRead(t, export); got != want {
				t.Fatalf("exported after the compaction:\n%s\nwant (compact --kimi):\n%s", got, want)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d vectors compact", n)
	}
}

// TestSessionsKimiImportExport brings kimi-cli's example session into the
// store and writes it back: the file comes back byte for byte, its
// metadata lines included (issue 19 §2), but for the line that could not
// be read, which the import names.
func TestSessionsKimiImportExport(t *testing.T) {
	before := mustRead(t, filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example", "before.context.jsonl"))
	ts := sessionsServer(t)
	environ := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
	path := filepath.Join(t.TempDir(), "context.jsonl")
	os.WriteFile(path, []byte(before+"{broken\n"), 0o644)
	status, stdout, stderr := runCLI(t, "", environ, "sessions", "import", "--kimi", path)
	if status != exitOK || !strings.Contains(stderr, "line 12: not valid JSON") {
		t.Fatalf("import: %d %q %s", status, stdout, stderr)
	}
	id := strings.Fields(stdout)[2]
	out := filepath.Join(t.TempDir(), "exported.jsonl")
	if status, _, stderr := runCLI(t, "", environ, "sessions", "export", "--kimi", id, "-o", out); status != exitOK {
		t.Fatalf("export: %d %s", status, stderr)
	}
	if got := mustRead(t, out); got != before {
		t.Fatalf("exported:\n%s\nwant:\n%s", got, before)
	}
	if status, _, _ := runCLI(t, "", environ, "sessions", "list", "--kimi"); status != exitUsage {
		t.Errorf("--kimi with list: status %d", status)
	}
}
