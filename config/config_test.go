package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/service"
	"kompact/toolprune"
)

var update = flag.Bool("update", false, "rewrite docs/reference/default-config.md")

// base is a minimal valid configuration, 5 lines long; cases append to it.
const base = `agents:
  kimi:
    llm:
      base_url: https://api.moonshot.ai/v1
      model: kimi-k2-turbo-preview
`

// TestParseErrors checks that every kind of mistake is an EInvalid error
// with fixes, whose message names the file, the line and the field path.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name string
		yaml string
		line int
		path string // "" for YAML syntax errors and whole-file errors
		msg  string // must appear in the message, after "path: "
		not  string // must not appear anywhere (secrets)
	}{
		// Unknown keys, at each level.
		{"unknown top-level key", "agent:\n  kimi: {}\n", 1, "agent",
			`unknown field; did you mean "agents"? (fields: default_agent, agents)`, ""},
		{"unknown agent key", base + "    compation: {}\n", 6, "agents.kimi.compation",
			`unknown field; did you mean "compaction"? (fields: system_prompt, llm, compaction, gateway)`, ""},
		{"unknown llm key", base + "      temprature: 0.5\n", 6, "agents.kimi.llm.temprature",
			`unknown field; did you mean "temperature"?`, ""},
		{"unknown llm key without a suggestion", base + "      frobnicate: 1\n", 6, "agents.kimi.llm.frobnicate",
			"unknown field (fields: base_url, model, api_key_env, max_context_size, max_answer_bytes, timeout, temperature, max_tokens, top_p, extra_body, api)", ""},
		{"unknown compaction key", base + "    compaction:\n      enable: true\n", 7, "agents.kimi.compaction.enable",
			`unknown field; did you mean "enabled"? (fields: enabled, type, max_preserved_messages, compaction_model, prompt, prompt_file, instructions, settings_overrides, timeout, auto, fidelity, prune)`, ""},
		// compaction.auto and llm.max_context_size, with kimi-cli's bounds.
		{"trigger_ratio below 0.5", base + "    compaction:\n      auto: {trigger_ratio: 0.49}\n", 7, "agents.kimi.compaction.auto.trigger_ratio", "must be between 0.5 and 0.99, got 0.49", ""},
		{"trigger_ratio above 0.99", base + "    compaction:\n      auto: {trigger_ratio: 1}\n", 7, "agents.kimi.compaction.auto.trigger_ratio", "must be between 0.5 and 0.99, got 1", ""},
		{"trigger_ratio a word", base + "    compaction:\n      auto: {trigger_ratio: high}\n", 7, "agents.kimi.compaction.auto.trigger_ratio", "must be a number", ""},
		{"reserved_context_size below 1000", base + "    compaction:\n      auto: {reserved_context_size: 999}\n", 7, "agents.kimi.compaction.auto.reserved_context_size", "must be at least 1000 tokens, got 999", ""},
		{"reserved_context_size above 2^40", base + "    compaction:\n      auto: {reserved_context_size: 1099511627777}\n", 7, "agents.kimi.compaction.auto.reserved_context_size", "must be at least 1000 tokens, got 1099511627777", ""},
		{"trigger_ratio 0", base + "    compaction:\n      auto: {trigger_ratio: 0}\n", 7, "agents.kimi.compaction.auto.trigger_ratio", "must be between 0.5 and 0.99, got 0", ""},
		{"min_recall above 1", base + "    compaction:\n      fidelity: {min_recall: 1.5}\n", 7, "agents.kimi.compaction.fidelity.min_recall", "must be between 0 and 1, got 1.5", ""},
		{"negative appendix_tokens", base + "    compaction:\n      fidelity: {appendix_tokens: -1}\n", 7, "agents.kimi.compaction.fidelity.appendix_tokens", "must be a number of tokens from 0", ""},
		{"fidelity unknown key", base + "    compaction:\n      fidelity: {min_recal: 0.5}\n", 7, "agents.kimi.compaction.fidelity.min_recal", `did you mean "min_recall"?`, ""},
		{"auto unknown key", base + "    compaction:\n      auto: {enable: true}\n", 7, "agents.kimi.compaction.auto.enable", `did you mean "enabled"?`, ""},
		{"auto enabled not a bool", base + "    compaction:\n      auto: {enabled: yes please}\n", 7, "agents.kimi.compaction.auto.enabled", "true or false", ""},
		{"negative max_context_size", base + "      max_context_size: -1\n", 6, "agents.kimi.llm.max_context_size", "must be a number of tokens from 0", ""},
		{"max_context_size a float", base + "      max_context_size: 1.5\n", 6, "agents.kimi.llm.max_context_size", "must be an integer", ""},
		{"prefix suggestion", base + "    compaction:\n      max_preserved: 3\n", 7, "agents.kimi.compaction.max_preserved",
			`did you mean "max_preserved_messages"?`, ""},

		// Wrong types.
		{"string for a number", base + "      temperature: hot\n", 6, "agents.kimi.llm.temperature", `must be a number, got "hot"`, ""},
		{"quoted number", base + "      top_p: \"0.5\"\n", 6, "agents.kimi.llm.top_p", `must be a number, got "0.5"`, ""},
		{"list for a mapping", "agents:\n  kimi:\n    llm:\n      - base_url\n", 4, "agents.kimi.llm", "must be a mapping, got a list", ""},
		{"scalar for a mapping", base + "    compaction: yes\n", 6, "agents.kimi.compaction", `must be a mapping, got "yes"`, ""},
		{"number for a bool", base + "    compaction:\n      enabled: 1\n", 7, "agents.kimi.compaction.enabled", "must be true or false, got 1", ""},
		{"yes for a bool", base + "    compaction:\n      enabled: yes\n", 7, "agents.kimi.compaction.enabled", `must be true or false, got "yes"`, ""},
		{"number for a string", "agents:\n  kimi:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n      model: 1.5\n", 5, "agents.kimi.llm.model", "must be a string, got 1.5", ""},
		{"mapping for a string", base + "    system_prompt: {a: 1}\n", 6, "agents.kimi.system_prompt", "must be a string, got a mapping", ""},
		{"float for an integer", base + "      max_tokens: 1.5\n", 6, "agents.kimi.llm.max_tokens", "must be an integer, got 1.5", ""},
		{"word for an integer", base + "    compaction:\n      max_preserved_messages: two\n", 7, "agents.kimi.compaction.max_preserved_messages", `must be an integer, got "two"`, ""},
		{"list for agents", "agents: [kimi]\n", 1, "agents", "must be a mapping, got a list", ""},
		{"list for extra_body", base + "      extra_body: [1]\n", 6, "agents.kimi.llm.extra_body", "must be a mapping, got a list", ""},

		// Ranges.
		{"temperature too high", base + "      temperature: 2.5\n", 6, "agents.kimi.llm.temperature", "must be between 0 and 2, got 2.5", ""},
		{"negative temperature", base + "      temperature: -0.1\n", 6, "agents.kimi.llm.temperature", "must be between 0 and 2, got -0.1", ""},
		{"top_p too high", base + "      top_p: 1.5\n", 6, "agents.kimi.llm.top_p", "must be between 0 and 1, got 1.5", ""},
		{"NaN temperature", base + "      temperature: .nan\n", 6, "agents.kimi.llm.temperature", "must be between 0 and 2", ""},
		{"zero max_tokens", base + "      max_tokens: 0\n", 6, "agents.kimi.llm.max_tokens", "must be greater than 0, got 0", ""},
		{"huge max_tokens", base + "      max_tokens: 18446744073709551615\n", 6, "agents.kimi.llm.max_tokens", "18446744073709551615 is out of range", ""},
		{"huge max_preserved_messages", base + "    compaction:\n      max_preserved_messages: 9999999999\n", 7, "agents.kimi.compaction.max_preserved_messages", "out of range", ""},

		// Required fields.
		{"missing base_url", "agents:\n  kimi:\n    llm:\n      model: m\n", 3, "agents.kimi.llm.base_url", "required field is missing", ""},
		{"missing model", "agents:\n  kimi:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n", 3, "agents.kimi.llm.model", "required field is missing", ""},
		{"null model", "agents:\n  kimi:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n      model:\n", 3, "agents.kimi.llm.model", "required field is missing", ""},
		{"empty model", "agents:\n  kimi:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n      model: \" \"\n", 5, "agents.kimi.llm.model", "must not be empty", ""},
		{"missing llm", "agents:\n  kimi:\n    system_prompt: hi\n", 2, "agents.kimi.llm", "required field is missing", ""},
		{"empty agent", "agents:\n  kimi:\n", 2, "agents.kimi.llm", "required field is missing", ""},

		// URLs.
		{"ftp URL", "agents:\n  kimi:\n    llm:\n      base_url: ftp://example.com/v1\n      model: m\n", 4, "agents.kimi.llm.base_url", `must be an http or https URL, got "ftp://example.com/v1"`, ""},
		{"URL without scheme", "agents:\n  kimi:\n    llm:\n      base_url: api.moonshot.ai/v1\n      model: m\n", 4, "agents.kimi.llm.base_url", "must be an http or https URL", ""},
		{"URL with credentials", "agents:\n  kimi:\n    llm:\n      base_url: https://me:hunter2@example.com/v1\n      model: m\n", 4, "agents.kimi.llm.base_url", "must not hold a user name or password", "hunter2"},

		// api_key_env: a name, never the key.
		{"api_key_env NAME=value", base + "      api_key_env: MOONSHOT_API_KEY=sk-live-123456\n", 6, "agents.kimi.llm.api_key_env",
			"not NAME=value (got MOONSHOT_API_KEY=…)", "sk-live-123456"},
		{"api_key_env holds a key", base + "      api_key_env: sk-abcdef0123456789abcdef\n", 6, "agents.kimi.llm.api_key_env",
			"looks like an API key", "abcdef0123456789"},
		{"api_key_env holds a hex key", base + "      api_key_env: 3f9a0c1b2d4e5f60718293a4b5c6d7e8f9\n", 6, "agents.kimi.llm.api_key_env",
			"looks like an API key", "3f9a0c1b2d4e"},
		{"api_key_env with a dash", base + "      api_key_env: MY-KEY\n", 6, "agents.kimi.llm.api_key_env",
			`must be the name of an environment variable (letters, digits and _, not starting with a digit), got "MY-KEY"`, ""},
		{"api_key_env starting with a digit", base + "      api_key_env: 1KEY\n", 6, "agents.kimi.llm.api_key_env",
			"must be the name of an environment variable", ""},
		{"api_key_env as a number", base + "      api_key_env: 123456789\n", 6, "agents.kimi.llm.api_key_env",
			"must be the name of an environment variable", "123456789"},

		// Prompts.
		{"prompt and prompt_file", base + "    compaction:\n      prompt: Summarize.\n      prompt_file: compact.md\n", 8, "agents.kimi.compaction.prompt_file",
			"prompt and prompt_file are both set; use one", ""},
		{"instructions too long (issue 33)", base + "    compaction:\n      instructions: " + strings.Repeat("é", kompact.MaxInstructionsLen+1) + "\n", 7, "agents.kimi.compaction.instructions",
			"the text has 4001 characters; standing instructions are at most 4000", ""},
		{"instructions not a string", base + "    compaction:\n      instructions: [a]\n", 7, "agents.kimi.compaction.instructions", "a string", ""},

		// Agents and the default agent.
		{"default_agent names a missing agent", "default_agent: kimmi\n" + base, 1, "default_agent", `no agent named "kimmi" (agents: kimi)`, ""},
		{"default_agent as a list", "default_agent: [kimi]\n" + base, 1, "default_agent", "must be a string, got a list", ""},
		{"empty agents", "agents: {}\n", 1, "agents", "must define at least one agent", ""},
		{"null agents", "default_agent: kimi\nagents:\n", 1, "agents", "required field is missing", ""},
		{"no agents", "default_agent: kimi\n", 1, "agents", "required field is missing", ""},
		{"empty file", "", 1, "agents", "required field is missing", ""},
		{"comments only", "# nothing yet\n", 1, "agents", "required field is missing", ""},
		{"bad agent name", "agents:\n  Kimi:\n    llm: {base_url: 'http://h', model: m}\n", 2, "agents.Kimi", `invalid agent name "Kimi"`, ""},
		{"agent name with a space", "agents:\n  my agent:\n    llm: {base_url: 'http://h', model: m}\n", 2, `agents["my agent"]`, "invalid agent name", ""},

		// Duplicate keys.
		{"duplicate llm key", base + "      model: other\n", 6, "agents.kimi.llm.model", "duplicate key (first set on line 5)", ""},
		{"duplicate agent", base + "  kimi:\n    llm: {base_url: 'http://h', model: m}\n", 6, "agents.kimi", "duplicate key (first set on line 2)", ""},
		{"duplicate top-level key", base + "agents: {}\n", 6, "agents", "duplicate key (first set on line 1)", ""},
		{"duplicate extra_body key", base + "      extra_body:\n        a: 1\n        a: 2\n", 8, "agents.kimi.llm.extra_body.a", "duplicate key (first set on line 7)", ""},

		// extra_body and settings_overrides.
		{"extra_body sets n", base + "      extra_body:\n        n: 2\n", 7, "agents.kimi.llm.extra_body.n", `extra_body may not set "n"`, ""},
		{"extra_body sets stream_options", base + "      extra_body: {stream_options: {}}\n", 6, "agents.kimi.llm.extra_body.stream_options", `extra_body may not set "stream_options"`, ""},
		{"settings_overrides sets n", base + "    compaction:\n      settings_overrides: {n: 2}\n", 7, "agents.kimi.compaction.settings_overrides.n", `may not set "n"`, ""},
		{"extra_body sets model", base + "      extra_body: {model: x}\n", 6, "agents.kimi.llm.extra_body.model", `extra_body may not set "model"`, ""},
		{"extra_body sets stream", base + "      extra_body: {stream: false}\n", 6, "agents.kimi.llm.extra_body.stream", `extra_body may not set "stream"`, ""},
		{"extra_body sets messages", base + "      extra_body: {messages: []}\n", 6, "agents.kimi.llm.extra_body.messages", `extra_body may not set "messages"`, ""},
		{"extra_body sets temperature", base + "      extra_body: {temperature: 1}\n", 6, "agents.kimi.llm.extra_body.temperature", "set temperature as llm.temperature", ""},
		{"extra_body binary value", base + "      extra_body: {a: !!binary AAAA}\n", 6, "agents.kimi.llm.extra_body.a", "unsupported value tag !!binary", ""},
		{"extra_body infinity", base + "      extra_body:\n        a: [1, .inf]\n", 7, "agents.kimi.llm.extra_body.a[1]", ".inf cannot be sent as JSON", ""},
		{"extra_body alias cycle", base + "      extra_body:\n        a: &x {b: *x}\n", 7, "agents.kimi.llm.extra_body.a.b", "an alias refers to a value that contains it", ""},
		{"settings_overrides model not a string", base + "    compaction:\n      settings_overrides:\n        model: 5\n", 8, "agents.kimi.compaction.settings_overrides.model", "must be a string, got 5", ""},
		{"settings_overrides sets stream", base + "    compaction:\n      settings_overrides: {stream: false}\n", 7, "agents.kimi.compaction.settings_overrides.stream", `may not set "stream"`, ""},
		{"settings_overrides bad temperature", base + "    compaction:\n      settings_overrides: {temperature: 3}\n", 7, "agents.kimi.compaction.settings_overrides.temperature", "must be between 0 and 2, got 3", ""},

		// YAML itself.
		{"invalid YAML: mapping in a plain value", base + "      model2: a: b\n", 6, "", "invalid YAML: mapping values are not allowed in this context", ""},
		{"invalid YAML: unclosed flow mapping", base + "      extra_body: {a: 1\n    compaction: {}\n", 6, "", "invalid YAML: did not find expected ',' or '}'", ""},
		{"invalid YAML: bad indentation", base + "    compaction:\n      enabled: true\n     type: kimi\n", 8, "", "invalid YAML: did not find expected key", ""},
		{"invalid YAML: tab", base + "\tcompaction: {}\n", 6, "", "invalid YAML: found a tab character", ""},
		{"invalid YAML: first line", "agents: kimi: x\n", 1, "", "invalid YAML: mapping values are not allowed in this context", ""},
		{"invalid YAML: unclosed flow sequence", "agents: [\n", 1, "", "invalid YAML: did not find expected node content", ""},
		{"invalid YAML: unclosed quote", base + "    system_prompt: 'abc\n    compaction: {}\n", 6, "", "invalid YAML: found unexpected end of stream", ""},
		{"invalid YAML: list item in a mapping", base + "    - kimi\n", 6, "", "invalid YAML", ""},
		{"invalid YAML: unknown anchor", base + "    compaction: *nope\n", 6, "", "invalid YAML: unknown anchor 'nope' referenced", ""},
		{"two documents", base + "---\nagents: {}\n", 6, "", "a second YAML document", ""},
		{"list at the top", "- kimi\n", 1, "", "the file must be a mapping with agents: at the top, got a list", ""},
		{"complex key", base + "      ? [a]\n      : 1\n", 6, "agents.kimi.llm", "keys must be plain strings, got a list", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.yaml), "agents.yaml")
			if err == nil {
				t.Fatalf("no error; parsed %+v", c)
			}
			prefix := "agents.yaml:" + itoa(tc.line) + ": "
			if tc.path != "" {
				prefix += tc.path + ": "
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, prefix) {
				t.Errorf("error %q\ndoes not start with %q", msg, prefix)
			}
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("error %q\ndoes not say %q", msg, tc.msg)
			}
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Errorf("code %q, want %q", kompact.ErrorCodeOf(err), kompact.EInvalid)
			}
			fixes := kompact.ErrorFixes(err)
			if len(fixes) == 0 {
				t.Error("no fixes")
			}
			if tc.not != "" && strings.Contains(msg+strings.Join(fixes, "\n"), tc.not) {
				t.Errorf("the error repeats %q: %q %q", tc.not, msg, fixes)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("the cause is not a *FieldError: %#v", err)
			}
			if fe.File != "agents.yaml" || fe.Line != tc.line || fe.Path != tc.path {
				t.Errorf("FieldError{%q, %d, %q}, want {agents.yaml, %d, %q}", fe.File, fe.Line, fe.Path, tc.line, tc.path)
			}
		})
	}
}

