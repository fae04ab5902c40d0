package config

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	"kompact"
	"kompact/internal/urlsecret"
)

// The fields of each mapping, in the order the docs list them.
var (
	topFields        = []string{"default_agent", "agents"}
	agentFields      = []string{"system_prompt", "llm", "compaction", "gateway"}
	llmFields        = []string{"base_url", "model", "api_key_env", "max_context_size", "max_answer_bytes", "timeout", "temperature", "max_tokens", "top_p", "extra_body", "api"}
	compactionFields = []string{"enabled", "type", "max_preserved_messages", "compaction_model", "prompt", "prompt_file", "instructions", "settings_overrides", "timeout", "auto", "fidelity", "prune"}
	autoFields       = []string{"enabled", "trigger_ratio", "reserved_context_size"}
	fidelityFields   = []string{"min_recall", "appendix_tokens", "gate"}
	pruneFields      = []string{"enabled", "keep_recent", "min_chars"}
	gatewayFields    = []string{"enabled", "forward_authorization", "precompute_ratio", "stream_usage", "compaction"}
)

// ownFields are the request settings that have their own llm fields. What
// every other request field means is kompact.RequestField's table.
var ownFields = kompact.OwnFields

// toolFieldWarning is the warning for a tool field, wherever it is set.
const toolFieldWarning = "ignored: kompact's requests never carry tools"

// Names and values the schema accepts.
var (
	agentNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)
	envNameRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// root walks the top-level mapping.
func (p *parser) root(n *yaml.Node) (*Config, error) {
	if isNull(n) {
		return nil, p.errorf(nil, "agents", "required field is missing: the file defines no agents").
			WithFixes("Add an agents: mapping with at least one agent; `kompact config show` prints a complete example.")
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "", "the file must be a mapping with agents: at the top, got %s", describe(n)).
			WithFixes("Start the file with agents: and one agent under it; `kompact config show` prints a complete example.")
	}
	f, err := p.fields(n, "", topFields)
	if err != nil {
		return nil, err
	}
	c := &Config{Agents: map[string]*kompact.Agent{}}
	ae, ok := f["agents"]
	if !ok {
		return nil, p.errorf(n, "agents", "required field is missing: the file defines no agents").
			WithFixes("Add an agents: mapping with at least one agent; `kompact config show` prints a complete example.")
	}
	agents, err := p.mapping(ae.val, "agents")
	if err != nil {
		return nil, err
	}
	if len(agents) == 0 {
		return nil, p.errorf(ae.key, "agents", "must define at least one agent").
			WithFixes("Add an agent under agents:, with at least llm.base_url and llm.model.")
	}
	for _, e := range agents {
		path := join("agents", e.name)
		if !agentNameRE.MatchString(e.name) {
			return nil, p.errorf(e.key, path, "invalid agent name %q: use lower-case letters, digits, _, . and -, starting with a letter or digit", e.name).
				WithFixes(fmt.Sprintf("Rename it, e.g. to %q.", fixName(e.name)))
		}
		a, err := p.agent(e, path)
		if err != nil {
			return nil, err
		}
		c.Agents[e.name] = a
	}
	if de, ok := f["default_agent"]; ok {
		name, err := p.str(de.val, "default_agent")
		if err != nil {
			return nil, err
		}
		if _, ok := c.Agents[name]; !ok && name != "" {
			names := c.Names()
			err := p.errorf(de.val, "default_agent", "no agent named %q (agents: %s)", name, strings.Join(names, ", "))
			return nil, didYouMean(err, name, names).WithFixes("Name one of the agents, or remove default_agent.")
		}
		c.DefaultAgent = name
	}
	return c, nil
}

// fixName suggests a valid agent name for s.
func fixName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteRune('-')
		}
	}
	out := strings.TrimLeft(b.String(), "_.-")
	if out == "" {
		return "agent"
	}
	return out
}

