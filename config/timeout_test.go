package config

import (
	"strings"
	"testing"
	"time"

	"kompact"
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
