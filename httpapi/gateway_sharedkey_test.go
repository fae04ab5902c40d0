package httpapi_test

import (
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestGatewaySharedKey (issue 29): many conversations share a key (the
// same system prompt and first question: every run of one task); each
// turn goes to the session its history continues, however many share the
// key. 17 clients × 3 turns make 17 sessions, not a new one a turn from
// the 17th client on.
func TestGatewaySharedKey(t *testing.T) {
	const clients = 17
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServer(t, testserver.SQLite(t), up, 0)
	c := apitest.NewGatewayClient(srv.URL)
	convs := make([]*apitest.Conversation, clients)
	for i := range convs {
		convs[i] = &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You run the nightly task.")}}
	}
	last := make([]string, clients)
	for turn := 1; turn <= 3; turn++ {
		for i, cv := range convs {
			id := cv.Turn(t, c, turn, false).Get("X-Kompact-Session")
			if id == "" {
				t.Fatalf("client %d, turn %d: not stored", i, turn)
			}
			if turn == 3 && id != last[i] {
				t.Errorf("client %d, turn 3: went to session %s, its turn 2 to %s", i, id, last[i])
			}
			last[i] = id
		}
	}
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, srv.URL, "/v1/sessions?limit=200", &list)
	if len(list.Sessions) != clients {
		t.Errorf("%d sessions for %d conversations", len(list.Sessions), clients)
	}
	if _, n := up.Chats(); n != 0 {
		t.Errorf("%d compactions of conversations far below the trigger", n)
	}
	for i, id := range last {
		wantClientHistory(t, srv.URL, id, len(convs[i].Msgs)-2)
	}
}
