package apitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// GatewayClient is an openai-go client of a gateway; sent keeps the body
// of each request it sends.
type GatewayClient struct {
	sdk.Client
	Mu   sync.Mutex
	Sent [][]byte
}

func NewGatewayClient(base string, opts ...option.RequestOption) *GatewayClient {
	c := &GatewayClient{}
	opts = append([]option.RequestOption{
		option.WithBaseURL(base + "/gateway/gw/v1"), option.WithAPIKey("client-key"), option.WithMaxRetries(0),
		option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			if r.Body != nil {
				b, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(b))
				c.Mu.Lock()
				c.Sent = append(c.Sent, b)
				c.Mu.Unlock()
			}
			return next(r)
		}),
	}, opts...)
	c.Client = sdk.NewClient(opts...)
	return c
}

func (c *GatewayClient) LastSent() []byte {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Sent[len(c.Sent)-1]
}

// Conversation is a client's growing history.
type Conversation struct {
	Msgs []sdk.ChatCompletionMessageParamUnion
}

// UserText is turn i's user message: about 500 tokens of text.
func UserText(i int) string {
	return fmt.Sprintf("turn %d: %s", i, strings.Repeat(fmt.Sprintf("detail-%d ", i), 200))
}

// Turn sends the history plus turn i's user message and adds the reply;
// it returns the answer's headers.
func (cv *Conversation) Turn(t *testing.T, c *GatewayClient, i int, stream bool) http.Header {
	t.Helper()
	cv.Msgs = append(cv.Msgs, sdk.UserMessage(UserText(i)))
	params := sdk.ChatCompletionNewParams{Model: "chat-model", Messages: cv.Msgs}
	var resp *http.Response
	ctx := context.Background()
	reply := ""
	if stream {
		s := c.Chat.Completions.NewStreaming(ctx, params, option.WithResponseInto(&resp))
		acc := sdk.ChatCompletionAccumulator{}
		for s.Next() {
			ch := s.Current()
			if len(ch.Choices) == 0 {
				t.Fatalf("turn %d: the client got a chunk without choices (the usage chunk it did not ask for): %s", i, ch.RawJSON())
			}
			acc.AddChunk(ch)
		}
		if err := s.Err(); err != nil {
			t.Fatalf("turn %d: stream: %v", i, err)
		}
		reply = acc.Choices[0].Message.Content
	} else {
		out, err := c.Chat.Completions.New(ctx, params, option.WithResponseInto(&resp))
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		reply = out.Choices[0].Message.Content
	}
	if !strings.HasPrefix(reply, "reply ") {
		t.Fatalf("turn %d: reply %q", i, reply)
	}
	cv.Msgs = append(cv.Msgs, sdk.AssistantMessage(reply))
	return resp.Header
}

// ToolExchange adds to cv an assistant message calling bash and its
// result, n characters naming a file.
func (cv *Conversation) ToolExchange(i, n int) {
	id := fmt.Sprintf("call_%d", i)
	call := sdk.ChatCompletionMessageToolCallUnionParam{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
		ID: id, Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "bash", Arguments: fmt.Sprintf(`{"command":"cat f%d.go"}`, i)}}}
	out := fmt.Sprintf("pkg/f%d.go\n", i) + strings.Repeat("z", n)
	cv.Msgs = append(cv.Msgs, sdk.ChatCompletionMessageParamUnion{OfAssistant: &sdk.ChatCompletionAssistantMessageParam{ToolCalls: []sdk.ChatCompletionMessageToolCallUnionParam{call}}},
		sdk.ToolMessage(out, id))
}

// TurnsUntilCompacting sends turns of cv until the upstream has a
// compaction call (which up's shut gate holds): it returns the number of
// the turn sent last and a channel that gets its headers once it is
// answered (a turn that reaches the trigger while a precompute runs waits
// for it). A turn answered before its precompute's call reached the
// upstream (the session, id on the server at base, is listed running) ends
// the turns too: the next turn could apply the precompute before the test
// sees it.
func TurnsUntilCompacting(t *testing.T, up *FakeUpstream, c *GatewayClient, cv *Conversation, base, id string) (int, chan http.Header) {
	t.Helper()
	for i := 1; i <= 30; i++ {
		done := make(chan http.Header, 1)
		go func() { done <- cv.Turn(t, c, i, false) }()
		for {
			select {
			case h := <-done:
				if up.CompactionCalls() > 0 || PrecomputeCalling(t, up, base, id) {
					done <- h
					return i, done
				}
			case <-time.After(10 * time.Millisecond):
				if up.CompactionCalls() > 0 {
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

// PrecomputeCalling says whether session id, on the server at base, runs
// a compaction after its turn was answered (a precompute), and then waits
// until the compaction's call reaches the upstream.
func PrecomputeCalling(t *testing.T, up *FakeUpstream, base, id string) bool {
	t.Helper()
	if !ListedRunning(t, base, id) {
		return false
	}
	for deadline := time.Now().Add(60 * time.Second); up.CompactionCalls() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the precompute never called the upstream")
		}
	}
	return true
}

// ListedRunning returns the list's "running" of session id.
func ListedRunning(t *testing.T, base, id string) bool {
	t.Helper()
	var list struct {
		Sessions []struct {
			ID      string `json:"id"`
			Running bool   `json:"running"`
		} `json:"sessions"`
	}
	GetJSON(t, base, "/v1/sessions", &list)
	for _, s := range list.Sessions {
		if s.ID == id {
			return s.Running
		}
	}
	t.Fatalf("session %q is not listed", id)
	return false
}
