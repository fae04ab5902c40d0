package fakeresponses_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact/internal/testing/fakeresponses"
)

func post(t *testing.T, url, body string) (*http.Response, string, error) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/v1/responses?x=1", strings.NewReader(body))
	req.Header.Set("Thread-Id", "th_1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// TestFakeCodexScript: the script reads each request's kind and answers
// it as Codex needs; every request is recorded.
func TestFakeCodexScript(t *testing.T) {
	c := &fakeresponses.Codex{Text: "hello", Summary: "S", Tool: fakeresponses.ToolCall{Name: "exec_command", Arguments: `{"cmd":"ls"}`}}
	fake := fakeresponses.New(t, c.Answer)
	for _, tc := range []struct{ body, want string }{
		{`{"stream":true,"tools":[{}],"input":[{"type":"message","role":"user","content":"q"}]}`, `"type":"function_call"`},
		{`{"stream":true,"tools":[{}],"input":[{"type":"function_call_output","call_id":"c","output":"x"}]}`, `"text":"hello"`},
		{`{"stream":true,"tools":[{}],"input":[{"type":"compaction_trigger"}]}`, `"type":"compaction","id":"cmp_fake_2","encrypted_content":"S"`},
		{`{"stream":true,"tools":[],"input":[{"role":"user","content":"summarise"}]}`, `"text":"S"`},
		{`{"tools":[],"input":[{"role":"user","content":"summarise"}]}`, `"object":"response"`},
	} {
		resp, got, err := post(t, fake.URL, tc.body)
		if err != nil || resp.StatusCode != 200 || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %v %q", tc.body, err, got)
			continue
		}
		streamed := strings.Contains(tc.body, `"stream":true`)
		if streamed != strings.HasSuffix(got, "\n\n") || streamed && !strings.Contains(got, "event: response.completed\n") {
			t.Errorf("%s: %q", tc.body, got)
		}
	}
	reqs := fake.Requests()
	if len(reqs) != 5 || reqs[0].Path != "/v1/responses" || reqs[0].RawQuery != "x=1" || reqs[0].Header.Get("Thread-Id") != "th_1" || !strings.Contains(string(reqs[2].Body), "compaction_trigger") {
		t.Errorf("recorded: %d", len(reqs))
	}
}

// TestFakeFailures: errors, and a stream cut before response.completed.
func TestFakeFailures(t *testing.T) {
	answers := []fakeresponses.Answer{
		fakeresponses.Error(429, "rate_limit_error", "slow down"),
		{Events: fakeresponses.Cut(fakeresponses.TextStream("m", "partial", fakeresponses.Usage{Input: 1}))},
		{Events: fakeresponses.Minimal(fakeresponses.Usage{Input: 1}), Abort: true},
	}
	n := 0
	fake := fakeresponses.New(t, func(fakeresponses.Request) fakeresponses.Answer { n++; return answers[n-1] })
	resp, body, err := post(t, fake.URL, `{}`)
	if err != nil || resp.StatusCode != 429 || !strings.Contains(body, `"message":"slow down"`) {
		t.Errorf("the error: %v %q", err, body)
	}
	_, body, err = post(t, fake.URL, `{}`)
	if err != nil || strings.Contains(body, "response.completed") || !strings.Contains(body, "response.output_item.done") {
		t.Errorf("the cut stream: %v %q", err, body)
	}
	if _, _, err = post(t, fake.URL, `{}`); err == nil {
		t.Error("an aborted stream read to its end")
	}
}
