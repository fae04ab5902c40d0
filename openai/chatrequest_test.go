package openai_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
)

// parseOK parses body, failing the test on an error.
func parseOK(t testing.TB, body string) *openai.ChatRequest {
	t.Helper()
	r, err := openai.ParseChatRequest([]byte(body))
	if err != nil {
		t.Fatalf("ParseChatRequest(%s): %v", body, err)
	}
	return r
}

func TestParseChatRequestFields(t *testing.T) {
	r := parseOK(t, ` {"model": "kimi-k2", "stream" : true, "stream_options": {"x": [1], "include_usage": true},
		"messages": [ {"role":"system","content":"s"} , {"role": "user", "content": "hi"}], "temperature": 0.5 }
`)
	if r.Model() != "kimi-k2" || !r.Stream() || !r.HasStreamOptions() || !r.IncludeUsage() || r.Len() != 2 {
		t.Fatalf("model %q stream %v options %v usage %v len %d", r.Model(), r.Stream(), r.HasStreamOptions(), r.IncludeUsage(), r.Len())
	}
	if got := string(r.Raw(1)); got != `{"role": "user", "content": "hi"}` {
		t.Errorf("Raw(1) = %s", got)
	}
	for _, tc := range []struct {
		body                   string
		stream, options, usage bool
	}{
		{`{"messages":[]}`, false, false, false},
		{`{"messages":[],"stream":false,"stream_options":null}`, false, true, false},
		{`{"messages":[],"stream":null,"stream_options":{"include_usage":false}}`, false, true, false},
		{`{"messages":[],"stream":true,"stream_options":{"include_usage":true,"include_usage":false}}`, true, true, false},
		{`{"messages":[],"stream":true,"stream_options":{"include_usag\u0065":true}}`, true, true, true},
		{`{"messages":[],"stream":true,"stream_options":"x"}`, true, true, false},
	} {
		r := parseOK(t, tc.body)
		if r.Stream() != tc.stream || r.HasStreamOptions() != tc.options || r.IncludeUsage() != tc.usage || r.Len() != 0 || r.Model() != "" {
			t.Errorf("%s: stream %v options %v usage %v", tc.body, r.Stream(), r.HasStreamOptions(), r.IncludeUsage())
		}
	}
}

// TestParseChatRequestRefuses: what is refused, and that the error is an
// EInvalid saying why, with a fix.
func TestParseChatRequestRefuses(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{``, "not a JSON object"},
		{`[{"messages":[]}]`, "not a JSON object"},
		{`{"messages":[]`, "not valid JSON"},
		{`{"messages":[]} x`, "not valid JSON"},
		{`{"messages":[{"role":"user",}]}`, "not valid JSON"},
		{`{"messages":[],"x":tru}`, "not valid JSON"},
		{`{"messages":[],"x":"\q"}`, "not valid JSON"},
		{`{"model":"m"}`, `no "messages"`},
		{`{"messages":{"role":"user"}}`, `"messages" is not an array`},
		{`{"messages":null}`, `"messages" is not an array`},
		{`{"messages":[{"role":"user"},"hi"]}`, "messages[1] is not an object"},
		{`{"messages":[],"messages":[]}`, `"messages" twice`},
		{`{"model":"a","messages":[],"mod\u0065l":"b"}`, `"model" twice`},
		{`{"messages":[],"model":7}`, `"model" is not a string`},
		{`{"messages":[],"stream":"yes"}`, `"stream" is not true or false`},
		{`{"messages":[],"stream":1}`, `"stream" is not true or false`},
	} {
		_, err := openai.ParseChatRequest([]byte(tc.body))
		if err == nil || kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) || len(kompact.ErrorFixes(err)) == 0 {
			t.Errorf("%s: %v (fixes %q), want EInvalid %q", tc.body, err, kompact.ErrorFixes(err), tc.want)
		}
	}
}

// TestParseChatRequestDepth: nesting is refused past encoding/json's own
// limit only.
func TestParseChatRequestDepth(t *testing.T) {
	nest := func(n int) string {
		return `{"messages":[{"role":"user","content":"x","deep":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}]}`
	}
	if _, err := openai.ParseChatRequest([]byte(nest(9997))); err != nil {
		t.Errorf("depth 10000: %v", err)
	}
	if _, err := openai.ParseChatRequest([]byte(nest(10001))); err == nil || json.Valid([]byte(nest(10001))) {
		t.Errorf("depth 10004: %v", err)
	}
}

