package integration

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/codexcli"
	"kompact/internal/testing/fakeresponses"
)

// Issue 42 §4: the real Codex CLI 0.171.0 (bash .ci/codex.sh), headless,
// through the gateway's Responses face against the fake Responses server,
// for both provider names.

// codexSummary is what kompact's own compaction model answers
// (apitest.CodexUpstream's summary: the sections the quality gate looks
// for).
const codexSummary = "<current_focus>the Codex test</current_focus>\n<environment>fake</environment>\n<completed_tasks>KOMPACT-CODEX-SUMMARY</completed_tasks>\n" +
	"<active_issues>none</active_issues>\n<code_state>none</code_state>\n<important_context>the first two questions</important_context>"

// timed is a proxy in front of target that times each request, from its
// arrival to the last byte of its answer, by the kind of its body (Codex
// hangs up as soon as it has response.completed, which the proxy takes for
// a failure to copy: the time is taken all the same).
type timed struct {
	URL  string
	mu   sync.Mutex
	took map[fakeresponses.Kind][]time.Duration
}

func newTimed(t *testing.T, target string) *timed {
	u, _ := url.Parse(target)
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(u)
		pr.Out.Host = u.Host
	}, FlushInterval: -1}
	tm := &timed{took: map[fakeresponses.Kind][]time.Duration{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		start := time.Now()
		defer func() {
			tm.mu.Lock()
			k := fakeresponses.KindOf(body)
			tm.took[k] = append(tm.took[k], time.Since(start))
			tm.mu.Unlock()
		}()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tm.URL = srv.URL
	return tm
}

func (tm *timed) of(k fakeresponses.Kind) []time.Duration {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]time.Duration(nil), tm.took[k]...)
}

// codexUsage: the second answer (the turn after the first) reports a full
// window (9000 input tokens, past Codex's 8000 and the precompute's
// 5000), every other little.
func codexUsage(n int, k fakeresponses.Kind) fakeresponses.Usage {
	if n == 1 {
		return fakeresponses.Usage{Input: 9000, Output: 10}
	}
	return fakeresponses.Usage{Input: 300, Output: 10}
}

// responsesTurns is the Responses requests the fake received of kind k.
func responsesTurns(fake *fakeresponses.Server, k fakeresponses.Kind) []fakeresponses.Request {
	var out []fakeresponses.Request
	for _, r := range fake.Requests() {
		if strings.HasSuffix(r.Path, "/responses") && fakeresponses.KindOf(r.Body) == k {
			out = append(out, r)
		}
	}
	return out
}

// codexFirstTurns runs Codex, under provider's name, through the gateway
// over fake (apitest.CodexGateway), behind a timing proxy: its first turn
// (prompt first), which must complete and name its thread, and a resume
// of it (prompt second), which must complete. It returns the gateway, the
// proxy, Codex's home and the two runs.
func codexFirstTurns(t *testing.T, provider string, fake *fakeresponses.Server, first, second string) (*httptest.Server, *timed, string, codexcli.Run, codexcli.Run) {
	t.Helper()
	srv := apitest.CodexGateway(t, fake.URL)
	front := newTimed(t, srv.URL+"/gateway/cx")
	home := codexcli.Home(t, codexcli.Config{Provider: provider, BaseURL: front.URL + "/v1"})
	r1 := codexcli.Exec(t, home, first)
	if !r1.Completed || r1.ThreadID == "" {
		t.Fatalf("turn 1:\n%s", r1)
	}
	r2 := codexcli.Resume(t, home, r1.ThreadID, second)
	if !r2.Completed {
		t.Fatalf("turn 2:\n%s", r2)
	}
	return srv, front, home, r1, r2
}

// compactionKind is the kind of Codex's automatic compaction under
// provider's name: remote (a compaction_trigger) for OpenAI, local (the
// checkpoint turn) for another.
func compactionKind(provider string) fakeresponses.Kind {
	if provider != "OpenAI" {
		return fakeresponses.KindLocalCompaction
	}
	return fakeresponses.KindRemoteCompaction
}

// listedSessions is the ids of the sessions the server at base lists.
func listedSessions(t *testing.T, base string) []string {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions", &list)
	var ids []string
	for _, s := range list.Sessions {
		ids = append(ids, s.ID)
	}
	return ids
}

