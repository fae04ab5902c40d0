package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/httpapi"
	"kompact/internal/testing/testserver"
)

// The gateway's compactions in the server's accounting (issue 28 §4,
// issue 29): shown as running, refusing a manual compaction meanwhile, and
// taking the same action slots as /v1 actions.

// compactionCalls counts the compaction requests the fake upstream got.
func (f *fakeUpstream) compactionCalls() int {
	_, n := f.chats()
	return n
}

// turnsUntilCompacting sends turns of cv until the upstream has a
// compaction call (which up's shut gate holds): it returns the number of
// the turn sent last and a channel that gets its headers once it is
// answered (a turn that reaches the trigger while a precompute runs waits
// for it). A turn answered before its precompute's call reached the
// upstream (the session, id on the server at base, is listed running) ends
// the turns too: the next turn could apply the precompute before the test
// sees it.
func turnsUntilCompacting(t *testing.T, up *fakeUpstream, c *gatewayClient, cv *conversation, base, id string) (int, chan http.Header) {
	t.Helper()
	for i := 1; i <= 30; i++ {
		done := make(chan http.Header, 1)
		go func() { done <- cv.turn(t, c, i, false) }()
		for {
			select {
			case h := <-done:
				if up.compactionCalls() > 0 || precomputeCalling(t, up, base, id) {
					done <- h
					return i, done
				}
			case <-time.After(10 * time.Millisecond):
				if up.compactionCalls() > 0 {
					return i, done
				}
				continue
			}
			break
		}
	}
	t.Fatal("the conversation never compacted")
	return 0, nil
}

// precomputeCalling says whether session id, on the server at base, runs
// a compaction after its turn was answered (a precompute), and then waits
// until the compaction's call reaches the upstream.
func precomputeCalling(t *testing.T, up *fakeUpstream, base, id string) bool {
	t.Helper()
	if !listedRunning(t, base, id) {
		return false
	}
	for deadline := time.Now().Add(60 * time.Second); up.compactionCalls() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the precompute never called the upstream")
		}
	}
	return true
}

// shutGate holds up's compaction answers until the returned function is
// called (at the test's end at the latest, so that a failed test does not
// leave a compaction waiting).
func shutGate(t *testing.T, up *fakeUpstream) func() {
	gate := make(chan struct{})
	up.gate = gate
	var once sync.Once
	open := func() {
		once.Do(func() {
			up.mu.Lock()
			up.gate = nil
			up.mu.Unlock()
			close(gate)
		})
	}
	t.Cleanup(open)
	return open
}

// postStatus posts body to path and returns the status and the body. It
// waits 20 s at most: a request that the gateway's compaction should have
// refused at once would wait for the shut gate.
func postStatus(t *testing.T, base, path, body string) (int, []byte) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Errorf("POST %s: %v", path, err)
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// listedRunning returns the list's "running" of session id.
func listedRunning(t *testing.T, base, id string) bool {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID      string `json:"id"`
			Running bool   `json:"running"`
		} `json:"sessions"`
	}
	getJSON(t, base, "/v1/sessions", &list)
	for _, s := range list.Sessions {
		if s.ID == id {
			return s.Running
		}
	}
	t.Fatalf("session %q is not listed", id)
	return false
}

// TestGatewayCompactionRunning (issue 28 §4): while the gateway compacts a
// session before a turn, and while it precomputes, the list says
// running, and a manual compaction of the session answers 409 at once,
// without an LLM call; afterwards the session is not running and a manual
// compaction runs again.
func TestGatewayCompactionRunning(t *testing.T) {
	for _, precompute := range []float64{0, 0.8} {
		t.Run(fmt.Sprintf("precompute=%v", precompute), func(t *testing.T) {
			up := newFakeUpstream(t)
			openGate := shutGate(t, up)
			srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: precompute}, httpapi.Limits{})
			c := newGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "busy-1"))
			cv := &conversation{msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
			_, done := turnsUntilCompacting(t, up, c, cv, srv.URL, "busy-1")
			if !listedRunning(t, srv.URL, "busy-1") {
				t.Error("the list says running: false while the gateway compacts the session")
			}
			calls := up.compactionCalls()
			status, b := postStatus(t, srv.URL, "/v1/sessions/busy-1/actions/compact_conversation", `{}`)
			var out struct {
				Status string `json:"status"`
				Error  struct {
					Code    string   `json:"code"`
					Message string   `json:"message"`
					Fixes   []string `json:"fixes"`
				} `json:"error"`
			}
			if status != 409 || json.Unmarshal(b, &out) != nil || out.Status != "error" || out.Error.Code != "conflict" || len(out.Error.Fixes) == 0 {
				t.Errorf("a manual compaction while the gateway's runs: %d %s", status, b)
			}
			if n := up.compactionCalls(); n != calls {
				t.Errorf("the refused manual compaction called the LLM (%d compaction calls, was %d)", n, calls)
			}
			openGate()
			if h := <-done; precompute == 0 && h.Get("X-Kompact-Forwarded") != "compacted" {
				t.Fatalf("the turn held in the compaction was forwarded %q", h.Get("X-Kompact-Forwarded"))
			}
			for deadline := time.Now().Add(60 * time.Second); listedRunning(t, srv.URL, "busy-1"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the session is still running after the gateway's compaction ended")
				}
			}
		})
	}
}