// TestDigest: the digest is the SHA-256 of the message's compact form:
// white space between tokens does not count, white space in strings and
// the order of keys do.
func TestDigest(t *testing.T) {
	r := parseOK(t, `{"messages":[{"role":"user","content":"a b"}, { "role" : "user" ,
		"content":	"a b" }, {"content":"a b","role":"user"}, {"role":"user","content":"a  b"}]}`)
	d := [4][32]byte{r.Digest(0), r.Digest(1), r.Digest(2), r.Digest(3)}
	if d[0] != sha256.Sum256([]byte(`{"role":"user","content":"a b"}`)) || d[1] != d[0] {
		t.Errorf("spacing changes the digest")
	}
	if d[2] == d[0] || d[3] == d[0] {
		t.Errorf("key order or text spacing do not change the digest")
	}
	body := realisticBody(50, true)
	r = parseOK(t, string(body))
	for i := 0; i < r.Len(); i++ {
		var c bytes.Buffer
		if err := json.Compact(&c, r.Raw(i)); err != nil {
			t.Fatal(err)
		}
		if r.Digest(i) != sha256.Sum256(c.Bytes()) {
			t.Fatalf("Digest(%d) is not the SHA-256 of %s", i, c.Bytes())
		}
	}
}

// TestForwardUnchanged: with nothing to replace the body goes as it came:
// the same bytes, not a copy.
func TestForwardUnchanged(t *testing.T) {
	body := []byte(" {\"model\":\"m\",\"messages\":[ {\"role\":\"user\",\"content\":\"hi\"} ,\n{\"role\":\"assistant\",\"content\":\"yo\"} ],\"stream\":true}\n")
	r, err := openai.ParseChatRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 1, 2} {
		got := r.Forward(at, nil, at, false)
		if !bytes.Equal(got, body) || &got[0] != &body[0] {
			t.Errorf("Forward(%d, nil, %d) = %s", at, at, got)
		}
	}
	// A client's stream_options is never rewritten, and a request that
	// does not stream gets none.
	for _, b := range []string{`{"messages":[],"stream":true,"stream_options":null}`, `{"messages":[],"stream":false}`, `{"messages":[]}`} {
		if r := parseOK(t, b); r.CanAskUsage() {
			t.Errorf("%s: CanAskUsage", b)
		}
		if got := parseOK(t, b).Forward(0, nil, 0, true); string(got) != b {
			t.Errorf("askUsage changed %s into %s", b, got)
		}
	}
}

// TestForwardAskUsage: the usage request is added before the closing
// brace, every other byte left alone.
func TestForwardAskUsage(t *testing.T) {
	body := "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}] , \"stream\":true \n}"
	got := string(parseOK(t, body).Forward(0, nil, 0, true))
	want := "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}] , \"stream\":true \n,\"stream_options\":{\"include_usage\":true}}"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if !parseOK(t, body).CanAskUsage() {
		t.Error("CanAskUsage is false")
	}
	r := parseOK(t, got)
	if !r.IncludeUsage() || r.Len() != 1 || r.CanAskUsage() {
		t.Errorf("the forwarded body does not read back: %s", got)
	}
}

