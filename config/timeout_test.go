package config

import (
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/service"
)

// TestCompactionTimeout: compaction.timeout is a positive duration that
// bounds one action's LLM calls; absent, the default applies; it survives
// the effective YAML.
func TestCompactionTimeout(t *testing.T) {
	c, err := Parse([]byte(base+"    compaction:\n      enabled: true\n      type: kimi\n      timeout: 90s\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cc := c.Agents["kimi"].Compaction
	if cc.Timeout != 90*time.Second || cc.LLMTimeout() != 90*time.Second {
		t.Errorf("Timeout %s, LLMTimeout %s; want 90s", cc.Timeout, cc.LLMTimeout())
	}
	y, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "timeout: 1m30s") {
		t.Errorf("effective YAML lacks the timeout:\n%s", y)
	}
	c, err = Parse([]byte(base), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Agents["kimi"].Compaction.LLMTimeout(); got != 10*time.Minute {
		t.Errorf("default LLMTimeout %s, want 10m", got)
	}
}

// TestCompactionTimeoutErrors: anything but a positive duration is an
// EInvalid error naming the field and how to write it.
func TestCompactionTimeoutErrors(t *testing.T) {
	for _, v := range []string{"600", "0s", "-5m", "soon", "[10m]"} {
		_, err := Parse([]byte(base+"    compaction:\n      timeout: "+v+"\n"), "agents.yaml")
		ke, ok := err.(*kompact.Error)
		if !ok || ke.Code != kompact.EInvalid {
			t.Errorf("timeout: %s: error %v, want EInvalid", v, err)
			continue
		}
		if !strings.Contains(ke.Message, "agents.kimi.compaction.timeout") || !strings.Contains(ke.Message, "10m") ||
			len(ke.Fixes) == 0 || !strings.Contains(strings.Join(ke.Fixes, " "), "90s, 10m or 1h") {
			t.Errorf("timeout: %s: %q %q", v, ke.Message, ke.Fixes)
		}
	}
}

// TestLLMBounds: llm.max_answer_bytes and llm.timeout are read, default
// to 4 MiB and 10m when absent, survive the effective YAML, and reach
// the request configurations of compactions and replies.
func TestLLMBounds(t *testing.T) {
	c, err := Parse([]byte(base+"      max_answer_bytes: 65536\n      timeout: 2m\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := c.Agents["kimi"]
	if a.LLM.MaxAnswerBytes != 65536 || a.LLM.AnswerLimit() != 65536 || a.LLM.ReplyTimeout() != 2*time.Minute {
		t.Errorf("MaxAnswerBytes %d, ReplyTimeout %s", a.LLM.MaxAnswerBytes, a.LLM.ReplyTimeout())
	}
	if service.EffectiveRequest(a, nil).MaxAnswerBytes != 65536 || kompact.ChatRequest(a).MaxAnswerBytes != 65536 {
		t.Error("the cap does not reach the request configurations")
	}
	y, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "max_answer_bytes: 65536") || !strings.Contains(string(y), "timeout: 2m0s") {
		t.Errorf("effective YAML lacks the bounds:\n%s", y)
	}
	c, err = Parse([]byte(base), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Agents["kimi"].LLM; l.AnswerLimit() != 4<<20 || l.ReplyTimeout() != 10*time.Minute {
		t.Errorf("defaults: %d, %s", l.AnswerLimit(), l.ReplyTimeout())
	}
	for _, v := range []string{"100", "2147483648", "4MiB", "-1"} {
		_, err := Parse([]byte(base+"      max_answer_bytes: "+v+"\n"), "agents.yaml")
		ke, ok := err.(*kompact.Error)
		if !ok || ke.Code != kompact.EInvalid || !strings.Contains(ke.Message, "llm.max_answer_bytes") {
			t.Errorf("max_answer_bytes: %s: %v", v, err)
		}
	}
	if _, err := Parse([]byte(base+"      timeout: 600\n"), "agents.yaml"); err == nil || !strings.Contains(err.Error(), "llm.timeout") {
		t.Errorf("timeout: 600: %v", err)
	}
}
