package openai_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"testing"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/openai"
)

// FuzzParseChatRequest: parsing never panics and accepts only valid JSON;
// a parsed request forwards its own body unchanged, splices into valid
// JSON that reads back, digests each message as its compact form and
// reads every message it can into a valid kompact message.
func FuzzParseChatRequest(f *testing.F) {
	f.Add(realisticBody(4, false))
	f.Add(realisticBody(3, true))
	for _, s := range []string{
		`{"messages":[]}`, ` {"stream":true,"messages":[ {"role":"user","content":[{"type":"image_url","image_url":{"url":"u"}}]} ] }`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":{"a":[1,{}]}}}],"refusal":"no"}],"stream_options":{"include_usage":true}}`,
		`{"messages":[{"r\u006fle":"tool","tool_call_id":"x","content":"\ud800"}],"model":"m"}`, `{"messages":[{}],"messages":[]}`,
	} {
		f.Add([]byte(s))
	}
	summary := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}}
	f.Fuzz(func(t *testing.T, body []byte) {
		if start := len(body) - len(bytes.TrimLeft(body, " \t\r\n")); start < len(body) {
			end, _, ok := jsonscan.Value(body, start)
			rest := bytes.Trim(body[min(end, len(body)):], " \t\r\n")
			if valid := ok && len(rest) == 0; valid != json.Valid(body) {
				t.Fatalf("jsonscan.Value says %v, json.Valid %v", valid, !valid)
			}
		}
		r, err := openai.ParseChatRequest(body)
		if err != nil {
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("error %v is not EInvalid", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		n := r.Len()
		if !bytes.Equal(r.Forward(0, nil, 0, false), body) || !bytes.Equal(r.Forward(n, nil, n, false), body) {
			t.Fatal("an untouched forward changed the body")
		}
		checkSplice(t, r, summary)
		for i := 0; i < n; i++ {
			var c bytes.Buffer
			if json.Compact(&c, r.Raw(i)) != nil || r.Digest(i) != sha256.Sum256(c.Bytes()) {
				t.Fatalf("Digest(%d) is not the SHA-256 of the compact %s", i, r.Raw(i))
			}
			if m, err := r.Message(i); err == nil {
				c := kompact.MessageCheck{Rules: kompact.AllMessageRules}
				if err := c.Check([]kompact.Message{m}); err != nil {
					t.Fatalf("Message(%d) of %s: %v", i, r.Raw(i), err)
				}
			} else if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("Message(%d): %v is not EInvalid", i, err)
			}
		}
	})
}

// checkSplice: a summary appended after every message and one replacing
// them all give valid requests that read back as spliced; the usage
// request, when it applies, reads back too.
func checkSplice(t *testing.T, r *openai.ChatRequest, summary []kompact.Message) {
	n := r.Len()
	all := parseForwarded(t, r.Forward(n, summary, n, false))
	if all.Len() != n+1 {
		t.Fatalf("appending a summary: %d messages, want %d", all.Len(), n+1)
	}
	for i := 0; i < n; i++ {
		if !bytes.Equal(all.Raw(i), r.Raw(i)) {
			t.Fatalf("message %d changed: %s", i, all.Raw(i))
		}
	}
	if m, err := all.Message(n); err != nil || !sameMessage(&m, &summary[0]) {
		t.Fatalf("the summary reads back as %s (%v)", m.AppendJSON(nil), err)
	}
	if none := parseForwarded(t, r.Forward(0, nil, n, false)); none.Len() != 0 || none.Model() != r.Model() || none.Stream() != r.Stream() {
		t.Fatal("dropping every message changed the rest")
	}
	asked := parseForwarded(t, r.Forward(0, nil, 0, true))
	if want := r.IncludeUsage() || r.CanAskUsage(); asked.IncludeUsage() != want || asked.Len() != n {
		t.Fatalf("askUsage: include_usage %v, want %v", asked.IncludeUsage(), want)
	}
}

func parseForwarded(t *testing.T, body []byte) *openai.ChatRequest {
	r, err := openai.ParseChatRequest(body)
	if err != nil {
		t.Fatalf("the forwarded body %q does not parse: %v", body, err)
	}
	return r
}