// TestForwardSplice: head messages as sent, the summary in the wire form,
// the tail as sent; the bytes outside the array untouched.
func TestForwardSplice(t *testing.T) {
	msgs := []string{`{"role":"system","content":"sys"}`, `{"role": "user", "content": "one"}`, `{"role":"assistant","content":"two"}`,
		`{"role":"user",  "content":"three"}`, `{"role":"assistant","content":"four"}`}
	body := `{"model":"m", "messages": [ ` + strings.Join(msgs, ", ") + ` ], "tools":[{"type":"function"}]}`
	r := parseOK(t, body)
	summary := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}}
	sum := `{"role":"user","content":"summary"}`
	for _, tc := range []struct {
		head, from int
		summary    []kompact.Message
		want       string
	}{
		{1, 3, summary, msgs[0] + "," + sum + "," + msgs[3] + ", " + msgs[4]},
		{0, 5, summary, sum},
		{0, 2, summary, sum + "," + msgs[2] + ", " + msgs[3] + ", " + msgs[4]},
		{5, 5, summary, msgs[0] + ", " + msgs[1] + ", " + msgs[2] + ", " + msgs[3] + ", " + msgs[4] + "," + sum},
		{1, 3, nil, msgs[0] + "," + msgs[3] + ", " + msgs[4]},
		{0, 5, nil, ""},
	} {
		got := string(r.Forward(tc.head, tc.summary, tc.from, false))
		want := `{"model":"m", "messages": [` + tc.want + `], "tools":[{"type":"function"}]}`
		if got != want {
			t.Errorf("Forward(%d, _, %d)\n got %s\nwant %s", tc.head, tc.from, got, want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("not JSON: %s", got)
		}
	}
	if got := string(r.Forward(1, summary, 3, true)); got != string(r.Forward(1, summary, 3, false)) {
		t.Errorf("askUsage changed a request that does not stream: %s", got)
	}
}

// TestForwardByteStable: two parses of one body forward the same bytes.
func TestForwardByteStable(t *testing.T) {
	body := realisticBody(40, true)
	a, b := parseOK(t, string(body)), parseOK(t, string(bytes.Clone(body)))
	summary := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Previous context has been compacted.\n\nsummary")}}}
	for _, ask := range []bool{false, true} {
		x, y := a.Forward(3, summary, 20, ask), b.Forward(3, summary, 20, ask)
		if !bytes.Equal(x, y) || !bytes.Equal(x, a.Forward(3, summary, 20, ask)) {
			t.Fatalf("askUsage %v: two calls differ", ask)
		}
	}
}

func TestForwardPanicsOutOfOrder(t *testing.T) {
	r := parseOK(t, `{"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`)
	for _, c := range [][2]int{{-1, 0}, {2, 1}, {0, 3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Forward(%d, _, %d) did not panic", c[0], c[1])
				}
			}()
			r.Forward(c[0], nil, c[1], false)
		}()
	}
}

// TestParseChatRequestAtMost: a messages array longer than the limit is
// refused at the first message past it (what follows is not read, so
// not even its syntax matters), with a *TooManyMessagesError naming the
// limit; one at the limit parses as ParseChatRequest does, and 0 takes any
// number (issue 21 §4: bounded work per request).
func TestParseChatRequestAtMost(t *testing.T) {
	body := func(n int, tail string) []byte {
		return []byte(`{"model":"m","messages":[` + strings.Repeat(`{"role":"user","content":"x"},`, n) + tail)
	}
	var tooMany *openai.TooManyMessagesError
	if _, err := openai.ParseChatRequestAtMost(body(4, `this is not JSON`), 3); !errors.As(err, &tooMany) || tooMany.Max != 3 {
		t.Fatalf("4 messages then garbage, at most 3: %v, want a TooManyMessagesError of 3", err)
	}
	at := body(2, `{"role":"user","content":"x"}]}`)
	r, err := openai.ParseChatRequestAtMost(at, 3)
	if err != nil || r.Len() != 3 {
		t.Fatalf("3 messages, at most 3: %v", err)
	}
	if r0 := parseOK(t, string(at)); !bytes.Equal(r.Forward(0, nil, 0, false), r0.Forward(0, nil, 0, false)) {
		t.Error("at the limit, the request forwards differently from ParseChatRequest's")
	}
	if r, err := openai.ParseChatRequestAtMost(at, 0); err != nil || r.Len() != 3 {
		t.Fatalf("no limit: %v", err)
	}
}

// TestParseChatRequestAtMostBounded: refusing a body of a million empty
// messages costs what the limit allows, not what the body holds (it noted
// every message's position before: 24 bytes each, ~50 MB here).
func TestParseChatRequestAtMostBounded(t *testing.T) {
	body := []byte(`{"messages":[` + strings.Repeat(`{},`, 1_000_000) + `{}]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := openai.ParseChatRequestAtMost(body, 100)
	runtime.ReadMemStats(&after)
	var tooMany *openai.TooManyMessagesError
	if !errors.As(err, &tooMany) {
		t.Fatalf("err = %v, want a TooManyMessagesError", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("refusing %d bytes of messages at 100 allocated %d bytes, want under 64 KiB", len(body), got)
	}
}
