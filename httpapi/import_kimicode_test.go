package httpapi_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/kimicode"
)

// TestImportKimiCodeWire (issue 31 §2): POST /v1/sessions/import?format=kimi-code reads a
// Kimi Code 2.1.0 session's agents/main/wire.jsonl (a recorded vector with two compactions)
// into the very messages kompact sessions import --kimi-code sends for it (the session
// document kimicode.ImportWire makes, imported as the CLI imports it), with the query's id
// and agent. A file that is not one is 400, and a file past --max-body (the file is read
// whole, as a kimi-cli one is) or bringing more messages than --max-request-messages is 413;
// each stores nothing.
func TestImportKimiCodeWire(t *testing.T) {
	wire, texts := apitest.KimiCodeWire(t)
	e := newAPIEnv(t, apiOptions{})
	got := e.must(201, "POST", "/v1/sessions/import?format=kimi-code&id=from-kimi-code&agent=fake", wire)
	doc, _, err := kimicode.ImportWire(wire, texts)
	if err != nil {
		t.Fatal(err)
	}
	doc.ID, doc.Agent = "from-cli", "fake"
	want := e.must(201, "POST", "/v1/sessions/import", doc.AppendJSON(nil))
	if got["id"] != "from-kimi-code" || got["agent"] != "fake" {
		t.Errorf("id %v agent %v", got["id"], got["agent"])
	}
	g, w := apitest.WithoutIDs(t, got), apitest.WithoutIDs(t, want)
	if g != w {
		t.Fatalf("the messages:\n%s\nwant (the CLI's):\n%s", g, w)
	}
	// The second compaction's rebuilt context: the system prompt first, then the messages
	// with Kimi Code's summary prefix in them.
	msgs := got["messages"].([]any)
	prefix := apitest.JSONText(t, texts.Prefix())
	if len(msgs) < 3 || msgs[0].(map[string]any)["role"] != "system" || !strings.Contains(g, prefix[1:len(prefix)-1]) {
		t.Errorf("the imported session: %s", g)
	}

	// Not a wire.jsonl.
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi-code&id=bad", "not json\n"), 400, "invalid_request", "Kimi Code wire.jsonl")
	e.must(404, "GET", "/v1/sessions/bad", nil)

	// The bounds of an import read whole.
	small := newAPIEnv(t, apiOptions{maxBody: 64 << 10, limits: httpapi.Limits{MaxRequestMessages: 3}})
	wantError(t, small.do("POST", "/v1/sessions/import?format=kimi-code", wire), 413, "too_large", "(--max-body)")
	few := newAPIEnv(t, apiOptions{limits: httpapi.Limits{MaxRequestMessages: 3}})
	wantError(t, few.do("POST", "/v1/sessions/import?format=kimi-code", wire), 413, "too_large", "(--max-request-messages)")
	for _, env := range []*apiEnv{small, few} {
		if n := len(env.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 0 {
			t.Errorf("a refused import stored %d sessions", n)
		}
	}
}

// TestImportKimiCodeWireStopsAtLimit (issue 38): an import of a wire.jsonl whose context
// passes --max-request-messages is refused at the line that passes it, before the rest of
// the file is folded (the red team's 200k messages were folded whole, 247 MB, before the
// 413): the request allocates little more than the body it read.
func TestImportKimiCodeWireStopsAtLimit(t *testing.T) {
	var b strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&b, `{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"message %d"}],"toolCalls":[],"origin":{"kind":"user"}},"time":1}`+"\n", i)
	}
	body := b.String()
	e := newAPIEnv(t, apiOptions{maxBody: 64 << 20, limits: httpapi.Limits{MaxRequestMessages: 100}})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := e.do("POST", "/v1/sessions/import?format=kimi-code", body)
	runtime.ReadMemStats(&after)
	wantError(t, res, 413, "too_large", "more than 100 messages at line 101 of wire.jsonl")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(body)) {
		t.Errorf("the refused import allocated %d bytes for a body of %d", alloc, len(body))
	} else {
		t.Logf("the refused import allocated %d bytes for a body of %d", alloc, len(body))
	}
}