// TestCodexThroughGateway (issue 42 §4): Codex through
// /gateway/cx/v1/responses, for both provider names: a turn, a second
// turn that fills the window (kompact precomputes its summary), then a
// resume whose automatic compaction (remote: a compaction_trigger, for the
// name OpenAI; local: the checkpoint turn, for another) the gateway
// answers from the precomputed summary with no upstream compaction
// request, and whose turn carries kompact's summary as a message and no
// compaction item, in the thread's one session. The compaction is timed
// through the gateway and straight to the fake.
func TestCodexThroughGateway(t *testing.T) {
	for _, provider := range []string{"OpenAI", "Fake"} {
		t.Run(provider, func(t *testing.T) {
			fake := apitest.CodexUpstream(t, &fakeresponses.Codex{Text: "ok", Usage: codexUsage}, codexSummary)
			srv, front, home, first, _ := codexFirstTurns(t, provider, fake, "First question: what is 2+2?", "Second question: and 3+3?")
			q := fake.Requests()[0]
			if q.Header.Get("Thread-Id") != first.ThreadID || q.Header.Get("Authorization") != "" || q.Header.Get("X-Codex-Turn-Metadata") == "" {
				t.Errorf("the headers that went upstream: %v", q.Header)
			}
			waitCodexPreview(t, srv.URL, first.ThreadID)
			checkContextNotSent(t, fake)
			third := codexcli.Resume(t, home, first.ThreadID, "Third question: and 4+4?")
			if !third.Completed || third.Failed {
				t.Fatalf("turn 3:\n%s", third)
			}
			// One thread, one session: the turn after the answered
			// compaction continues the compacted one.
			for _, id := range listedSessions(t, srv.URL) {
				if id != first.ThreadID {
					t.Errorf("session %s beside the thread's %s", id, first.ThreadID)
				}
			}
			kind := compactionKind(provider)
			answered := front.of(kind)
			if len(answered) != 1 {
				t.Fatalf("%d compaction requests through the gateway, want 1", len(answered))
			}
			if n := len(responsesTurns(fake, kind)); n != 0 {
				t.Errorf("%d compaction requests reached the upstream", n)
			}
			// The revision says what happened: Codex's automatic
			// compaction, by its path, from the precomputed summary.
			var revs struct {
				Revisions []struct{ Kind, Note string } `json:"revisions"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/"+first.ThreadID+"/revisions", &revs)
			note := "(precomputed; Codex, " + map[string]string{"OpenAI": "remote", "Fake": "local"}[provider] + ", auto)"
			if len(revs.Revisions) == 0 || revs.Revisions[0].Kind != "auto_compaction" || !strings.Contains(revs.Revisions[0].Note, note) {
				t.Errorf("the revisions %+v: want the newest an auto_compaction noted %q", revs.Revisions, note)
			}
			turns := responsesTurns(fake, fakeresponses.KindTurn)
			last := turns[len(turns)-1].Body
			if !strings.Contains(string(last), "KOMPACT-CODEX-SUMMARY") || strings.Contains(string(last), `"type":"compaction"`) ||
				fakeresponses.LastUserText(last) != "Third question: and 4+4?" {
				t.Errorf("the turn after the compaction: %.2000s", last)
			}
			// The same compaction straight to the fake, for the note.
			direct := newTimed(t, apitest.CodexUpstream(t, &fakeresponses.Codex{Text: "ok", Usage: codexUsage}, codexSummary).URL)
			dhome := codexcli.Home(t, codexcli.Config{Provider: provider, BaseURL: direct.URL + "/v1"})
			d1 := codexcli.Exec(t, dhome, "First question: what is 2+2?")
			codexcli.Resume(t, dhome, d1.ThreadID, "Second question: and 3+3?")
			codexcli.Resume(t, dhome, d1.ThreadID, "Third question: and 4+4?")
			if len(direct.of(kind)) != 1 {
				t.Fatalf("straight to the fake, %d compaction requests, want 1", len(direct.of(kind)))
			}
			t.Logf("%s compaction: through the gateway (answered from the precomputed summary) %v; straight to the fake %v", provider, answered, direct.of(kind))
		})
	}
}

// checkContextNotSent checks that kompact's own compaction requests (the
// precompute's) hold none of the context Codex opens its thread with (the
// developer messages and the user message holding <environment_context>
// of its first request, read as Codex sent them), its base instructions
// included, and logs their size.
func checkContextNotSent(t *testing.T, fake *fakeresponses.Server) {
	t.Helper()
	var context []string
	var sizes []int
	for _, r := range fake.Requests() {
		if !strings.HasSuffix(r.Path, "/chat/completions") {
			if context == nil {
				context = codexContext(t, r.Body)
			}
			continue
		}
		sizes = append(sizes, len(r.Body))
		var chat struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &chat); err != nil {
			t.Fatalf("a compaction request: %v", err)
		}
		var sent strings.Builder
		for _, m := range chat.Messages {
			var parts []struct{ Text string }
			var text string
			if json.Unmarshal(m.Content, &parts) != nil {
				_ = json.Unmarshal(m.Content, &text)
			}
			for _, p := range parts {
				text += p.Text
			}
			sent.WriteString(text)
		}
		for i, c := range context {
			if strings.Contains(sent.String(), c) {
				t.Errorf("kompact's compaction request holds Codex's context message %d (%d chars)", i+1, len(c))
			}
		}
	}
	if len(context) < 2 || len(sizes) == 0 {
		t.Fatalf("Codex's context %d messages, %d compaction requests: want both", len(context), len(sizes))
	}
	t.Logf("kompact's compaction requests: %v bytes (Codex's context: %d messages)", sizes, len(context))
}

// codexContext is the text of each message Codex's Responses request body
// opens with before the user's own words: developer messages and the user
// message holding <environment_context>.
func codexContext(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Input []struct {
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("Codex's request: %v", err)
	}
	var out []string
	for _, item := range req.Input {
		var text string
		for _, p := range item.Content {
			text += p.Text
		}
		if item.Role != "developer" && !strings.HasPrefix(strings.TrimSpace(text), "<environment_context>") {
			break
		}
		out = append(out, text)
	}
	return out
}

// waitCodexPreview waits for the precomputed summary of session id, as
// waitGatewayPreview does, saying what the sessions are when none comes.
func waitCodexPreview(t *testing.T, base, id string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var list struct {
		Sessions []map[string]any `json:"sessions"`
	}
	for time.Now().Before(deadline) {
		apitest.GetJSON(t, base, "/v1/sessions", &list)
		for _, s := range list.Sessions {
			if n, _ := s["gateway_previews"].(float64); s["id"] == id && n > 0 && s["running"] != true {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no precomputed summary for %s; the sessions: %v", id, list.Sessions)
}