// TestUnknownFieldMessage pins the exact form of an unknown-field error.
func TestUnknownFieldMessage(t *testing.T) {
	doc := "agents:\n  kimi:\n    llm: {base_url: 'https://api.moonshot.ai/v1', model: m}\n" +
		"    compaction:\n      type: kimi\n\n\n\n      enable: true\n"
	_, err := Parse([]byte(doc), "agents.yaml")
	want := `agents.yaml:9: agents.kimi.compaction.enable: unknown field; did you mean "enabled"? (fields: enabled, type, max_preserved_messages, compaction_model, prompt, prompt_file, instructions, settings_overrides, timeout, auto, fidelity, prune)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant  %s", err, want)
	}
	if fixes := kompact.ErrorFixes(err); len(fixes) != 1 || fixes[0] != `Rename "enable" to "enabled".` {
		t.Errorf("fixes %q", fixes)
	}
	_, err = Parse([]byte(base+"      temperature: hot\n"), "agents.yaml")
	if want := `agents.yaml:6: agents.kimi.llm.temperature: must be a number, got "hot"`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

// full is a configuration that sets every field.
const full = `default_agent: work
agents:
  work:
    system_prompt: "You help with code."
    llm:
      base_url: https://api.moonshot.ai/v1
      model: kimi-k2-turbo-preview
      api_key_env: MOONSHOT_API_KEY
      temperature: 0.6
      max_tokens: 32000
      top_p: 1
      extra_body:
        thinking: {type: enabled}
        stop: ["END", 2, 2.5, true, null]
        since: 2024-01-01
        "quoted": '7'
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 0
      compaction_model: kimi-k2-thinking
      prompt_file: prompts/compact.md
      settings_overrides:
        temperature: 0.2
        model: override-model
        tool_choice: auto
        reasoning_effort: low
  local:
    llm:
      base_url: http://localhost:11434/v1
      model: qwen3
    compaction:
      enabled: true
      type: kimi
      prompt: |
        Summarize.
`

func fullAgents(promptFile string) map[string]*kompact.Agent {
	zero := 0
	return map[string]*kompact.Agent{
		"work": {
			Name:         "work",
			SystemPrompt: "You help with code.",
			LLM: kompact.LLMConfig{
				BaseURL:   "https://api.moonshot.ai/v1",
				Model:     "kimi-k2-turbo-preview",
				APIKeyEnv: "MOONSHOT_API_KEY",
				Settings: map[string]any{
					"temperature": 0.6,
					"max_tokens":  int64(32000),
					"top_p":       1.0,
					"thinking":    map[string]any{"type": "enabled"},
					"stop":        []any{"END", int64(2), 2.5, true, nil},
					"since":       "2024-01-01",
					"quoted":      "7",
				},
			},
			Compaction: kompact.CompactionConfig{
				Enabled:              true,
				Type:                 "kimi",
				MaxPreservedMessages: &zero,
				CompactionModel:      "kimi-k2-thinking",
				PromptFile:           promptFile,
				SettingsOverrides: map[string]any{
					"temperature":      0.2,
					"model":            "override-model",
					"tool_choice":      "auto",
					"reasoning_effort": "low",
				},
			},
		},
		"local": {
			Name: "local",
			LLM:  kompact.LLMConfig{BaseURL: "http://localhost:11434/v1", Model: "qwen3"},
			Compaction: kompact.CompactionConfig{
				Enabled: true,
				Type:    "kimi",
				Prompt:  "Summarize.\n",
			},
		},
	}
}

func checkAgents(t *testing.T, got, want map[string]*kompact.Agent) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d agents, want %d", len(got), len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("agent %s missing", name)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("agent %s:\n got %#v\nwant %#v", name, g, w)
		}
	}
}

// TestLoadFullExample reads every field into the domain types, with exact
// values and types.
func TestLoadFullExample(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts", "compact.md"), []byte("Summarize.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agents.yaml")
	if err := os.WriteFile(path, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.DefaultAgent != "work" || c.Path != path || string(c.Source) != full {
		t.Errorf("DefaultAgent %q, Path %q, Source %d bytes", c.DefaultAgent, c.Path, len(c.Source))
	}
	checkAgents(t, c.Agents, fullAgents(filepath.Join(dir, "prompts", "compact.md")))
	if c.Agents["local"].Compaction.MaxPreservedMessages != nil {
		t.Error("MaxPreservedMessages is set for an agent that leaves it unset")
	}
	if got := c.Agents["local"].Compaction.MaxPreserved(); got != kompact.DefaultMaxPreserved {
		t.Errorf("MaxPreserved() = %d, want the default %d", got, kompact.DefaultMaxPreserved)
	}
	if want := []string{"local", "work"}; !reflect.DeepEqual(c.Names(), want) {
		t.Errorf("Names() = %v, want %v", c.Names(), want)
	}
	want := "agents.work.compaction.settings_overrides.tool_choice: ignored: kompact's requests never carry tools"
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], path+":26: "+want) {
		t.Errorf("warnings %q, want one with %q", c.Warnings, want)
	}
}

// TestPromptFileResolution: a relative prompt_file is relative to the
// configuration file's folder; Load checks it exists, Parse does not.
func TestPromptFileResolution(t *testing.T) {
	doc := base + "    compaction:\n      prompt_file: p/compact.md\n"
	c, err := Parse([]byte(doc), filepath.Join("conf", "agents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Agents["kimi"].Compaction.PromptFile, filepath.Join("conf", "p", "compact.md"); got != want {
		t.Errorf("Parse: PromptFile %q, want %q", got, want)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "agents.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":7: agents.kimi.compaction.prompt_file: cannot read "+filepath.Join(dir, "p", "compact.md")) {
		t.Errorf("Load with a missing prompt file: %v", err)
	}
	abs := filepath.Join(dir, "abs.md")
	if err := os.WriteFile(abs, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(base+"    compaction:\n      prompt_file: "+abs+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Agents["kimi"].Compaction.PromptFile; got != abs {
		t.Errorf("absolute PromptFile %q, want it unchanged: %q", got, abs)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), "nope.yaml") ||
		len(kompact.ErrorFixes(err)) == 0 {
		t.Errorf("Load of a missing file: %v (fixes %q)", err, kompact.ErrorFixes(err))
	}
}

// TestAnchorsAndMergeKeys: agents can share settings through YAML anchors
// and merge keys; explicit keys win over merged ones.
func TestAnchorsAndMergeKeys(t *testing.T) {
	doc := `agents:
  a:
    llm: &moonshot
      base_url: https://api.moonshot.ai/v1
      model: kimi-k2-turbo-preview
      api_key_env: MOONSHOT_API_KEY
    compaction: &compact {enabled: true, type: kimi}
  b:
    llm:
      <<: *moonshot
      model: kimi-k2-thinking
    compaction: *compact
`
	c, err := Parse([]byte(doc), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := c.Agents["b"]
	if b.LLM.Model != "kimi-k2-thinking" || b.LLM.BaseURL != "https://api.moonshot.ai/v1" || b.LLM.APIKeyEnv != "MOONSHOT_API_KEY" {
		t.Errorf("merged llm: %+v", b.LLM)
	}
	if !b.CompactionEnabled() {
		t.Error("the aliased compaction block did not enable compaction")
	}
	_, err = Parse([]byte(strings.Replace(doc, "      model: kimi-k2-thinking\n", "      model: x\n      model: y\n", 1)), "agents.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "agents.yaml:12: agents.b.llm.model: duplicate key") {
		t.Errorf("an explicit duplicate next to a merge: %v", err)
	}
}

// TestAliasExpansionIsBounded: a small file cannot expand into a huge one.
func TestAliasExpansionIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(base + "      extra_body:\n        l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
	for i := 1; i < 9; i++ {
		prev := "*l" + itoa(i-1)
		b.WriteString("        l" + itoa(i) + ": &l" + itoa(i) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	_, err := Parse([]byte(b.String()), "agents.yaml")
	if err == nil || !strings.Contains(err.Error(), "once its aliases are expanded") {
		t.Errorf("a billion-laughs document: %v", err)
	}
}

func TestAgentLookup(t *testing.T) {
	c, err := Parse([]byte(full), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Agent("")
	if err != nil || a.Name != "work" {
		t.Errorf(`Agent("") = %v, %v; want the default agent, work`, a, err)
	}
	a, err = c.Agent("local")
	if err != nil || a != c.Agents["local"] {
		t.Errorf(`Agent("local") = %v, %v`, a, err)
	}
	_, err = c.Agent("wrok")
	if kompact.ErrorCodeOf(err) != kompact.ENotFound || err == nil ||
		err.Error() != `no agent "wrok" in agents.yaml; available agents: local, work` {
		t.Errorf(`Agent("wrok") = %v (code %q)`, err, kompact.ErrorCodeOf(err))
	}
	if fixes := kompact.ErrorFixes(err); len(fixes) == 0 || fixes[0] != `Did you mean "work"?` {
		t.Errorf("fixes %q", fixes)
	}

	// No default_agent: one agent is the default; with several, a name is needed.
	one, err := Parse([]byte(base), "one.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a, err := one.Agent(""); err != nil || a.Name != "kimi" {
		t.Errorf(`single agent: Agent("") = %v, %v`, a, err)
	}
	two, err := Parse([]byte(base+"  other:\n    llm: {base_url: 'http://h', model: m}\n"), "two.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = two.Agent("")
	if kompact.ErrorCodeOf(err) != kompact.EInvalid || err == nil || !strings.Contains(err.Error(), "two.yaml sets no default_agent; available agents: kimi, other") {
		t.Errorf(`two agents, no default: Agent("") = %v`, err)
	}
	_, err = Default().Agent("nope")
	if err == nil || !strings.Contains(err.Error(), "in the built-in configuration; available agents: kimi, kimi-thinking") {
		t.Errorf("Default().Agent(nope) = %v", err)
	}
}

// TestDefaultReturnsCopies: changing what Default returns does not change
// the next call's result.
func TestDefaultReturnsCopies(t *testing.T) {
	c := Default()
	c.Agents["kimi"].LLM.Model = "changed"
	c.Agents["kimi-thinking"].LLM.Settings["temperature"] = 0.0
	*c.Agents["kimi"].Compaction.MaxPreservedMessages = 9
	delete(c.Agents, "kimi-thinking")
	d := Default()
	if d.Agents["kimi"].LLM.Model != "kimi-k2-turbo-preview" || d.Agents["kimi-thinking"] == nil ||
		d.Agents["kimi-thinking"].LLM.Settings["temperature"] != 1.0 || *d.Agents["kimi"].Compaction.MaxPreservedMessages != 2 {
		t.Error("Default() shares state between calls")
	}
	if d.Path != "" || !bytes.Equal(d.Source, defaultYAML) || len(d.Warnings) != 0 {
		t.Errorf("Default(): Path %q, %d source bytes, warnings %q", d.Path, len(d.Source), d.Warnings)
	}
}

// TestKCPD01AutoCompactionConfig: compaction.auto and llm.max_context_size parse
// into the agent; the bounds are kimi-cli's, inclusive; an agent without the
// block has automatic compaction off.
func TestKCPD01AutoCompactionConfig(t *testing.T) {
	doc := "agents:\n  a:\n    llm: {base_url: 'https://x.example/v1', model: m, max_context_size: 131072}\n" +
		"    compaction:\n      enabled: true\n      type: kimi\n      auto: {enabled: true, trigger_ratio: 0.99, reserved_context_size: 1000}\n" +
		"  b:\n    llm: {base_url: 'https://x.example/v1', model: m}\n" +
		"  c:\n    llm: {base_url: 'https://x.example/v1', model: m}\n    compaction:\n      auto: {trigger_ratio: 0.5}\n"
	c, err := Parse([]byte(doc), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Agents["a"].Compaction.Auto, (kompact.AutoCompaction{Enabled: true, TriggerRatio: 0.99, ReservedContextSize: 1000}); got != want {
		t.Errorf("a: auto %+v, want %+v", got, want)
	}
	if got := c.Agents["a"].LLM.MaxContextSize; got != 131072 {
		t.Errorf("a: max_context_size %d", got)
	}
	if got := c.Agents["b"].Compaction.Auto; got.Enabled || c.Agents["b"].LLM.MaxContextSize != 0 {
		t.Errorf("b: auto %+v, max_context_size %d; want off and unknown", got, c.Agents["b"].LLM.MaxContextSize)
	}
	if got, want := c.Agents["c"].Compaction.Auto, (kompact.AutoCompaction{TriggerRatio: 0.5, ReservedContextSize: 50000}); got != want {
		t.Errorf("c: auto %+v, want %+v", got, want)
	}
	// What config show prints parses back to the same agents.
	back, _ := shownBack(t, c)
	for _, name := range []string{"a", "b", "c"} {
		if back.Agents[name].Compaction.Auto != c.Agents[name].Compaction.Auto || back.Agents[name].LLM.MaxContextSize != c.Agents[name].LLM.MaxContextSize {
			t.Errorf("%s: round trip changed auto %+v → %+v", name, c.Agents[name].Compaction.Auto, back.Agents[name].Compaction.Auto)
		}
	}
}

// TestDefaultConfig pins the built-in agents.
func TestDefaultConfig(t *testing.T) {
	two := 2
	compaction := kompact.CompactionConfig{Enabled: true, Type: "kimi", MaxPreservedMessages: &two,
		Auto: kompact.AutoCompaction{Enabled: true, TriggerRatio: 0.85, ReservedContextSize: 50000}}
	c := Default()
	if c.DefaultAgent != "kimi" {
		t.Errorf("default_agent %q", c.DefaultAgent)
	}
	for name, want := range map[string]kompact.LLMConfig{
		"kimi":          {BaseURL: "https://api.moonshot.ai/v1", Model: "kimi-k2-turbo-preview", APIKeyEnv: "MOONSHOT_API_KEY"},
		"kimi-thinking": {BaseURL: "https://api.moonshot.ai/v1", Model: "kimi-k2-thinking", APIKeyEnv: "MOONSHOT_API_KEY", Settings: map[string]any{"temperature": 1.0}},
	} {
		a := c.Agents[name]
		if a == nil {
			t.Errorf("no default agent %s", name)
			continue
		}
		if !reflect.DeepEqual(a.LLM, want) {
			t.Errorf("%s: llm %#v, want %#v", name, a.LLM, want)
		}
		if !reflect.DeepEqual(a.Compaction, compaction) {
			t.Errorf("%s: compaction %#v", name, a.Compaction)
		}
		if a.Name != name || !strings.Contains(a.SystemPrompt, "coding assistant") {
			t.Errorf("%s: name %q, system prompt %q", name, a.Name, a.SystemPrompt)
		}
	}
}

// TestEffectiveYAMLRoundTrip: what `config show` prints parses back to the
// same agents, with defaults made explicit.
func TestEffectiveYAMLRoundTrip(t *testing.T) {
	full, err := Parse([]byte(full), filepath.Join("/etc", "kompact", "agents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Config{"default": Default(), "full": full} {
		t.Run(name, func(t *testing.T) {
			back, out := shownBack(t, c)
			if back.DefaultAgent != c.DefaultAgent {
				t.Errorf("default_agent %q, want %q", back.DefaultAgent, c.DefaultAgent)
			}
			want := c.clone().Agents
			for _, a := range want {
				if a.Compaction.MaxPreservedMessages == nil {
					n := a.Compaction.MaxPreserved()
					a.Compaction.MaxPreservedMessages = &n
				}
			}
			checkAgents(t, back.Agents, want)
			if !bytes.Contains(out, []byte("# actions: compact_conversation, compact_up_to_here")) {
				t.Errorf("the effective YAML does not say which actions exist:\n%s", out)
			}
		})
	}
}

// shownBack returns c's effective YAML (what config show prints), which
// must parse, and what it parses to.
func shownBack(t *testing.T, c *Config) (*Config, []byte) {
	t.Helper()
	out, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out, "effective.yaml")
	if err != nil {
		t.Fatalf("the effective YAML does not parse: %v\n%s", err, out)
	}
	return back, out
}

// TestKCP012ConfigDisabledCompaction: a configuration whose compaction block
// is not enabled, or not of type kimi, gives an agent without the actions.
func TestKCP012ConfigDisabledCompaction(t *testing.T) {
	cases := []struct {
		name, block string
		warning     string
	}{
		{"no compaction block", "", ""},
		{"enabled: false", "    compaction:\n      enabled: false\n      type: kimi\n", ""},
		{"enabled unset", "    compaction:\n      type: kimi\n", ""},
		{"type: claude", "    compaction:\n      enabled: true\n      type: claude\n",
			`agents.yaml:8: agents.kimi.compaction: compaction is enabled but type is "claude", not "kimi" or "kimi-code": the compaction actions are unavailable for agent kimi`},
		{"type unset", "    compaction:\n      enabled: true\n",
			`agents.yaml:6: agents.kimi.compaction: compaction is enabled but type is not set: the compaction actions are unavailable for agent kimi (add type: kimi)`},
		{"type: Kimi", "    compaction:\n      enabled: true\n      type: Kimi\n", `type is "Kimi", not "kimi"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(base+tc.block), "agents.yaml")
			if err != nil {
				t.Fatal(err)
			}
			a, err := c.Agent("kimi")
			if err != nil {
				t.Fatal(err)
			}
			if a.CompactionEnabled() {
				t.Error("CompactionEnabled() = true")
			}
			if els := kompact.UIElements(a); len(els) != 0 {
				t.Errorf("UIElements = %v, want none", els)
			}
			switch {
			case tc.warning == "" && len(c.Warnings) != 0:
				t.Errorf("warnings %q, want none", c.Warnings)
			case tc.warning != "" && (len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], tc.warning)):
				t.Errorf("warnings %q, want one with %q", c.Warnings, tc.warning)
			}
		})
	}
	c, err := Parse([]byte(base+"    compaction: {enabled: true, type: kimi}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Agents["kimi"].CompactionEnabled() || len(kompact.UIElements(c.Agents["kimi"])) != 3 {
		t.Error("enabled: true, type: kimi does not enable the actions")
	}
}