func (p *parser) agent(e entry, path string) (*kompact.Agent, error) {
	a := &kompact.Agent{Name: e.name}
	if isNull(e.val) {
		return nil, p.missing(e.key, join(path, "llm"), "an llm: mapping with base_url and model")
	}
	s := p.section(e.val, path, agentFields)
	read(s, "system_prompt", &a.SystemPrompt, p.str)
	if s.err != nil {
		return nil, s.err
	}
	le, lpath, ok := s.get("llm")
	if !ok {
		return nil, p.missing(e.key, join(path, "llm"), "an llm: mapping with base_url and model")
	}
	a.LLM, s.err = p.llm(le, lpath)
	if ce, cpath, ok := s.get("compaction"); ok && s.err == nil {
		a.Compaction, s.err = p.compaction(ce, cpath, e.name)
	}
	if ge, gpath, ok := s.get("gateway"); ok && s.err == nil {
		a.Gateway, s.err = p.gateway(ge, gpath)
	}
	if s.err != nil {
		return nil, s.err
	}
	return a, nil
}

// gateway reads an agent's gateway block (docs/gateway.md): enabled,
// forward_authorization and stream_usage true or false, precompute_ratio
// from 0 (off) to 1.
func (p *parser) gateway(e entry, path string) (kompact.GatewayConfig, error) {
	var g kompact.GatewayConfig
	s := p.section(e.val, path, gatewayFields)
	read(s, "enabled", &g.Enabled, p.boolean)
	read(s, "forward_authorization", &g.ForwardAuthorization, p.boolean)
	var ratio float64
	if n, rpath, ok := read(s, "precompute_ratio", &ratio, p.number); ok {
		if !(ratio >= 0 && ratio <= 1) {
			s.err = p.errorf(n, rpath, "must be between 0 and 1, got %s", n.Value).
				WithFixes("Use the share of the trigger's token count at which to start compacting in the background, e.g. 0.8; 0 turns the precompute off.")
		}
		g.PrecomputeRatio = &ratio
	}
	var usage bool
	if _, _, ok := read(s, "stream_usage", &usage, p.boolean); ok {
		g.StreamUsage = &usage
	}
	read(s, "compaction", &g.Compaction, p.gatewayCompaction)
	return g, s.err
}

// gatewayCompaction reads gateway.compaction: "forward" (the default) or
// "wait".
func (p *parser) gatewayCompaction(n *yaml.Node, path string) (string, error) {
	s, err := p.str(n, path)
	if err != nil || s == "" || s == "forward" {
		return "", err
	}
	if s != "wait" {
		return "", p.errorf(n, path, "must be forward or wait, got %q", s).
			WithFixes("Write compaction: wait to have a client's own compaction request wait for a running precompute, or leave it out (forward: it goes upstream).")
	}
	return s, nil
}

// anthropicAPI is llm.api's value for Anthropic's Messages API
// (anthropic.API).
const anthropicAPI = "anthropic"

// api reads llm.api: "openai" (the default) or "anthropic".
func (p *parser) api(n *yaml.Node, path string) (string, error) {
	s, err := p.str(n, path)
	if err != nil {
		return "", err
	}
	switch s {
	case "", "openai":
		return "", nil
	case anthropicAPI:
		return s, nil
	}
	return "", p.errorf(n, path, "must be openai or anthropic, got %q", s).
		WithFixes("Write api: openai for a chat-completions API (the default), api: anthropic for Anthropic's Messages API.")
}

func (p *parser) llm(e entry, path string) (kompact.LLMConfig, error) {
	var l kompact.LLMConfig
	s := p.section(e.val, path, llmFields)
	if s.err != nil {
		return l, s.err
	}
	var at *yaml.Node
	var err error
	if l.BaseURL, at, err = p.requiredStr(s.f, e.key, path, "base_url", "base_url: the API root, e.g. https://api.moonshot.ai/v1"); err != nil {
		return l, err
	}
	if err := p.checkURL(at, join(path, "base_url"), l.BaseURL); err != nil {
		return l, err
	}
	if l.Model, at, err = p.requiredStr(s.f, e.key, path, "model", "model: the model name, e.g. kimi-k2-turbo-preview"); err != nil {
		return l, err
	}
	if strings.TrimSpace(l.Model) == "" {
		return l, p.errorf(at, join(path, "model"), "must not be empty").WithFixes("Name the model, e.g. model: kimi-k2-turbo-preview.")
	}
	read(s, "api", &l.API, p.api)
	read(s, "api_key_env", &l.APIKeyEnv, p.apiKeyEnv)
	read(s, "max_context_size", &l.MaxContextSize, func(n *yaml.Node, path string) (int, error) { return p.tokens(n, path, 0) })
	read(s, "max_answer_bytes", &l.MaxAnswerBytes, p.answerBytes)
	read(s, "timeout", &l.Timeout, p.timeout)
	settings := map[string]any{}
	for _, name := range ownFields {
		var v any
		if _, _, ok := read(s, name, &v, func(n *yaml.Node, path string) (any, error) { return p.setting(name, n, path) }); ok {
			settings[name] = v
		}
	}
	if s.err != nil {
		return l, s.err
	}
	if xe, xpath, ok := s.get("extra_body"); ok {
		if err := p.extraBody(xe.val, xpath, settings); err != nil {
			return l, err
		}
	}
	if len(settings) > 0 {
		l.Settings = settings
	}
	return l, nil
}

