package openai_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakeresponses"
	"kompact/openai"
)

// relayResponses relays events through RelayEvents with a ResponsesStream
// reading them, checking that every byte passes.
func relayResponses(t *testing.T, events []string) *openai.ResponsesStream {
	t.Helper()
	in := strings.Join(events, "")
	var out bytes.Buffer
	var s openai.ResponsesStream
	if err := openai.RelayEvents(&out, nil, strings.NewReader(in), 0, s.Event); err != nil {
		t.Fatal(err)
	}
	if out.String() != in {
		t.Error("the relay changed the stream")
	}
	return &s
}

func TestResponsesStreamUsage(t *testing.T) {
	u := fakeresponses.Usage{Input: 9000, Cached: 1200, Output: 42}
	for name, evs := range map[string][]string{
		"full":    fakeresponses.TextStream("msg_1", "hello there, a longer text", u),
		"minimal": fakeresponses.Minimal(u, fakeresponses.MessageItem("msg_1", "hi")),
	} {
		s := relayResponses(t, evs)
		want := kompact.Usage{InputOther: 7800, InputCacheRead: 1200, Output: 42}
		if !s.Completed() || s.Usage() == nil || *s.Usage() != want {
			t.Errorf("%s: completed %v usage %+v, want %+v", name, s.Completed(), s.Usage(), want)
		}
	}
	cut := relayResponses(t, fakeresponses.Cut(fakeresponses.TextStream("msg_1", "hi", u)))
	if cut.Completed() || cut.Usage() != nil {
		t.Errorf("a stream without response.completed: completed %v usage %v", cut.Completed(), cut.Usage())
	}
	failed := relayResponses(t, append(fakeresponses.Minimal(u), fakeresponses.Event("response.failed", `{"type":"response.failed","response":{"error":{"message":"x"}}}`)))
	if failed.Completed() || failed.Failure() != "response.failed" {
		t.Errorf("a failed stream: completed %v failure %q", failed.Completed(), failed.Failure())
	}
}

func TestResponsesBodyUsage(t *testing.T) {
	body := []byte(`{"id":"resp_1","object":"response","status":"completed","output":[],"usage":{"input_tokens":300,"input_tokens_details":{"cached_tokens":100},"output_tokens":7,"total_tokens":307}}`)
	if u := openai.ResponsesBodyUsage(body); u == nil || *u != (kompact.Usage{InputOther: 200, InputCacheRead: 100, Output: 7}) {
		t.Errorf("%+v", u)
	}
	for _, b := range []string{`{}`, `{"usage":null}`, `{"usage":{"input_tokens":0,"output_tokens":0}}`, `not json`} {
		if u := openai.ResponsesBodyUsage([]byte(b)); u != nil {
			t.Errorf("%s: %+v", b, u)
		}
	}
}

// TestResponsesAnswerEvents: kompact's own answers are the minimal
// sequence Codex accepts, which reads back as one item per
// response.output_item.done and a response.completed with the usage.
func TestResponsesAnswerEvents(t *testing.T) {
	h := openai.CompactionHandle{Session: "s1", Revision: 4}
	u := kompact.Usage{InputOther: 1500, InputCacheRead: 500, Output: 300}
	for name, item := range map[string][]byte{
		"compaction": openai.CompactionItem("cmp_k1", h),
		"local":      openai.AssistantItem("msg_k1", "the \"summary\"\nline two"),
	} {
		a := &openai.ResponsesAnswer{ID: "resp_k1", Model: "m", CreatedAt: 1700000000, Items: [][]byte{item}, Usage: u}
		evs := openai.AppendResponsesEvents(nil, a)
		s := relayResponses(t, []string{string(evs)})
		if !s.Completed() || *s.Usage() != u {
			t.Errorf("%s: completed %v usage %+v", name, s.Completed(), s.Usage())
		}
		var types []string
		var done []json.RawMessage
		for _, block := range strings.Split(strings.TrimSuffix(string(evs), "\n\n"), "\n\n") {
			ev, data, _ := strings.Cut(block, "\n")
			var v struct {
				Type string          `json:"type"`
				Item json.RawMessage `json:"item"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &v); err != nil || "event: "+v.Type != ev {
				t.Fatalf("%s: event %q: %v", name, block, err)
			}
			types = append(types, v.Type)
			if v.Item != nil {
				done = append(done, v.Item)
			}
		}
		if strings.Join(types, " ") != "response.output_item.done response.completed" || len(done) != 1 || !bytes.Equal(done[0], item) {
			t.Errorf("%s: %v %s", name, types, done)
		}
		var obj struct {
			Status string            `json:"status"`
			Output []json.RawMessage `json:"output"`
			Usage  struct {
				Input   int64 `json:"input_tokens"`
				Details struct {
					Cached int64 `json:"cached_tokens"`
				} `json:"input_tokens_details"`
				Output int64 `json:"output_tokens"`
				Total  int64 `json:"total_tokens"`
			} `json:"usage"`
		}
		body := openai.AppendResponseObject(nil, a)
		if err := json.Unmarshal(body, &obj); err != nil || obj.Status != "completed" || len(obj.Output) != 1 ||
			obj.Usage.Input != 2000 || obj.Usage.Details.Cached != 500 || obj.Usage.Output != 300 || obj.Usage.Total != 2300 {
			t.Errorf("%s: the response object %s: %v", name, body, err)
		}
		if u := openai.ResponsesBodyUsage(body); u == nil || *u != a.Usage {
			t.Errorf("%s: its usage reads back as %+v", name, u)
		}
	}
	var item struct {
		Type             string `json:"type"`
		EncryptedContent string `json:"encrypted_content"`
	}
	raw := openai.CompactionItem("cmp_k1", h)
	if err := json.Unmarshal(raw, &item); err != nil || item.Type != "compaction" || item.EncryptedContent != "kompact:s1:4" {
		t.Errorf("%s: %v", raw, err)
	}
	var msg struct {
		Role    string `json:"role"`
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	if err := json.Unmarshal(openai.AssistantItem("m", "a\"b"), &msg); err != nil || msg.Role != "assistant" || msg.Content[0].Type != "output_text" || msg.Content[0].Text != "a\"b" {
		t.Errorf("%+v %v", msg, err)
	}
}