// TestKCP020DefaultConfigEnablesKimiCompaction: both built-in agents offer
// both compaction actions.
func TestKCP020DefaultConfigEnablesKimiCompaction(t *testing.T) {
	c := Default()
	for _, name := range []string{"kimi", "kimi-thinking"} {
		a, err := c.Agent(name)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Compaction.Enabled || a.Compaction.Type != kompact.DefaultCompactionType {
			t.Errorf("%s: compaction enabled=%v type=%q, want true, kimi", name, a.Compaction.Enabled, a.Compaction.Type)
		}
		var ids []string
		for _, el := range kompact.UIElements(a) {
			ids = append(ids, el.ID)
		}
		if want := []string{kompact.ActionCompactConversation, kompact.ActionCompactUpToHere, kompact.ActionPruneToolResults}; !reflect.DeepEqual(ids, want) {
			t.Errorf("%s: actions %v, want %v", name, ids, want)
		}
	}
	if got := c.Names(); !reflect.DeepEqual(got, []string{"kimi", "kimi-thinking"}) {
		t.Errorf("default agents %v", got)
	}
}

const referencePath = "../docs/reference/default-config.md"

// TestKCP020ReferenceIsCurrent: the committed reference page is what the
// generator writes today. go test ./config -update rewrites it.
func TestKCP020ReferenceIsCurrent(t *testing.T) {
	want := ReferenceMarkdown(Default())
	if *update {
		if err := os.WriteFile(referencePath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v; run `go run ./cmd/kompact config reference > docs/reference/default-config.md`", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/reference/default-config.md is out of date; run `go run ./cmd/kompact config reference > docs/reference/default-config.md` (or go test ./config -update)")
	}
	for _, s := range []string{
		"DO NOT EDIT",
		"go run ./cmd/kompact config reference > docs/reference/default-config.md",
		"| `kimi` | `kimi-k2-turbo-preview` | `https://api.moonshot.ai/v1` | `MOONSHOT_API_KEY` | (none) | yes | `kimi` | 2 | (the agent's model) | compact_conversation, compact_up_to_here, prune_tool_results |",
		"| `kimi-thinking` | `kimi-k2-thinking` | `https://api.moonshot.ai/v1` | `MOONSHOT_API_KEY` | `{\"temperature\":1}` | yes | `kimi` | 2 | (the agent's model) | compact_conversation, compact_up_to_here, prune_tool_results |",
		"```yaml\n" + string(defaultYAML) + "```\n",
	} {
		if !bytes.Contains(want, []byte(s)) {
			t.Errorf("the reference lacks %q", s)
		}
	}
	if !bytes.Equal(ReferenceMarkdown(Default()), want) {
		t.Error("ReferenceMarkdown is not deterministic")
	}
}