// extraBody reads llm.extra_body, the mapping n at xpath, into settings:
// any request field but the ones kompact sets and the ones with an llm
// field of their own.
func (p *parser) extraBody(n *yaml.Node, xpath string, settings map[string]any) error {
	es, err := p.mapping(n, xpath)
	if err != nil {
		return err
	}
	for _, x := range es {
		fpath := join(xpath, x.name)
		switch kompact.RequestField(x.name) {
		case kompact.FieldReserved, kompact.FieldModel:
			return p.errorf(x.key, fpath, "extra_body may not set %q: kompact sets it for every request", x.name).
				WithFixes(fmt.Sprintf("Remove %q from extra_body; the model goes in llm.model.", x.name))
		case kompact.FieldOwn:
			return p.errorf(x.key, fpath, "set %s as llm.%s, not in extra_body", x.name, x.name).
				WithFixes(fmt.Sprintf("Move it: %s: VALUE directly under llm:.", x.name))
		case kompact.FieldTool: // accepted, and never sent
			p.warnf(x.key, fpath, toolFieldWarning)
		}
		v, err := p.value(x.val, fpath)
		if err != nil {
			return err
		}
		settings[x.name] = v
	}
	return nil
}

// requiredStr returns the string field name of the mapping at parent, whose
// fields are f, and the node that holds it. what says what to add when the
// field is missing.
func (p *parser) requiredStr(f map[string]entry, parent *yaml.Node, path, name, what string) (string, *yaml.Node, error) {
	x, ok := f[name]
	if !ok {
		return "", nil, p.missing(parent, join(path, name), what)
	}
	s, err := p.str(x.val, join(path, name))
	return s, x.val, err
}

func (p *parser) checkURL(n *yaml.Node, path, s string) error {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return p.errorf(n, path, "must not be empty").WithFixes("Set the API root, e.g. base_url: https://api.moonshot.ai/v1.")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return p.errorf(n, path, "must be an http or https URL, got %q", urlsecret.RedactURL(s)).
			WithFixes("Use the API root with its scheme, e.g. https://api.moonshot.ai/v1 or http://localhost:11434/v1.")
	case u.User != nil:
		return p.errorf(n, path, "must not hold a user name or password").
			WithFixes("Remove the credentials from the URL and put the key in an environment variable named by api_key_env.")
	case urlsecret.SecretQueryParam(s) != "":
		return p.errorf(n, path, "must not carry a credential in its query string (parameter %q)", urlsecret.SecretQueryParam(s)).
			WithFixes("Remove the parameter from the URL and put the key in an environment variable named by api_key_env.")
	}
	return nil
}

// apiKeyEnv checks the name of the API key's environment variable. It never
// echoes a value that may be the key itself.
func (p *parser) apiKeyEnv(n *yaml.Node, path string) (string, error) {
	s, err := p.str(n, path)
	if err != nil {
		if n.Kind == yaml.ScalarNode {
			// Never echo the value: it may be a key.
			return "", p.errorf(n, path, "must be the name of an environment variable").
				WithFixes("Write the variable's name, e.g. api_key_env: MOONSHOT_API_KEY.")
		}
		return "", err
	}
	if s == "" {
		return "", nil
	}
	fix := "Put the key in an environment variable (export MOONSHOT_API_KEY=...) and write its name here: api_key_env: MOONSHOT_API_KEY."
	if name, _, ok := strings.Cut(s, "="); ok {
		return "", p.errorf(n, path, "must be the name of an environment variable, not NAME=value (got %s=…)", name).
			WithFixes(fix, "The key is now in this file: remove it, and rotate the key if the file was shared.")
	}
	if looksLikeSecret(s) {
		return "", p.errorf(n, path, "looks like an API key, not the name of an environment variable; the key must never be in this file").
			WithFixes(fix, "The key is now in this file: remove it, and rotate the key if the file was shared.")
	}
	if !envNameRE.MatchString(s) {
		return "", p.errorf(n, path, "must be the name of an environment variable (letters, digits and _, not starting with a digit), got %q", s).
			WithFixes(fix)
	}
	return s, nil
}

