package config

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kompact"
)

// EffectiveYAML returns c as YAML, as loaded: every agent in name order,
// relative prompt files resolved, and max_preserved_messages and enabled
// shown even when the file left them to their defaults. The original
// comments are not kept. Parsing the result gives the same agents.
func (c *Config) EffectiveYAML() ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	if c.DefaultAgent != "" {
		addField(root, "default_agent", strNode(c.DefaultAgent))
	}
	agents := &yaml.Node{Kind: yaml.MappingNode}
	for _, name := range c.Names() {
		an, err := agentNode(c.Agents[name])
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", name, err)
		}
		addField(agents, name, an)
	}
	addField(root, "agents", agents)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// addBounds adds the llm fields that bound a call, when they are set.
func addBounds(llm *yaml.Node, l *kompact.LLMConfig) {
	if l.MaxAnswerBytes > 0 {
		addField(llm, "max_answer_bytes", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(l.MaxAnswerBytes, 10)})
	}
	if l.Timeout > 0 {
		addField(llm, "timeout", strNode(l.Timeout.String()))
	}
}

func agentNode(a *kompact.Agent) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	if a.SystemPrompt != "" {
		addField(n, "system_prompt", strNode(a.SystemPrompt))
	}
	llm, err := llmNode(&a.LLM)
	if err != nil {
		return nil, err
	}
	addField(n, "llm", llm)
	comp, err := compactionNode(a.Compaction)
	if err != nil {
		return nil, err
	}
	addField(n, "compaction", comp)
	n.Content[len(n.Content)-2].LineComment = "# actions: " + actionList(a)
	if g := a.Gateway; g.Enabled || g.ForwardAuthorization || g.PrecomputeRatio != nil || g.StreamUsage != nil || g.Compaction != "" {
		addField(n, "gateway", gatewayNode(g))
	}
	return n, nil
}

// llmNode is an agent's llm block: its own fields, the bounds, the
// settings kompact knows by name and the others under extra_body.
func llmNode(l *kompact.LLMConfig) (*yaml.Node, error) {
	llm := &yaml.Node{Kind: yaml.MappingNode}
	if l.API != "" {
		addField(llm, "api", strNode(l.API))
	}
	addField(llm, "base_url", strNode(l.BaseURL))
	addField(llm, "model", strNode(l.Model))
	if l.APIKeyEnv != "" {
		addField(llm, "api_key_env", strNode(l.APIKeyEnv))
	}
	if l.MaxContextSize > 0 {
		addField(llm, "max_context_size", intNode(l.MaxContextSize))
	}
	addBounds(llm, l)
	extra := map[string]any{}
	for k, v := range l.Settings {
		extra[k] = v
	}
	for _, k := range ownFields {
		if v, ok := extra[k]; ok {
			vn, err := valueNode(v)
			if err != nil {
				return nil, err
			}
			addField(llm, k, vn)
			delete(extra, k)
		}
	}
	if len(extra) > 0 {
		vn, err := valueNode(extra)
		if err != nil {
			return nil, err
		}
		addField(llm, "extra_body", vn)
	}
	return llm, nil
}

// compactionNode is an agent's compaction block, with its auto, fidelity
// and prune blocks when they are set.
func compactionNode(cc kompact.CompactionConfig) (*yaml.Node, error) {
	comp := &yaml.Node{Kind: yaml.MappingNode}
	addField(comp, "enabled", boolNode(cc.Enabled))
	if cc.Type != "" {
		addField(comp, "type", strNode(cc.Type))
	}
	mp := intNode(cc.MaxPreserved())
	if cc.MaxPreservedMessages == nil {
		mp.LineComment = "# default"
	}
	addField(comp, "max_preserved_messages", mp)
	for _, f := range []struct{ name, value string }{
		{"compaction_model", cc.CompactionModel}, {"prompt", cc.Prompt}, {"prompt_file", cc.PromptFile},
		{"instructions", cc.Instructions},
	} {
		if f.value != "" {
			addField(comp, f.name, strNode(f.value))
		}
	}
	if cc.Timeout > 0 {
		addField(comp, "timeout", strNode(cc.Timeout.String()))
	}
	if len(cc.SettingsOverrides) > 0 {
		vn, err := valueNode(cc.SettingsOverrides)
		if err != nil {
			return nil, err
		}
		addField(comp, "settings_overrides", vn)
	}
	if au := cc.Auto; au.Enabled || au.TriggerRatio != 0 || au.ReservedContextSize != 0 {
		au = au.Effective()
		an := &yaml.Node{Kind: yaml.MappingNode}
		addField(an, "enabled", boolNode(au.Enabled))
		addField(an, "trigger_ratio", floatNode(au.TriggerRatio))
		addField(an, "reserved_context_size", intNode(au.ReservedContextSize))
		addField(comp, "auto", an)
	}
	if fo := cc.Fidelity; fo != (kompact.FidelityOptions{}) {
		fn := &yaml.Node{Kind: yaml.MappingNode}
		addField(fn, "min_recall", floatNode(fo.MinRecall))
		addField(fn, "appendix_tokens", intNode(fo.AppendixTokens))
		if fo.NoGate {
			addField(fn, "gate", boolNode(false))
		}
		addField(comp, "fidelity", fn)
	}
	if po := cc.Prune; po.Enabled || po.KeepRecent != nil || po.MinChars != nil {
		pn := &yaml.Node{Kind: yaml.MappingNode}
		addField(pn, "enabled", boolNode(po.Enabled))
		for _, f := range []struct {
			name string
			v    *int
		}{{"keep_recent", po.KeepRecent}, {"min_chars", po.MinChars}} {
			if f.v != nil {
				addField(pn, f.name, intNode(*f.v))
			}
		}
		addField(comp, "prune", pn)
	}
	return comp, nil
}

// gatewayNode is an agent's gateway block, every field with its value.
func gatewayNode(g kompact.GatewayConfig) *yaml.Node {
	gn := &yaml.Node{Kind: yaml.MappingNode}
	addField(gn, "enabled", boolNode(g.Enabled))
	addField(gn, "forward_authorization", boolNode(g.ForwardAuthorization))
	addField(gn, "precompute_ratio", floatNode(g.Precompute()))
	addField(gn, "stream_usage", boolNode(g.AskStreamUsage()))
	if g.Compaction != "" {
		addField(gn, "compaction", strNode(g.Compaction))
	}
	return gn
}

// actionList names the session actions agent a offers.
func actionList(a *kompact.Agent) string {
	var ids []string
	for _, el := range kompact.UIElements(a) {
		ids = append(ids, el.ID)
	}
	if len(ids) == 0 {
		return "none (compaction disabled)"
	}
	return strings.Join(ids, ", ")
}

func addField(m *yaml.Node, key string, v *yaml.Node) {
	k := &yaml.Node{}
	k.SetString(key)
	m.Content = append(m.Content, k, v)
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{}
	n.SetString(s)
	return n
}

// valueNode converts a JSON-compatible Go value to a YAML node; maps are
// written in key order, and floats keep a decimal point so that they read
// back as floats.
func valueNode(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range sortedKeys(v) {
			vn, err := valueNode(v[k])
			if err != nil {
				return nil, err
			}
			addField(n, k, vn)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range v {
			en, err := valueNode(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, en)
		}
		return n, nil
	case string:
		return strNode(v), nil
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		switch {
		case math.IsInf(v, 1):
			s = ".inf"
		case math.IsInf(v, -1):
			s = "-.inf"
		case math.IsNaN(v):
			s = ".nan"
		case !strings.ContainsAny(s, ".e"):
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}, nil
	}
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return n, nil
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func floatNode(f float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}
