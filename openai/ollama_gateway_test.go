package openai_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testenv"
	"kompact/openai"
)

// TestOllamaGatewayWire: a client's streamed request, parsed, forwarded
// with the usage asked for, and relayed from a real Ollama server: the
// stream reaches the client whole but for the usage chunk, whose report
// the relay read.
func TestOllamaGatewayWire(t *testing.T) {
	base, model := testenv.Ollama(t)
	body := `{"model":"` + model + `","stream":true,"max_tokens":8,"messages":[{"role":"user","content":"Say hi."}]}`
	r, err := openai.ParseChatRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	fwd := r.Forward(0, nil, 0, !r.IncludeUsage())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := (&openai.Upstream{}).ChatCompletions(ctx, kompact.LLMConfig{BaseURL: base, Model: model}, fwd, "")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var out bytes.Buffer
	u, err := openai.RelayStream(&out, nil, resp.Body, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u == nil || u.InputOther+u.InputCacheRead == 0 {
		t.Errorf("no usage read: %v", u)
	}
	if s := out.String(); strings.Contains(s, `"usage":{`) || !strings.Contains(s, "data: [DONE]") {
		t.Errorf("relayed stream:\n%s", s)
	}
}
