package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestGatewayPrunesOnlyWhenItCompacts (issue 33 §3): with
// compaction.prune, the gateway leaves the history alone while the
// session is under the trigger (no revision: the provider's prompt cache
// holds), and prunes when it compacts: a prune revision, then the
// compaction of the pruned session (its request shows the markers), since
// the gateway forwards its client's own messages but for those a summary
// replaces. A manual prune of a gateway session is refused for that
// reason, writing nothing.
func TestGatewayPrunesOnlyWhenItCompacts(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	doc := strings.Replace(testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{Auto: true}),
		"      auto: {", "      prune: {enabled: true, keep_recent: 1, min_chars: 1000}\n      auto: {", 1)
	srv := apitest.GatewayServer(t, doc, testLog{t})
	c := apitest.NewGatewayClient(srv.URL)
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	id := ""
	for i := 1; i <= 10; i++ {
		cv.ToolExchange(i, 4000)
		h := cv.Turn(t, c, i, false)
		if id == "" {
			id = h.Get("X-Kompact-Session")
		}
		revs := revisionsOf(t, srv.URL, id)
		if len(revs) == 0 {
			continue
		}
		if len(revs) != 2 || revs[1].Kind != kompact.RevisionPrune || revs[0].Kind != kompact.RevisionAutoCompaction || i < 3 {
			t.Fatalf("turn %d: revisions %+v", i, revs)
		}
		up.Mu.Lock()
		var req string
		for _, call := range up.Calls {
			if call.Compaction {
				req = string(call.Body)
			}
		}
		up.Mu.Unlock()
		if n := strings.Count(req, "[tool output cleared by kompact: bash, 4,010 chars"); n == 0 || strings.Count(req, strings.Repeat("z", 4000)) > 1 {
			t.Fatalf("turn %d: the compaction request holds %d markers", i, n)
		}
		resp, err := http.Post(srv.URL+"/v1/sessions/"+id+"/actions/prune_tool_results", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || len(revisionsOf(t, srv.URL, id)) != 2 {
			t.Errorf("a manual prune of a gateway session: %d", resp.StatusCode)
		}
		return
	}
	t.Fatal("the gateway never pruned")
}

func revisionsOf(t *testing.T, base, id string) []kompact.RevisionInfo {
	t.Helper()
	resp, err := http.Get(base + "/v1/sessions/" + id + "/revisions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Revisions []kompact.RevisionInfo `json:"revisions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Revisions
}