func TestReferenceMarkdownEscapes(t *testing.T) {
	c, err := Parse([]byte("agents:\n  x:\n    llm: {base_url: 'http://h', model: 'a|b'}\n    system_prompt: \"```\"\n"), "odd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	md := string(ReferenceMarkdown(c))
	if !strings.Contains(md, "`a\\|b`") {
		t.Error("a | in a table cell is not escaped")
	}
	if !strings.Contains(md, "````yaml\n") || !strings.Contains(md, "\n````\n") {
		t.Errorf("the YAML fence is not longer than the backticks inside:\n%s", md)
	}
	if !strings.Contains(md, "generated from `odd.yaml`") || !strings.Contains(md, "none (compaction disabled)") {
		t.Errorf("reference for odd.yaml:\n%s", md)
	}
	c.Source = nil
	if md := string(ReferenceMarkdown(c)); !strings.Contains(md, "````yaml\nagents:\n  x:\n") {
		t.Errorf("without a source, the reference does not show the effective YAML:\n%s", md)
	}
}

func TestParseWithoutName(t *testing.T) {
	_, err := Parse([]byte("agents: {}\n"), "")
	if err == nil || !strings.HasPrefix(err.Error(), "configuration:1: agents: ") {
		t.Errorf("error %v", err)
	}
}

// TestKCP014CompactionModelPrecedence: the compaction model is the session's
// compaction_model, else compaction.compaction_model, else
// settings_overrides.model, else llm.model (KCP-014); tools and tool_choice
// in settings_overrides never reach the request (KCP-004).
func TestKCP014CompactionModelPrecedence(t *testing.T) {
	llm := "agents:\n  a:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n      model: agent-model\n" +
		"      temperature: 0.6\n      max_tokens: 1000\n      extra_body: {thinking: {type: enabled}}\n"
	cases := []struct {
		name, compaction, session, want string
	}{
		{"session wins over everything", "compaction_model: block-model\n      settings_overrides: {model: override-model}", "session-model", "session-model"},
		{"compaction_model wins over settings_overrides", "compaction_model: block-model\n      settings_overrides: {model: override-model}", "", "block-model"},
		{"settings_overrides.model wins over llm.model", "settings_overrides: {model: override-model}", "", "override-model"},
		{"llm.model last", "type: kimi", "", "agent-model"},
		{"session over llm.model", "type: kimi", "session-model", "session-model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(llm+"    compaction:\n      enabled: true\n      "+tc.compaction+"\n"), "agents.yaml")
			if err != nil {
				t.Fatal(err)
			}
			a, err := c.Agent("a")
			if err != nil {
				t.Fatal(err)
			}
			rc := service.EffectiveRequest(a, &kompact.Session{CompactionModel: tc.session})
			if rc.Model != tc.want {
				t.Errorf("model %q, want %q", rc.Model, tc.want)
			}
			if _, ok := rc.Fields["model"]; ok {
				t.Error("the fields carry a model")
			}
			if rc.BaseURL != "https://api.moonshot.ai/v1" {
				t.Errorf("base URL %q", rc.BaseURL)
			}
		})
	}
}

