package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// The gateway's compactions in the server's accounting (issue 28 §4,
// issue 29): shown as running, refusing a manual compaction meanwhile, and
// taking the same action slots as /v1 actions.

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

// TestGatewayCompactionRunning (issue 28 §4): while the gateway compacts a
// session before a turn, and while it precomputes, the list says
// running, and a manual compaction of the session answers 409 at once,
// without an LLM call; afterwards the session is not running and a manual
// compaction runs again.
func TestGatewayCompactionRunning(t *testing.T) {
	for _, precompute := range []float64{0, 0.8} {
		t.Run(fmt.Sprintf("precompute=%v", precompute), func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			openGate := apitest.ShutGate(t, up)
			srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: precompute}, httpapi.Limits{})
			c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "busy-1"))
			cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
			_, done := apitest.TurnsUntilCompacting(t, up, c, cv, srv.URL, "busy-1")
			if !apitest.ListedRunning(t, srv.URL, "busy-1") {
				t.Error("the list says running: false while the gateway compacts the session")
			}
			calls := up.CompactionCalls()
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
			if n := up.CompactionCalls(); n != calls {
				t.Errorf("the refused manual compaction called the LLM (%d compaction calls, was %d)", n, calls)
			}
			openGate()
			if h := <-done; precompute == 0 && h.Get("X-Kompact-Forwarded") != "compacted" {
				t.Fatalf("the turn held in the compaction was forwarded %q", h.Get("X-Kompact-Forwarded"))
			}
			for deadline := time.Now().Add(60 * time.Second); apitest.ListedRunning(t, srv.URL, "busy-1"); time.Sleep(20 * time.Millisecond) {
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
			up := apitest.NewFakeUpstream(t)
			openGate := apitest.ShutGate(t, up)
			srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: precompute}, httpapi.Limits{MaxActions: 1})
			a := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "slot-a"))
			cvA := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys a")}}
			_, doneA := apitest.TurnsUntilCompacting(t, up, a, cvA, srv.URL, "slot-a")
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
			b := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "slot-b"))
			cvB := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys b")}}
			calls := up.CompactionCalls()
			var ctxB struct {
				ShouldCompact bool `json:"should_compact"`
			}
			for i := 1; !ctxB.ShouldCompact; i++ {
				if i > 30 {
					t.Fatal("conversation b never reached the trigger")
				}
				if h := cvB.Turn(t, b, i, false); h.Get("X-Kompact-Forwarded") != "as-sent" {
					t.Fatalf("turn %d of b: forwarded %q while no slot is free", i, h.Get("X-Kompact-Forwarded"))
				}
				apitest.GetJSON(t, srv.URL, "/v1/sessions/slot-b/context", &ctxB)
			}
			cvB.Turn(t, b, 100, false) // due before it: still no slot
			if n := up.CompactionCalls(); n != calls {
				t.Fatalf("%d compaction calls while the one slot was taken, want none", n-calls)
			}
			openGate()
			<-doneA
			for deadline := time.Now().Add(60 * time.Second); apitest.ListedRunning(t, srv.URL, "slot-a"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("a's compaction did not end")
				}
			}
			if h := cvB.Turn(t, b, 101, false); h.Get("X-Kompact-Forwarded") != "compacted" {
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
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServerLimits(t, testserver.SQLite(t), up, testserver.Gateway{Auto: true, Precompute: 0.8}, httpapi.Limits{})
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "apart"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	_, done := apitest.TurnsUntilCompacting(t, up, c, cv, srv.URL, "apart")
	<-done
	type listed struct {
		PreviewID string `json:"preview_id"`
		Gateway   bool   `json:"gateway"`
	}
	var previews struct {
		Previews []listed `json:"previews"`
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		apitest.GetJSON(t, srv.URL, "/v1/sessions/apart/previews", &previews)
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
	apitest.GetJSON(t, srv.URL, "/v1/sessions/apart/previews", &previews)
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
	apitest.GetJSON(t, srv.URL, "/v1/sessions", &list)
	if len(list.Sessions) != 1 || list.Sessions[0].OpenPreviews != 2 || list.Sessions[0].GatewayPreviews != 1 {
		t.Fatalf("the list: %+v", list.Sessions)
	}
}