// TestGatewayCompactionSlots (issue 29): the gateway's compactions take the
// server's action slots. With --max-actions 1, a compaction that holds the
// slot makes a /v1 action busy (429), and another conversation that
// reaches the trigger meanwhile is forwarded as sent without a compaction
// call; once the slot is free, its next turn compacts. A precompute takes
// the slot as well.
func TestGatewayCompactionSlots(t *testing.T) {
	for _, precompute := range []float64{0, 0.8} {
		t.Run(fmt.Sprintf("precompute=%v", precompute), func(t *testing.T) {
			up := newFakeUpstream(t)
			openGate := shutGate(t, up)
			srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: precompute}, httpapi.Limits{MaxActions: 1})
			a := newGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "slot-a"))
			cvA := &conversation{msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys a")}}
			_, doneA := turnsUntilCompacting(t, up, a, cvA, srv.URL, "slot-a")
			// A /v1 action finds the slot taken.
			if status, b := postStatus(t, srv.URL, "/v1/sessions/slot-a/actions/compact_conversation", `{}`); status != 409 && status != 429 {
				t.Fatalf("a /v1 action while the gateway's compaction holds the one slot: %d %s", status, b)
			}
			if status, b := postStatus(t, srv.URL, "/v1/sessions", `{"id":"plain","messages":[{"role":"user","content":"one"},{"role":"assistant","content":"two"},{"role":"user","content":"three"},{"role":"assistant","content":"four"},{"role":"user","content":"five"}]}`); status != 201 {
				t.Fatalf("create: %d %s", status, b)
			}
			if status, b := postStatus(t, srv.URL, "/v1/sessions/plain/actions/compact_conversation", `{}`); status != 429 || !strings.Contains(string(b), "busy") {
				t.Fatalf("a /v1 action on another session while the gateway's compaction holds the one slot: %d %s", status, b)
			}
			// Another conversation goes past the trigger: forwarded as sent,
			// no compaction call.
			b := newGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "slot-b"))
			cvB := &conversation{msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys b")}}
			calls := up.compactionCalls()
			var ctxB struct {
				ShouldCompact bool `json:"should_compact"`
			}
			for i := 1; !ctxB.ShouldCompact; i++ {
				if i > 30 {
					t.Fatal("conversation b never reached the trigger")
				}
				if h := cvB.turn(t, b, i, false); h.Get("X-Kompact-Forwarded") != "as-sent" {
					t.Fatalf("turn %d of b: forwarded %q while no slot is free", i, h.Get("X-Kompact-Forwarded"))
				}
				getJSON(t, srv.URL, "/v1/sessions/slot-b/context", &ctxB)
			}
			cvB.turn(t, b, 100, false) // due before it: still no slot
			if n := up.compactionCalls(); n != calls {
				t.Fatalf("%d compaction calls while the one slot was taken, want none", n-calls)
			}
			openGate()
			<-doneA
			for deadline := time.Now().Add(60 * time.Second); listedRunning(t, srv.URL, "slot-a"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("a's compaction did not end")
				}
			}
			if h := cvB.turn(t, b, 101, false); h.Get("X-Kompact-Forwarded") != "compacted" {
				t.Fatalf("b's turn once the slot is free: forwarded %q", h.Get("X-Kompact-Forwarded"))
			}
		})
	}
}

// TestGatewayPrecomputeShownApart (issue 28 §4): the gateway's
// precomputed summary is listed as the gateway's ("gateway": true), apart
// from a person's preview of the same session, and the session list
// counts it in gateway_previews, so that the page does not ask anyone to
// review it.
func TestGatewayPrecomputeShownApart(t *testing.T) {
	up := newFakeUpstream(t)
	srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: 0.8}, httpapi.Limits{})
	c := newGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "apart"))
	cv := &conversation{msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	_, done := turnsUntilCompacting(t, up, c, cv, srv.URL, "apart")
	<-done
	type listed struct {
		PreviewID string `json:"preview_id"`
		Gateway   bool   `json:"gateway"`
	}
	var previews struct {
		Previews []listed `json:"previews"`
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		getJSON(t, srv.URL, "/v1/sessions/apart/previews", &previews)
		if len(previews.Previews) == 1 && previews.Previews[0].Gateway {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the precomputed summary is not listed as the gateway's: %+v", previews.Previews)
		}
	}
	var own struct {
		Status    string `json:"status"`
		PreviewID string `json:"preview_id"`
	}
	postJSON(t, srv.URL, "/v1/sessions/apart/actions/compact_conversation", `{"preview":true}`, &own)
	if own.Status != "preview" {
		t.Fatalf("a person's preview: %+v", own)
	}
	previews.Previews = nil // a decode into the old entries would keep their "gateway"
	getJSON(t, srv.URL, "/v1/sessions/apart/previews", &previews)
	if len(previews.Previews) != 2 {
		t.Fatalf("previews: %+v", previews.Previews)
	}
	for _, p := range previews.Previews {
		if p.Gateway != (p.PreviewID != own.PreviewID) {
			t.Errorf("preview %s: gateway %v (the person's is %s)", p.PreviewID, p.Gateway, own.PreviewID)
		}
	}
	var list struct {
		Sessions []struct {
			ID              string `json:"id"`
			OpenPreviews    int    `json:"open_previews"`
			GatewayPreviews int    `json:"gateway_previews"`
		} `json:"sessions"`
	}
	getJSON(t, srv.URL, "/v1/sessions", &list)
	if len(list.Sessions) != 1 || list.Sessions[0].OpenPreviews != 2 || list.Sessions[0].GatewayPreviews != 1 {
		t.Fatalf("the list: %+v", list.Sessions)
	}
}