func TestKCP004SettingsOverridesCannotEnableTools(t *testing.T) {
	doc := base + "      temperature: 0.6\n      max_tokens: 1000\n      extra_body: {thinking: {type: enabled}}\n" +
		"    compaction:\n      enabled: true\n      type: kimi\n      settings_overrides:\n" +
		"        temperature: 0.2\n        tools: [{type: function, function: {name: ReadFile}}]\n        tool_choice: required\n"
	c, err := Parse([]byte(doc), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 2 || !strings.Contains(c.Warnings[0], "settings_overrides.tools: ignored") ||
		!strings.Contains(c.Warnings[1], "settings_overrides.tool_choice: ignored") {
		t.Errorf("warnings %q", c.Warnings)
	}
	rc := service.EffectiveRequest(c.Agents["kimi"], nil)
	want := map[string]any{"temperature": 0.2, "max_tokens": int64(1000), "thinking": map[string]any{"type": "enabled"}}
	if !reflect.DeepEqual(rc.Fields, want) {
		t.Errorf("fields %#v, want %#v", rc.Fields, want)
	}
	if rc.Model != "kimi-k2-turbo-preview" || rc.APIKeyEnv != "" {
		t.Errorf("model %q, api_key_env %q", rc.Model, rc.APIKeyEnv)
	}

	// One rule for every place a request field is set: a tool field in
	// extra_body is accepted with the same warning, and never sent.
	doc = base + "      extra_body: {tools: [], tool_choice: auto, parallel_tool_calls: true, thinking: {type: enabled}}\n" +
		"    compaction: {enabled: true, type: kimi}\n"
	if c, err = Parse([]byte(doc), "agents.yaml"); err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 3 || !strings.HasSuffix(c.Warnings[1], "agents.kimi.llm.extra_body.tool_choice: ignored: kompact's requests never carry tools") {
		t.Errorf("warnings %q", c.Warnings)
	}
	want = map[string]any{"thinking": map[string]any{"type": "enabled"}}
	if rc = service.EffectiveRequest(c.Agents["kimi"], nil); !reflect.DeepEqual(rc.Fields, want) {
		t.Errorf("fields %#v, want %#v", rc.Fields, want)
	}
	if rc = kompact.ChatRequest(c.Agents["kimi"]); !reflect.DeepEqual(rc.Fields, want) {
		t.Errorf("chat fields %#v, want %#v", rc.Fields, want)
	}
}

// TestDocsExamplesParse: every YAML example in docs/config.md is valid.
func TestDocsExamplesParse(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, part := range strings.Split(string(doc), "```yaml\n")[1:] {
		end := strings.Index(part, "```")
		if end < 0 {
			t.Fatal("an unterminated yaml block")
		}
		block := part[:end]
		// Undo the indentation of blocks nested in a list item.
		lines := strings.Split(block, "\n")
		indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
		for i, l := range lines {
			if len(l) >= indent {
				lines[i] = l[indent:]
			}
		}
		block = strings.Join(lines, "\n")
		if !strings.Contains(block, "agents:") {
			continue // a fragment
		}
		blocks++
		if _, err := Parse([]byte(block), "docs.yaml"); err != nil {
			t.Errorf("example does not parse: %v\n%s", err, block)
		}
	}
	if blocks < 2 {
		t.Errorf("found %d complete examples, want at least 2", blocks)
	}
}

func TestSuggest(t *testing.T) {
	fields := compactionFields
	for in, want := range map[string]string{
		"enable": "enabled", "tpye": "type", "Type": "type", "prompt_fil": "prompt_file",
		"compaction_modle": "compaction_model", "max_preserved": "max_preserved_messages", "x": "", "zzzzzz": "",
	} {
		if got := suggest(in, fields); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestFidelityConfig reads compaction.fidelity and writes it back.
func TestFidelityConfig(t *testing.T) {
	c, err := Parse([]byte(base+"    compaction:\n      enabled: true\n      type: kimi\n      fidelity: {min_recall: 0.5, appendix_tokens: 300}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Agent("kimi")
	if got := a.Compaction.Fidelity; got != (kompact.FidelityOptions{MinRecall: 0.5, AppendixTokens: 300}) {
		t.Fatalf("fidelity %+v", got)
	}
	out, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "fidelity:\n") || !strings.Contains(string(out), "min_recall: 0.5") || !strings.Contains(string(out), "appendix_tokens: 300") {
		t.Fatalf("written back without the fidelity block:\n%s", out)
	}
}

// TestFidelityGateConfig: compaction.fidelity.gate is on unless set false,
// and false is written back.
func TestFidelityGateConfig(t *testing.T) {
	c, err := Parse([]byte(base+"    compaction:\n      enabled: true\n      type: kimi\n      fidelity: {gate: false}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Agent("kimi")
	if !a.Compaction.Fidelity.NoGate {
		t.Fatalf("fidelity %+v: gate: false not read", a.Compaction.Fidelity)
	}
	out, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "gate: false") {
		t.Fatalf("written back without gate: false:\n%s", out)
	}
	c, err = Parse([]byte(base+"    compaction:\n      enabled: true\n      type: kimi\n      fidelity: {gate: true}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := c.Agent("kimi"); a.Compaction.Fidelity.NoGate {
		t.Fatal("gate: true read as off")
	}
}

// TestCompactionInstructions: compaction.instructions is read as written
// (the longest allowed too: MaxInstructionsLen code points, not bytes), and
// written back by the configuration's YAML (issue 33 §2).
func TestCompactionInstructions(t *testing.T) {
	for _, text := range []string{"Keep the schema.\nAnd the flags.", strings.Repeat("é", kompact.MaxInstructionsLen)} {
		doc := base + "    compaction:\n      enabled: true\n      type: kimi\n      instructions: " + strconv.Quote(text) + "\n"
		c, err := Parse([]byte(doc), "agents.yaml")
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.Agent("kimi")
		if err != nil || a.Compaction.Instructions != text {
			t.Fatalf("instructions %q, %v; want %q", a.Compaction.Instructions, err, text)
		}
		if b, out := writtenBack(t, c); b.Compaction.Instructions != text {
			t.Fatalf("written back: %q\n%s", b.Compaction.Instructions, out)
		}
	}
}

// TestCompactionPrune: compaction.prune's three fields are read (unset
// ones stay nil: toolprune's defaults), written back by EffectiveYAML, and
// bounded like the action's body fields (toolprune.MaxSetting).
func TestCompactionPrune(t *testing.T) {
	doc := base + "    compaction:\n      enabled: true\n      type: kimi\n      prune: {enabled: true, min_chars: 0}\n"
	c, err := Parse([]byte(doc), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Agent("kimi")
	if p := a.Compaction.Prune; !p.Enabled || p.KeepRecent != nil || p.MinChars == nil || *p.MinChars != 0 {
		t.Fatalf("prune %+v", p)
	}
	if b, out := writtenBack(t, c); !reflect.DeepEqual(b.Compaction.Prune, a.Compaction.Prune) {
		t.Fatalf("written back: %+v\n%s", b.Compaction.Prune, out)
	}
	if MaxPruneSetting != toolprune.MaxSetting {
		t.Errorf("MaxPruneSetting %d, toolprune.MaxSetting %d", MaxPruneSetting, toolprune.MaxSetting)
	}
	for _, bad := range []string{"{keep_recent: -1}", "{min_chars: 1000001}", "{enabled: yes please}", "{keep: 3}"} {
		if _, err := Parse([]byte(base+"    compaction:\n      enabled: true\n      type: kimi\n      prune: "+bad+"\n"), "agents.yaml"); kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Errorf("prune: %s: %v", bad, err)
		}
	}
}

// writtenBack is agent kimi of c written by EffectiveYAML and read again,
// and the YAML.
func writtenBack(t *testing.T, c *Config) (*kompact.Agent, []byte) {
	t.Helper()
	out, err := c.EffectiveYAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out, "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := back.Agent("kimi")
	if err != nil {
		t.Fatal(err)
	}
	return b, out
}
