package anthropic_test

import (
	"encoding/json"
	"errors"
	"testing"

	"kompact"
	"kompact/anthropic"
	"kompact/internal/jsonscan"
)

// FuzzParseRequest (issue 41 §9): the Messages face's parser never
// panics, accepts only valid JSON, reads the messages, model and stream
// encoding/json reads under the same keys, refuses only with EInvalid or a
// bound's error, and digests and reads every message it accepted without
// panicking. With bounds, it gives the same request when the counts are
// within them and the bound's error when they are not.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"claude","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}]},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":[1]}}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"},{}]}]}]}`,
		`{"m\u0065ssages":[{}],"model":"\ud800"}`, `{"messages":[{}],"messages":[]}`, `{"messages":[1]}`, ` {"messages":[ {} , {} ] } `,
		`{"messages":[{}]} x`, `[]`, `{"messages":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := anthropic.ParseRequest(body, 0)
		if err != nil {
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("error %v is not EInvalid", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		checkAgainstReference(t, r, body)
		parts, raws := 0, rawsOf(body)
		for i := 0; i < r.Len(); i++ {
			_ = r.Digest(i)
			if _, err := r.Message(i); err != nil && kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("Message(%d): %v is not EInvalid", i, err)
			}
			parts += jsonscan.CountParts(raws[i], 1<<30)
		}
		checkBounds(t, body, r.Len(), parts)
	})
}

// checkAgainstReference: the messages, model and stream are those
// encoding/json reads from the body's exact keys.
func checkAgainstReference(t *testing.T, r *anthropic.Request, body []byte) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatalf("accepted %q, which encoding/json does not read as an object: %v", body, err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(top["messages"], &msgs); err != nil || len(msgs) != r.Len() {
		t.Fatalf("%q: %d messages, encoding/json reads %d (%v)", body, r.Len(), len(msgs), err)
	}
	var model string
	_ = json.Unmarshal(top["model"], &model)
	if r.Model != model || r.Stream != (string(top["stream"]) == "true") {
		t.Fatalf("%q: model %q stream %v, encoding/json reads %q %s", body, r.Model, r.Stream, model, top["stream"])
	}
}

// rawsOf is body's messages as encoding/json reads them.
func rawsOf(body []byte) []json.RawMessage {
	var top map[string]json.RawMessage
	var msgs []json.RawMessage
	_ = json.Unmarshal(body, &top)
	_ = json.Unmarshal(top["messages"], &msgs)
	return msgs
}

// checkBounds: bounds at the counts accept the request; one below refuses
// it with the bound's error.
func checkBounds(t *testing.T, body []byte, n, parts int) {
	if _, err := anthropic.ParseRequestBounded(body, n, jsonscan.PartLimits{Message: max(parts, 1), Request: max(parts, 1)}); err != nil {
		t.Fatalf("%q at its own counts (%d messages, %d parts): %v", body, n, parts, err)
	}
	if n > 0 {
		var tooMany *anthropic.TooManyMessagesError
		if _, err := anthropic.ParseRequestBounded(body, n-1, jsonscan.PartLimits{}); n > 1 && !errors.As(err, &tooMany) {
			t.Fatalf("%q at %d messages: %v, want a TooManyMessagesError", body, n-1, err)
		}
	}
	if parts > 1 { // a bound of 0 is none
		var tooMany *jsonscan.TooManyPartsError
		if _, err := anthropic.ParseRequestBounded(body, 0, jsonscan.PartLimits{Request: parts - 1}); !errors.As(err, &tooMany) || !tooMany.Request {
			t.Fatalf("%q at %d parts: %v, want a TooManyPartsError", body, parts-1, err)
		}
	}
}