// looksLikeSecret reports whether s looks like an API key rather than the
// name of an environment variable.
func looksLikeSecret(s string) bool {
	for _, prefix := range []string{"sk-", "sk_", "AIza", "ghp_", "gho_", "xoxb-", "xoxp-", "Bearer "} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	if len(s) < 32 || strings.Contains(s, "_") {
		return false
	}
	var lower, digit bool
	for _, r := range s {
		lower = lower || r >= 'a' && r <= 'z'
		digit = digit || r >= '0' && r <= '9'
	}
	return lower && digit
}

// setting checks one of the request settings that have their own fields.
func (p *parser) setting(name string, n *yaml.Node, path string) (any, error) {
	switch name {
	case "temperature", "top_p":
		f, err := p.number(n, path)
		if err != nil {
			return nil, err
		}
		hi := 2.0
		if name == "top_p" {
			hi = 1
		}
		if !(f >= 0 && f <= hi) {
			return nil, p.errorf(n, path, "must be between 0 and %g, got %s", hi, n.Value).
				WithFixes(fmt.Sprintf("Use a value from 0 to %g.", hi))
		}
		return f, nil
	case "max_tokens":
		i, err := p.integer(n, path)
		if err != nil {
			return nil, err
		}
		if i <= 0 {
			return nil, p.errorf(n, path, "must be greater than 0, got %d", i).
				WithFixes("Use a positive number of tokens, or remove max_tokens to use the provider's default.")
		}
		return i, nil
	}
	return p.value(n, path)
}

func (p *parser) compaction(e entry, path, agent string) (kompact.CompactionConfig, error) {
	var c kompact.CompactionConfig
	s := p.section(e.val, path, compactionFields)
	read(s, "enabled", &c.Enabled, p.boolean)
	for _, f := range []struct {
		name string
		dst  *string
	}{{"type", &c.Type}, {"compaction_model", &c.CompactionModel}, {"prompt", &c.Prompt}, {"prompt_file", &c.PromptFile}} {
		read(s, f.name, f.dst, p.str)
	}
	read(s, "instructions", &c.Instructions, p.instructions)
	var preserved int64
	if n, fpath, ok := read(s, "max_preserved_messages", &preserved, p.integer); ok {
		if preserved < math.MinInt32 || preserved > math.MaxInt32 {
			s.err = p.errorf(n, fpath, "%d is out of range", preserved).WithFixes("Use a small number; the default is 2.")
		}
		c.MaxPreservedMessages = new(int(preserved))
	}
	read(s, "timeout", &c.Timeout, p.timeout)
	if s.err != nil {
		return c, s.err
	}
	if err := p.promptFile(s, &c); err != nil {
		return c, err
	}
	read(s, "settings_overrides", &c.SettingsOverrides, p.overrides)
	if x, fpath, ok := s.get("auto"); ok {
		c.Auto, s.err = p.auto(x, fpath)
	}
	if x, fpath, ok := s.get("fidelity"); ok && s.err == nil {
		c.Fidelity, s.err = p.fidelity(x, fpath)
	}
	if x, fpath, ok := s.get("prune"); ok && s.err == nil {
		c.Prune, s.err = p.prune(x, fpath)
	}
	if s.err != nil {
		return c, s.err
	}
	if _, err := kompact.LookupCompactionType(c.Type); c.Enabled && err != nil {
		if x, ok := s.f["type"]; ok {
			p.warnf(x.val, path, "compaction is enabled but type is %q, not %s: the compaction actions are unavailable for agent %s",
				c.Type, registeredTypes(), agent)
		} else {
			p.warnf(e.key, path, "compaction is enabled but type is not set: the compaction actions are unavailable for agent %s (add type: %s)",
				agent, kompact.DefaultCompactionType)
		}
	}
	return c, nil
}

