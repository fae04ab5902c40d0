package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/codexcli"
	"kompact/internal/testing/fakeresponses"
)

// compactSummary is what kompact's own compaction model answers in these
// tests (the sections the quality gate looks for).
const compactSummary = "<current_focus>the Codex test</current_focus>\n<environment>fake</environment>\n<completed_tasks>KOMPACT-NOW-SUMMARY</completed_tasks>\n" +
	"<active_issues>none</active_issues>\n<code_state>none</code_state>\n<important_context>the questions</important_context>"

// compactingUpstream is a fake at the agent's llm.base_url: Codex's
// Responses requests answered by c, kompact's own compaction
// (chat/completions) by summarise.
func compactingUpstream(t *testing.T, c *fakeresponses.Codex, summarise func() fakeresponses.Answer) *fakeresponses.Server {
	return fakeresponses.New(t, func(r fakeresponses.Request) fakeresponses.Answer {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			return summarise()
		}
		return c.Answer(r)
	})
}

// summaryStream is a chat-completions stream of one text, with usage.
func summaryStream() fakeresponses.Answer {
	b, _ := json.Marshal(compactSummary)
	head := `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"compact-model",`
	return fakeresponses.Answer{Events: []string{
		"data: " + head + `"choices":[{"index":0,"delta":{"role":"assistant","content":` + string(b) + `}}]}` + "\n\n",
		"data: " + head + `"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n",
		"data: " + head + `"choices":[],"usage":{"prompt_tokens":500,"completion_tokens":50,"total_tokens":550}}` + "\n\n",
		"data: [DONE]\n\n",
	}}
}

// codexCompactGateway is the gateway's compaction settings for these
// tests: kompact compacts with compact-model, no precompute ever starts
// (the fake reports 100 tokens of a 20,000 window).
const codexCompactGateway = `, compaction: wait}
    compaction: {enabled: true, type: kimi, compaction_model: compact-model, max_preserved_messages: 2, timeout: 5s`

// codexHistory is n Codex exchanges (synthetic texts) as Responses input
// items, ending with the model's answer.
func codexHistory(n int) []string {
	items := []string{`{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are a test agent."}]}`}
	for i := range n {
		items = append(items,
			fmt.Sprintf(`{"type":"message","role":"user","content":[{"type":"input_text","text":"Question %d about the parser."}]}`, i),
			fmt.Sprintf(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Answer %d: the parser reads tokens."}]}`, i))
	}
	return items
}

func responsesBody(items []string) string {
	return `{"model":"fake-model","stream":true,"input":[` + strings.Join(items, ",") + `],"tools":[{"type":"function","name":"exec_command"}],"store":false}`
}

// compactionHeaders are Codex's headers of its automatic compaction.
func compactionHeaders() http.Header {
	h := codexHeaders()
	h.Set("X-Codex-Turn-Metadata", `{"thread_id":"th-1","request_kind":"compaction","compaction":{"trigger":"auto","implementation":"responses_compaction_v2","phase":"pre_turn"}}`)
	return h
}

// revisions is session id's revision list on /v1.
func revisions(t *testing.T, base, id string) []map[string]any {
	t.Helper()
	resp, err := http.Get(base + "/v1/sessions/" + id + "/revisions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Revisions []map[string]any `json:"revisions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("revisions: %d %v", resp.StatusCode, err)
	}
	return out.Revisions
}

// TestResponsesCompactionCompactedNow (issue 42 §3): Codex's remote
// compaction with no precomputed summary is not forwarded (an upstream
// that is not OpenAI's cannot serve a compaction_trigger): the gateway
// compacts the session now and answers with one compaction item; the
// revision says it was Codex's automatic remote compaction, made now.
func TestResponsesCompactionCompactedNow(t *testing.T) {
	fake := compactingUpstream(t, &fakeresponses.Codex{}, summaryStream)
	srv := responsesServer(t, fake, codexCompactGateway)
	hist := codexHistory(4)
	if resp, got, err := postResponses(t, srv.URL, "", responsesBody(hist[:len(hist)-1]), codexHeaders()); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the turn: %v %s", err, got)
	}
	body := responsesBody(append(hist, `{"type":"compaction_trigger"}`))
	start := time.Now()
	resp, got, err := postResponses(t, srv.URL, "", body, compactionHeaders())
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the compaction: %v %s", err, got)
	}
	t.Logf("the compaction answered on the spot (kompact's compaction against the fake) in %v", time.Since(start))
	if f := resp.Header.Get("X-Kompact-Forwarded"); f != "answered" {
		t.Fatalf("X-Kompact-Forwarded: %q, want answered (compacted now); the answer: %s", f, got)
	}
	if !strings.Contains(got, `"type":"compaction"`) || !strings.Contains(got, "response.completed") {
		t.Errorf("the answer has no compaction item and completion: %s", got)
	}
	for _, q := range fake.Requests() {
		if fakeresponses.KindOf(q.Body) == fakeresponses.KindRemoteCompaction {
			t.Errorf("the compaction_trigger went upstream: %s", q.Body)
		}
	}
	revs := revisions(t, srv.URL, "th-1")
	if len(revs) == 0 || revs[0]["kind"] != "auto_compaction" || !strings.Contains(revs[0]["note"].(string), "(compacted now; Codex, remote, auto)") {
		t.Errorf("the revision: %v", revs)
	}
}

// TestResponsesCompactionNowFails (issue 42 §3): when the compaction made
// now fails, Codex's request goes upstream as it came (X-Kompact-
// Forwarded: as-sent) and the session has no new revision.
func TestResponsesCompactionNowFails(t *testing.T) {
	fake := compactingUpstream(t, &fakeresponses.Codex{}, func() fakeresponses.Answer {
		return fakeresponses.Error(500, "server_error", "down")
	})
	srv := responsesServer(t, fake, codexCompactGateway)
	hist := codexHistory(4)
	if resp, got, err := postResponses(t, srv.URL, "", responsesBody(hist[:len(hist)-1]), codexHeaders()); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the turn: %v %s", err, got)
	}
	body := responsesBody(append(hist, `{"type":"compaction_trigger"}`))
	resp, got, err := postResponses(t, srv.URL, "", body, compactionHeaders())
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "as-sent" {
		t.Fatalf("the compaction: %v %v %s", err, resp.Header, got)
	}
	reqs := fake.Requests()
	if last := reqs[len(reqs)-1]; string(last.Body) != body {
		t.Errorf("forwarded:\n%s\nwant as sent\n%s", last.Body, body)
	}
	for _, r := range revisions(t, srv.URL, "th-1") {
		if r["kind"] == "auto_compaction" || r["kind"] == "compaction" {
			t.Errorf("a failed compaction left a revision: %v", r)
		}
	}
}

// TestResponsesLocalCompactionCompactedNow (issue 42 §3): Codex's local
// compaction (the checkpoint turn, read from the installed Codex) that a
// person asked for (/compact: trigger manual), with no precomputed
// summary, is compacted now and answered with the summary as the
// assistant's text; the revision is a manual compaction whose note names
// the path.
func TestResponsesLocalCompactionCompactedNow(t *testing.T) {
	prompt := codexcli.CheckpointPrompt.Read(t)
	fake := compactingUpstream(t, &fakeresponses.Codex{}, summaryStream)
	srv := responsesServer(t, fake, codexCompactGateway)
	hist := codexHistory(4)
	if resp, got, err := postResponses(t, srv.URL, "", responsesBody(hist[:len(hist)-1]), codexHeaders()); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the turn: %v %s", err, got)
	}
	p, _ := json.Marshal(prompt)
	items := append(hist, `{"type":"message","role":"user","content":[{"type":"input_text","text":`+string(p)+`}]}`)
	body := strings.Replace(responsesBody(items), `"tools":[{"type":"function","name":"exec_command"}]`, `"tools":[]`, 1)
	h := codexHeaders()
	h.Set("X-Codex-Turn-Metadata", `{"thread_id":"th-1","request_kind":"compaction","compaction":{"trigger":"manual","implementation":"responses","phase":"standalone_turn"}}`)
	resp, got, err := postResponses(t, srv.URL, "", body, h)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("X-Kompact-Forwarded") != "answered" {
		t.Fatalf("the compaction: %v %v %s", err, resp.Header, got)
	}
	if !strings.Contains(got, "KOMPACT-NOW-SUMMARY") {
		t.Errorf("the answer does not hold the summary: %s", got)
	}
	revs := revisions(t, srv.URL, "th-1")
	if len(revs) == 0 || revs[0]["kind"] != "compaction" || !strings.Contains(revs[0]["note"].(string), "(compacted now; Codex, local, manual)") {
		t.Errorf("the revision: %v", revs)
	}
}
