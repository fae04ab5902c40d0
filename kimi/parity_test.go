package kimi_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
	"kompact/openai"
)

// kimiPrompt returns the genuine prompt from ../shared as a prompt file.
func kimiPrompt(t *testing.T) kompact.Prompt {
	body, path := vectors.KimiPrompt(t)
	return kompact.Prompt{Body: body, Source: kompact.PromptFile, Origin: path}
}

func mustJSON(t *testing.T, name string, got []byte, want json.RawMessage) {
	t.Helper()
	if ok, diff := vectors.JSONEqual(got, want); !ok {
		t.Errorf("%s differs from kimi-cli's:\n%s", name, diff)
	}
}

func messagesJSON(msgs []kompact.Message) []byte {
	b, _ := json.Marshal(msgs)
	return b
}

// TestKCP010PinnedPromptHash checks that ../shared holds the genuine prompt
// and that kompact recognises it only by its hash.
func TestKCP010PinnedPromptHash(t *testing.T) {
	p := kimiPrompt(t)
	sum := sha256.Sum256([]byte(p.Body))
	if got := hex.EncodeToString(sum[:]); got != kompact.KimiPromptSHA256 {
		t.Fatalf("sha256 of compact.md = %s, pinned %s", got, kompact.KimiPromptSHA256)
	}
	if !p.Genuine() {
		t.Fatal("Genuine() = false for kimi-cli's compact.md")
	}
	if kimi.BuiltinPrompt().Genuine() {
		t.Fatal("the built-in prompt must not be kimi-cli's text")
	}
	edited := kompact.Prompt{Body: p.Body + " ", Source: kompact.PromptFile}
	if edited.Genuine() {
		t.Fatal("an edited prompt must not count as genuine")
	}
}

// TestKimiParityVectors replays every vector of ../shared/kimi-parity/vectors
// (KCP-001, 002, 003, 005, 006, 008, 009, 010, 011) and compares exact values.
func TestKimiParityVectors(t *testing.T) {
	prompt := kimiPrompt(t)
	for _, v := range vectors.Load(t) {
		t.Run(v.Name(), func(t *testing.T) {
			s := v.Session(t)
			plan, err := kimi.Prepare(s, kimi.Options{
				MaxPreserved: v.Params.MaxPreserved,
				Instructions: v.Params.CustomInstruction,
				Prompt:       prompt,
			})
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			// prepare(): compact_message and to_preserve.
			mustJSON(t, "prepare.to_preserve", messagesJSON(plan.Preserved()), mustMarshal(v.Expected.Prepare.ToPreserve))
			if string(v.Expected.Prepare.CompactMessage) == "null" {
				if !plan.Noop {
					t.Fatalf("kimi-cli makes no request here, kompact would (range %d..%d)", plan.Start, plan.End)
				}
				if v.Expected.Outcome != "none" {
					t.Fatalf("outcome %q with no compact message", v.Expected.Outcome)
				}
				// compact() returns the messages unchanged and estimates them all.
				mustJSON(t, "compact.messages", messagesJSON(plan.Preserved()), v.Expected.Compact.Messages)
				if got, want := kompact.EstimateTokens(plan.Preserved()), *v.Expected.Compact.EstimatedTokenCount; got != want {
					t.Errorf("estimated_token_count = %d, want %d", got, want)
				}
				return
			}
			if plan.Noop {
				t.Fatalf("kompact says no-op (%s), kimi-cli compacts", plan.Reason)
			}
			reqMsg, _ := json.Marshal(plan.Transcript)
			mustJSON(t, "prepare.compact_message", reqMsg, v.Expected.Prepare.CompactMessage)

			// The request body's messages, in the Kimi provider's wire form.
			body, _ := openai.RequestBody(kompact.RequestConfig{Model: v.Expected.LLMRequest.Model}, plan.RequestMessages())
			var sent struct {
				Model    string          `json:"model"`
				Messages json.RawMessage `json:"messages"`
				Stream   bool            `json:"stream"`
				Tools    json.RawMessage `json:"tools"`
			}
			if err := json.Unmarshal(body, &sent); err != nil {
				t.Fatalf("request body is not JSON: %v", err)
			}
			mustJSON(t, "llm_request.messages", sent.Messages, v.Expected.LLMRequest.Messages)
			if sent.Tools != nil {
				t.Errorf("request carries tools: %s", sent.Tools)
			}
			if !sent.Stream || sent.Model != v.Expected.LLMRequest.Model {
				t.Errorf("stream=%v model=%q", sent.Stream, sent.Model)
			}

			res, err := plan.Apply(v.Answer())
			if v.Expected.Outcome == "error" {
				want := v.Expected.Compact.Error
				if err == nil {
					t.Fatalf("Apply succeeded, kimi-cli raised %s: %s", want.Type, want.Message)
				}
				if want.Type != "APIEmptyResponseError" || kompact.ErrorCodeOf(err) != kompact.EEmptyResponse {
					t.Errorf("error %v (code %s), kimi-cli raised %s", err, kompact.ErrorCodeOf(err), want.Type)
				}
				if err.Error() != want.Message {
					t.Errorf("error message\n got %q\nwant %q", err.Error(), want.Message)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			mustJSON(t, "compact.messages", messagesJSON(res.KimiMessages), v.Expected.Compact.Messages)
			gotUsage := []byte("null")
			if res.Usage != nil {
				gotUsage, _ = json.Marshal(res.Usage)
			}
			mustJSON(t, "compact.usage", gotUsage, v.Expected.Compact.Usage)
			if want := *v.Expected.Compact.EstimatedTokenCount; res.EstimatedTokenCount != want {
				t.Errorf("estimated_token_count = %d, want %d", res.EstimatedTokenCount, want)
			}
			mustJSON(t, "wire_messages_after", openai.AppendWireMessages(nil, res.KimiMessages), v.Expected.WireMessagesAfter)

			// The platform form: the leading system message stays, then one
			// single-part summary message, then the preserved tail.
			checkPlatformForm(t, plan, res)
		})
	}
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// checkPlatformForm asserts KCP-002, 008 and 009 on the compacted session.
func checkPlatformForm(t *testing.T, plan *kimi.Plan, res *kompact.Result) {
	t.Helper()
	in := plan.Session.Messages
	out := res.Session.Messages
	i := 0
	if len(in) > 0 && in[0].Role == kompact.RoleSystem {
		if string(messagesJSON(out[:1])) != string(messagesJSON(in[:1])) {
			t.Fatalf("leading system message not kept first")
		}
		i = 1
	}
	sum := out[i]
	if sum.Role != kompact.RoleUser || len(sum.Content) != 1 || sum.Content[0].Type != kompact.PartText {
		t.Fatalf("summary message is not one user text part: %s", messagesJSON(out[i:i+1]))
	}
	if want := kompact.SummaryPrefix + "\n" + res.Summary; sum.Content[0].Text != want {
		t.Fatalf("summary text = %q, want %q", sum.Content[0].Text, want)
	}
	rest := out[i+1:]
	if string(messagesJSON(rest)) != string(messagesJSON(plan.Preserved())) {
		t.Fatalf("messages after the summary are not the preserved tail unchanged")
	}
	for _, m := range out[i+1:] {
		if m.Role == kompact.RoleAssistant && len(in) > 0 && len(rest) == 0 {
			t.Fatalf("an assistant acknowledgment was added")
		}
	}
	if len(out) != i+1+len(plan.Preserved()) {
		t.Fatalf("compacted session has %d messages, want %d", len(out), i+1+len(plan.Preserved()))
	}
}