// promptFile checks that c sets at most one of prompt and prompt_file, and
// resolves prompt_file against the configuration file's folder.
func (p *parser) promptFile(s *section, c *kompact.CompactionConfig) error {
	if c.Prompt != "" && c.PromptFile != "" {
		return p.errorf(s.f["prompt_file"].key, join(s.path, "prompt_file"), "prompt and prompt_file are both set; use one").
			WithFixes("Remove prompt to read the prompt from the file, or remove prompt_file to use the inline prompt.")
	}
	if c.PromptFile == "" {
		return nil
	}
	if !filepath.IsAbs(c.PromptFile) {
		c.PromptFile = filepath.Join(p.dir, c.PromptFile)
	}
	if p.checkFiles {
		if info, err := os.Stat(c.PromptFile); err != nil || !info.Mode().IsRegular() {
			return p.errorf(s.f["prompt_file"].val, join(s.path, "prompt_file"), "cannot read %s: not a file", c.PromptFile).
				WithFixes("Give the path of the prompt file; a relative path is relative to the configuration file's folder.")
		}
	}
	return nil
}

func (p *parser) overrides(n *yaml.Node, path string) (map[string]any, error) {
	es, err := p.mapping(n, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(es))
	for _, x := range es {
		fpath := join(path, x.name)
		switch {
		case kompact.RequestField(x.name) == kompact.FieldReserved:
			return nil, p.errorf(x.key, fpath, "settings_overrides may not set %q: kompact sets it for every compaction request", x.name).
				WithFixes(fmt.Sprintf("Remove %q from settings_overrides.", x.name))
		case kompact.IsToolField(x.name): // accepted, and never sent
			p.warnf(x.key, fpath, toolFieldWarning)
		case x.name == "model":
			m, err := p.str(x.val, fpath)
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(m) == "" {
				return nil, p.errorf(x.val, fpath, "must name a model").
					WithFixes("Name the model, or remove settings_overrides.model to use the agent's model.")
			}
			out[x.name] = m
			continue
		}
		v, err := p.setting(x.name, x.val, fpath)
		if err != nil {
			return nil, err
		}
		out[x.name] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// tokens reads a number of tokens: an integer from lo to
// kompact.MaxTokenFigure.
func (p *parser) tokens(n *yaml.Node, path string, lo int64) (int, error) {
	i, err := p.integer(n, path)
	if err != nil {
		return 0, err
	}
	if i < lo || i > kompact.MaxTokenFigure {
		return 0, p.errorf(n, path, "must be a number of tokens from %d to %d, got %d", lo, int64(kompact.MaxTokenFigure), i).
			WithFixes("Use the model's context size in tokens, e.g. 262144, or 0 (or nothing) when it is unknown.")
	}
	return int(i), nil
}

// auto reads compaction.auto, checked against kimi-cli's bounds
// (TriggerRatioInBounds, ReservedContextSizeInBounds: the one place they are
// applied, config/autovalidate.go). A trigger_ratio of 0 is
// out of bounds here: only a missing one means the default.
func (p *parser) auto(e entry, path string) (kompact.AutoCompaction, error) {
	var a kompact.AutoCompaction
	s := p.section(e.val, path, autoFields)
	read(s, "enabled", &a.Enabled, p.boolean)
	if n, fpath, ok := read(s, "trigger_ratio", &a.TriggerRatio, p.number); ok && !TriggerRatioInBounds(a.TriggerRatio) {
		s.err = p.errorf(n, fpath, "must be between %v and %v, got %s", kompact.MinTriggerRatio, kompact.MaxTriggerRatio, n.Value).
			WithFixes(TriggerRatioFix())
	}
	var reserved int64
	if n, fpath, ok := read(s, "reserved_context_size", &reserved, p.integer); ok {
		if !ReservedContextSizeInBounds(reserved) {
			s.err = p.errorf(n, fpath, "must be at least %d tokens, got %d", kompact.MinReservedContextSize, reserved).
				WithFixes(ReservedContextSizeFix())
		}
		a.ReservedContextSize = int(reserved)
	}
	if s.err != nil {
		return a, s.err
	}
	return a.Effective(), nil
}

// fidelity reads compaction.fidelity: min_recall from 0 to 1, and
// appendix_tokens a number of tokens (0 is off).
func (p *parser) fidelity(e entry, path string) (kompact.FidelityOptions, error) {
	var f kompact.FidelityOptions
	s := p.section(e.val, path, fidelityFields)
	if n, fpath, ok := read(s, "min_recall", &f.MinRecall, p.number); ok && !(f.MinRecall >= 0 && f.MinRecall <= 1) {
		s.err = p.errorf(n, fpath, "must be between 0 and 1, got %s", n.Value).
			WithFixes("Use the share of the artifacts the model was sent that a summary must keep, e.g. 0.5; 0 turns the low_fidelity warning off.")
	}
	var tokens int64
	if n, fpath, ok := read(s, "appendix_tokens", &tokens, p.integer); ok {
		if tokens < 0 || tokens > kompact.MaxTokenFigure {
			s.err = p.errorf(n, fpath, "must be a number of tokens from 0 to %d, got %d", int64(kompact.MaxTokenFigure), tokens).
				WithFixes("Use 0 for no appendix, or the tokens the preserved_artifacts section may take, e.g. 500.")
		}
		f.AppendixTokens = int(tokens)
	}
	gate := true
	read(s, "gate", &gate, p.boolean)
	f.NoGate = !gate
	return f, s.err
}

// MaxPruneSetting bounds compaction.prune's keep_recent and min_chars
// (toolprune.MaxSetting, which the action's body fields have too).
const MaxPruneSetting = 1_000_000

// prune reads compaction.prune: enabled, and keep_recent and min_chars
// from 0 to MaxPruneSetting (unset: toolprune's defaults, 5 and 2000).
func (p *parser) prune(e entry, path string) (kompact.PruneOptions, error) {
	var o kompact.PruneOptions
	s := p.section(e.val, path, pruneFields)
	read(s, "enabled", &o.Enabled, p.boolean)
	for _, f := range []struct {
		name, fix string
		dst       **int
	}{{"keep_recent", "the latest tool exchanges kept whole, e.g. 5", &o.KeepRecent}, {"min_chars", "the characters an output must pass to be cleared, e.g. 2000", &o.MinChars}} {
		var v int64
		if n, fpath, ok := read(s, f.name, &v, p.integer); ok {
			if v < 0 || v > MaxPruneSetting {
				s.err = p.errorf(n, fpath, "must be from 0 to %d, got %d", MaxPruneSetting, v).WithFixes("Use " + f.fix + ", or remove it for the default.")
			}
			*f.dst = new(int(v))
		}
	}
	return o, s.err
}

// The bounds of llm.max_answer_bytes.
const (
	minAnswerBytes = 1 << 10
	maxAnswerBytes = 1 << 30
)

// answerBytes reads llm.max_answer_bytes: a number of bytes from 1 KiB
// to 1 GiB.
func (p *parser) answerBytes(n *yaml.Node, path string) (int64, error) {
	i, err := p.integer(n, path)
	if err != nil {
		return 0, err
	}
	if i < minAnswerBytes || i > maxAnswerBytes {
		return 0, p.errorf(n, path, "must be a number of bytes from %d to %d, got %d", minAnswerBytes, maxAnswerBytes, i).
			WithFixes(fmt.Sprintf("Use a size in bytes such as 8388608 (8 MiB), or remove it for the default, %d (4 MiB).", kompact.DefaultMaxAnswerBytes))
	}
	return i, nil
}

// timeout reads compaction.timeout or llm.timeout: a positive duration
// such as 90s or 10m.
func (p *parser) timeout(n *yaml.Node, path string) (time.Duration, error) {
	fix := "Use a duration such as 90s, 10m or 1h; the default is 10m for all attempts together."
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return 0, p.typeError(n, path, "a duration such as 10m").WithFixes(fix)
	}
	d, err := time.ParseDuration(n.Value)
	if err != nil || d <= 0 {
		return 0, p.errorf(n, path, "must be a positive duration such as 10m, got %q", n.Value).WithFixes(fix)
	}
	return d, nil
}

// registeredTypes names the registered compaction types for a warning:
// "kimi", or "a" or "b".
func registeredTypes() string {
	var names []string
	for _, n := range kompact.CompactionTypeNames() {
		names = append(names, strconv.Quote(n))
	}
	return strings.Join(names, " or ")
}
