package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
	"kompact/postgres"
)

// TestGatewayRestoreKeepsLaterMessages (issue 28 §1): a restore of a
// compacted gateway session takes back the messages the client sent after
// the restored revision; the gateway stores them again from the client's
// next request (it carries them), so the session never has a hole and no
// later forward or compaction leaves them out. On both stores.
func TestGatewayRestoreKeepsLaterMessages(t *testing.T) {
	stores := map[string]func(t *testing.T) kompact.Store{
		"sqlite": func(t *testing.T) kompact.Store { return testserver.SQLite(t) },
		"postgres": func(t *testing.T) kompact.Store {
			st, err := postgres.Open(context.Background(), testenv.PostgresSchema(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			srv := newGatewayServer(t, open(t), up, 0)
			c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "restored"))
			cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
			i, compactedAt := 0, 0
			for compactedAt == 0 || i < compactedAt+3 { // 3 turns after the compaction
				i++
				if i > 20 {
					t.Fatal("the conversation never compacted")
				}
				if cv.Turn(t, c, i, false).Get("X-Kompact-Forwarded") == "compacted" && compactedAt == 0 {
					compactedAt = i
				}
			}
			var revs struct {
				Revisions []kompact.RevisionInfo `json:"revisions"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions/restored/revisions", &revs)
			if len(revs.Revisions) != 1 {
				t.Fatalf("revisions before the restore: %+v", revs.Revisions)
			}
			postJSON(t, srv.URL, fmt.Sprintf("/v1/sessions/restored/revisions/%d/restore", revs.Revisions[0].Rev), `{}`, nil)
			last := i + 3
			for i < last {
				i++
				cv.Turn(t, c, i, false)
			}
			wantClientHistory(t, srv.URL, "restored", len(cv.Msgs)-2) // the last reply is not stored until the client sends it back
			// What went upstream last, and the compaction that made its
			// summary (when it has one), hold every turn of the client.
			chats, _ := up.Chats()
			seen := string(chats[len(chats)-1].Body)
			up.Mu.Lock()
			for _, call := range up.Calls {
				if call.Compaction {
					seen += string(call.Body) // a later one's summary stands for the earlier ones
				}
			}
			up.Mu.Unlock()
			for n := 1; n <= i; n++ {
				if !strings.Contains(seen, fmt.Sprintf("turn %d:", n)) {
					t.Errorf("turn %d was neither forwarded nor summarised after the restore", n)
				}
			}
		})
	}
}

// wantClientHistory checks that gateway session id holds the client's
// messages in order without a gap, up to message last: its messages
// stored from the client, after any summary, are g_k, g_k+1, ..., g_last.
func wantClientHistory(t *testing.T, base, id string, last int) {
	t.Helper()
	var sess struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	apitest.GetJSON(t, base, "/v1/sessions/"+id, &sess)
	var ids []string
	for _, m := range sess.Messages {
		ids = append(ids, m.ID)
	}
	want := fmt.Sprintf("g_%d", last)
	for k := len(ids) - 1; k >= 0 && strings.HasPrefix(ids[k], "g_"); k-- {
		if ids[k] != want {
			t.Fatalf("the session's messages %v: %s where %s belongs", ids, ids[k], want)
		}
		var n int
		fmt.Sscanf(want, "g_%d", &n)
		want = fmt.Sprintf("g_%d", n-1)
	}
}
