package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestGatewayStandingInstructions: the gateway's compaction sends the
// agent's compaction.instructions and the gateway session's own (PATCH
// …/settings), joined in that order into kimi-cli's one custom instruction
// (KCP-011, issue 33 §2), as every other compaction does.
func TestGatewayStandingInstructions(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	doc := strings.Replace(testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{Auto: true}),
		"      compaction_model: compact-model\n", "      compaction_model: compact-model\n      instructions: Keep the schema.\n", 1)
	srv := apitest.GatewayServer(t, doc, testLog{t})

	c := apitest.NewGatewayClient(srv.URL)
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	id := cv.Turn(t, c, 1, false).Get("X-Kompact-Session")
	body, _ := json.Marshal(map[string]any{"instructions": "Keep the API paths."})
	req, _ := http.NewRequest("PATCH", srv.URL+"/v1/sessions/"+id+"/settings", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH settings: %v %v", resp, err)
	}
	resp.Body.Close()
	for i := 2; i <= 14; i++ {
		if _, n := up.Chats(); n > 0 {
			break
		}
		cv.Turn(t, c, i, false)
	}
	up.Mu.Lock()
	defer up.Mu.Unlock()
	const want = "**User's Custom Compaction Instruction:**\\nThe user has specifically requested the following focus during compaction. You MUST prioritize this instruction above the default compression priorities:\\nKeep the schema.\\n\\nKeep the API paths.\"}]"
	for _, call := range up.Calls {
		if call.Compaction {
			if !bytes.Contains(call.Body, []byte(want)) {
				t.Fatalf("the gateway's compaction request lacks the joined instructions:\n%s", call.Body[max(0, len(call.Body)-400):])
			}
			return
		}
	}
	t.Fatal("the gateway never compacted")
}
