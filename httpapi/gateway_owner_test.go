package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestGatewayRefusesContinue (issue 28 §4): the client owns a gateway
// conversation, so a continue (or its retry) on a gateway session is 409
// with a sentence that says why, makes no LLM call and leaves the session
// as it was; the client's next turn is stored as before.
func TestGatewayRefusesContinue(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := newGatewayServerAuto(t, testserver.SQLite(t), up, 0, false)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "owned"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	for i := 1; i <= 2; i++ {
		cv.Turn(t, c, i, false)
	}
	type sessionDoc struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
		Version int64 `json:"version"`
	}
	var before sessionDoc
	apitest.GetJSON(t, srv.URL, "/v1/sessions/owned", &before)
	calls := len(up.Calls)
	for _, body := range []string{`{"content":"a note from the page"}`, `{"retry":true}`} {
		resp, err := http.Post(srv.URL+"/v1/sessions/owned/continue", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct {
			Code    string   `json:"code"`
			Message string   `json:"message"`
			Fixes   []string `json:"fixes"`
		}
		if resp.StatusCode != 409 || json.Unmarshal(b, &e) != nil || e.Code != "conflict" ||
			!strings.Contains(e.Message, "gateway") || !strings.Contains(e.Message, "client") || len(e.Fixes) == 0 {
			t.Fatalf("continue %s on a gateway session: %d %s", body, resp.StatusCode, b)
		}
	}
	if len(up.Calls) != calls {
		t.Fatalf("a refused continue called the LLM (%d calls, was %d)", len(up.Calls), calls)
	}
	var after sessionDoc
	apitest.GetJSON(t, srv.URL, "/v1/sessions/owned", &after)
	if after.Version != before.Version || len(after.Messages) != len(before.Messages) {
		t.Fatalf("a refused continue changed the session: version %d→%d, %d→%d messages", before.Version, after.Version, len(before.Messages), len(after.Messages))
	}
	cv.Turn(t, c, 3, false)
	apitest.GetJSON(t, srv.URL, "/v1/sessions/owned", &after)
	for i, m := range after.Messages {
		if !strings.HasPrefix(m.ID, "g_") {
			t.Fatalf("message %d of the gateway session is %q, not the client's", i, m.ID)
		}
	}
}
