package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testenv"
	"kompact/postgres"
)

// TestGatewayTwoInstancesPostgres: two servers over one PostgreSQL serve
// one gateway conversation, turn by turn on either: one session, one
// compaction (its precompute and lease live in the store), the same
// forwarded prefix from both.
func TestGatewayTwoInstancesPostgres(t *testing.T) {
	dsn := testenv.PostgresSchema(t)
	up := apitest.NewFakeUpstream(t)
	var bases []string
	for range 2 {
		st, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		bases = append(bases, newGatewayServer(t, st, up, 0.8).URL)
	}
	clients := []*apitest.GatewayClient{
		apitest.NewGatewayClient(bases[0], option.WithHeader("X-Kompact-Session", "pg-conv")),
		apitest.NewGatewayClient(bases[1], option.WithHeader("X-Kompact-Session", "pg-conv")),
	}
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	var prefix []byte
	compacted := 0
	for i := 1; i <= 13; i++ {
		h := cv.Turn(t, clients[i%2], i, i%3 == 0)
		if got := h.Get("X-Kompact-Session"); got != "pg-conv" {
			t.Fatalf("turn %d on instance %d: session %q", i, i%2, got)
		}
		if h.Get("X-Kompact-Forwarded") != "compacted" {
			if compacted > 0 {
				t.Fatalf("turn %d: forwarded as sent after the compaction", i)
			}
			continue
		}
		compacted++
		chats, _ := up.Chats()
		msgs := forwardedMessages(t, chats[len(chats)-1].Body)
		p := joinRaw(msgs[:2])
		if prefix == nil {
			prefix = p
		} else if !bytes.Equal(p, prefix) {
			t.Fatalf("turn %d on instance %d: another prefix", i, i%2)
		}
	}
	if compacted < 2 {
		t.Fatalf("%d compacted turns", compacted)
	}
	if _, n := up.Chats(); n != 1 {
		t.Fatalf("%d compaction calls across the instances, want 1", n)
	}
	var list struct {
		Sessions []struct {
			ID      string `json:"id"`
			Gateway bool   `json:"gateway"`
		} `json:"sessions"`
	}
	apitest.GetJSON(t, bases[1], "/v1/sessions", &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != "pg-conv" || !list.Sessions[0].Gateway {
		b, _ := json.Marshal(list)
		t.Fatalf("sessions: %s", b)
	}
}
