// Package config reads kompact's agent configuration file. The file is a YAML
// document that names the agents, says which OpenAI-compatible LLM each one
// talks to, and says how its conversations are compacted.
//
// # Schema
//
//	default_agent: kimi
//	agents:
//	  kimi:
//	    system_prompt: "..."
//	    llm:
//	      base_url: https://api.moonshot.ai/v1
//	      model: kimi-k2-turbo-preview
//	      api_key_env: MOONSHOT_API_KEY
//	      temperature: 0.6
//	      max_tokens: 32000
//	      top_p: 0.95
//	      extra_body: {thinking: {type: enabled}}
//	    compaction:
//	      enabled: true
//	      type: kimi
//	      max_preserved_messages: 2
//	      compaction_model: ""
//	      prompt: ""
//	      prompt_file: ""
//	      settings_overrides: {}
//
// Top level:
//
//   - default_agent (string, optional): the agent used when a command names
//     none. It must be one of the agents. Without it, a file with a single
//     agent uses that agent, and a file with several requires a name.
//   - agents (mapping, required, at least one entry): the agents by name. A
//     name matches [a-z0-9][a-z0-9_.-]*.
//
// An agent:
//
//   - system_prompt (string, optional): the agent's system prompt.
//   - llm (mapping, required): how to reach the agent's LLM.
//   - compaction (mapping, optional): how its conversations are compacted.
//     Without it, compaction is disabled.
//
// llm:
//
//   - base_url (string, required): the API root, an http or https URL with a
//     host and no user name or password, e.g. https://api.moonshot.ai/v1.
//   - model (string, required): the model of the agent's requests.
//   - api_key_env (string, optional): the NAME of the environment variable
//     that holds the API key (letters, digits and _, not starting with a
//     digit). The key itself never goes in the file: a value that looks like
//     a key, or like NAME=value, is an error. Empty means no authentication
//     (Ollama, a local server).
//   - temperature (number, optional): 0 to 2.
//   - max_tokens (integer, optional): greater than 0.
//   - top_p (number, optional): 0 to 1.
//   - extra_body (mapping, optional): more request body fields, sent as they
//     are (for example a provider's thinking switch). messages, stream,
//     stream_options, n and model, which kompact sets, are errors, and so are
//     temperature, max_tokens and top_p, which have their own fields. tools,
//     tool_choice and the other tool fields are accepted but never sent, with
//     a warning (see kompact.RequestField).
//
// compaction:
//
//   - enabled (bool, default false) and type (string): the compaction actions
//     exist only when enabled is true and type is "kimi". Another type is not
//     an error, but then the actions are unavailable, and a warning says so.
//   - max_preserved_messages (integer, default 2): how many trailing
//     user/assistant messages stay verbatim when no end is given. 0 or less
//     is allowed and makes compaction without an end a no-op, as in kimi-cli.
//   - compaction_model (string, optional): the model for compaction requests.
//   - prompt (string, optional): an inline prompt body.
//   - prompt_file (string, optional): a file holding the prompt body. A
//     relative path is relative to the configuration file's folder; ~ is not
//     expanded. prompt and prompt_file cannot both be set. Load checks that
//     the file exists; Parse does not touch the file system.
//   - settings_overrides (mapping, optional): request fields merged over the
//     agent's settings for compaction requests. It may name a model (a
//     non-empty string). temperature, max_tokens and top_p are checked as in
//     llm. tools, tool_choice and the other tool fields are accepted but
//     always removed, with a warning. messages, stream, stream_options and n
//     are errors.
//
// The model of a compaction request is the session's compaction_model, else
// compaction.compaction_model, else settings_overrides.model, else
// llm.model (see kompact.EffectiveRequest).
//
// # Values
//
// YAML values become JSON-compatible Go values: map[string]any, []any,
// string, bool, int64, float64 and nil. Timestamps stay strings. NaN,
// infinities, binary values and custom tags are errors. null, or an empty
// value, means the field is not set. Anchors, aliases and merge keys (<<)
// work as YAML defines them.
//
// # Errors
//
// Unknown fields, wrong types, duplicate keys and out-of-range values are
// errors. Each is a *kompact.Error with code kompact.EInvalid and fixes. Its
// message names the file, the line and the field path:
//
//	agents.yaml:14: agents.kimi.llm.temperature: must be a number, got "hot"
//
// The cause is a *FieldError that holds the same facts. Parsing stops at the
// first error.
package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"kompact"
)

//go:embed default.yaml
var defaultYAML []byte

// defaultName names the embedded file in messages.
const defaultName = "default.yaml"

// Config is a parsed configuration file.
type Config struct {
	// DefaultAgent is the agent used when none is named; "" when the file
	// does not set default_agent.
	DefaultAgent string
	// Agents are the agents by name. Each Agent's Name is its key.
	Agents map[string]*kompact.Agent
	// Path is the file the configuration came from: the path given to Load,
	// or the name given to Parse. It is "" for Default.
	Path string
	// Source is the YAML text as it was read.
	Source []byte
	// Warnings are problems that are not errors, located like errors, e.g.
	// a compaction block that is enabled with a type other than "kimi".
	Warnings []string
}

// Parse parses a configuration file's contents. name is the file's name: it
// is used in messages ("configuration" when empty), and a relative
// prompt_file is resolved against its folder. Parse does not touch the file
// system.
func Parse(data []byte, name string) (*Config, error) {
	if name == "" {
		name = "configuration"
	}
	p := &parser{file: name, dir: filepath.Dir(name)}
	return p.parse(data, name)
}

// Load reads and parses the configuration file at path. Unlike Parse, it
// resolves a relative prompt_file against the absolute path of the file's
// folder, and checks that the prompt file exists.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read configuration: %w", err).
			WithFixes("Pass the path of a YAML agent configuration file; `kompact config show` prints the default one.")
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "configuration %s: %w", path, err)
	}
	p := &parser{file: path, dir: dir, checkFiles: true}
	return p.parse(data, path)
}

// parsedDefault is the embedded default configuration, parsed once.
var parsedDefault = sync.OnceValue(func() *Config {
	c, err := Parse(defaultYAML, defaultName)
	if err != nil {
		panic("config: the embedded default.yaml is invalid: " + err.Error())
	}
	c.Path = ""
	return c
})

// Default returns kompact's built-in configuration (config/default.yaml).
// Each call returns a fresh copy, which the caller may change.
func Default() *Config {
	return parsedDefault().clone()
}

// Agent returns the agent called name. An empty name means the default
// agent: default_agent, or the only agent when there is just one. An unknown
// name is a kompact.ENotFound error that lists the available agents.
func (c *Config) Agent(name string) (*kompact.Agent, error) {
	names := c.Names()
	list := strings.Join(names, ", ")
	if name == "" {
		name = c.DefaultAgent
		if name == "" {
			if len(names) == 1 {
				return c.Agents[names[0]], nil
			}
			return nil, kompact.Errorf(kompact.EInvalid, "no agent named, and %s sets no default_agent; available agents: %s", c.where(), list).
				WithFixes("Name one of the agents: "+list+".", "Set default_agent: NAME at the top of "+c.where()+".")
		}
	}
	if a, ok := c.Agents[name]; ok {
		return a, nil
	}
	err := kompact.Errorf(kompact.ENotFound, "no agent %q in %s; available agents: %s", name, c.where(), list)
	if s := suggest(name, names); s != "" {
		err.WithFixes(fmt.Sprintf("Did you mean %q?", s))
	}
	return nil, err.WithFixes("Use one of: "+list+".", "Or add an agent named "+name+" under agents: in "+c.where()+".")
}

// Names returns the agents' names, sorted.
func (c *Config) Names() []string {
	names := make([]string, 0, len(c.Agents))
	for n := range c.Agents {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// where names the configuration in messages.
func (c *Config) where() string {
	if c.Path == "" {
		return "the built-in configuration"
	}
	return c.Path
}

// clone returns a deep copy of c.
func (c *Config) clone() *Config {
	d := &Config{
		DefaultAgent: c.DefaultAgent,
		Agents:       make(map[string]*kompact.Agent, len(c.Agents)),
		Path:         c.Path,
		Source:       bytes.Clone(c.Source),
		Warnings:     slices.Clone(c.Warnings),
	}
	for name, a := range c.Agents {
		b := *a
		b.LLM.Settings = cloneMap(a.LLM.Settings)
		b.Compaction.SettingsOverrides = cloneMap(a.Compaction.SettingsOverrides)
		if a.Compaction.MaxPreservedMessages != nil {
			n := *a.Compaction.MaxPreservedMessages
			b.Compaction.MaxPreservedMessages = &n
		}
		d.Agents[name] = &b
	}
	return d
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneMap(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

// FieldError locates a problem in a configuration file. It is the cause of
// the *kompact.Error that Parse and Load return.
type FieldError struct {
	// File is the name given to Parse, or the path given to Load.
	File string
	// Line is 1-based; 0 when the line is not known.
	Line int
	// Path is the field's path, e.g. agents.kimi.llm.model. It is empty for
	// YAML syntax errors.
	Path string
	Msg  string
}

// Error returns "FILE:LINE: PATH: MSG".
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// The fields of each mapping, in the order the docs list them.
var (
	topFields        = []string{"default_agent", "agents"}
	agentFields      = []string{"system_prompt", "llm", "compaction"}
	llmFields        = []string{"base_url", "model", "api_key_env", "temperature", "max_tokens", "top_p", "extra_body"}
	compactionFields = []string{"enabled", "type", "max_preserved_messages", "compaction_model", "prompt", "prompt_file", "settings_overrides"}
)

// ownFields are the request settings that have their own llm fields. What
// every other request field means is kompact.RequestField's table.
var ownFields = kompact.OwnFields

// toolFieldWarning is the warning for a tool field, wherever it is set.
const toolFieldWarning = "ignored: kompact's requests never carry tools"

var (
	agentNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)
	envNameRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	plainKeyRE  = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	yamlLineRE  = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

// maxNodes bounds the values visited while walking a document, so that
// aliases cannot expand a small file into a huge one.
const maxNodes = 1 << 18

// docsFix points at the field reference.
const docsFix = "docs/config.md describes every field."

// parser walks one document.
type parser struct {
	file       string // the file's name in messages
	dir        string // the folder relative prompt files are resolved against
	checkFiles bool   // check that prompt files exist
	nodes      int
	active     map[*yaml.Node]bool // collections being walked, to catch aliases that contain themselves
	warnings   []string
}

// enter marks collection n as being walked; an alias back into it is an
// error. The caller must call leave(n).
func (p *parser) enter(n *yaml.Node, path string) error {
	if p.active[n] {
		return p.errorf(n, path, "an alias refers to a value that contains it").
			WithFixes("Remove the alias (*name) from inside the value its anchor (&name) marks.")
	}
	if p.active == nil {
		p.active = map[*yaml.Node]bool{}
	}
	p.active[n] = true
	return nil
}

func (p *parser) leave(n *yaml.Node) { delete(p.active, n) }

// entry is one key and its value, with aliases resolved.
type entry struct {
	key, val *yaml.Node
	name     string
}

func (p *parser) parse(data []byte, name string) (*Config, error) {
	root, err := p.document(data)
	if err != nil {
		return nil, err
	}
	c, err := p.root(root)
	if err != nil {
		return nil, err
	}
	c.Path = name
	c.Source = bytes.Clone(data)
	c.Warnings = p.warnings
	return c, nil
}

// document decodes data into its root node, nil for an empty document.
func (p *parser) document(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, p.syntaxError(err, data)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, p.errorf(&next, "", "a second YAML document; a configuration file holds exactly one").
			WithFixes("Remove the \"---\" line and everything after it, or merge the documents.")
	} else if !errors.Is(err, io.EOF) {
		return nil, p.syntaxError(err, data)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return p.deref(doc.Content[0])
}

// syntaxError turns a YAML decoding error into a located EInvalid error.
// go.yaml.in/yaml/v3 often reports the line where the enclosing block began
// rather than the line at fault, and omits line 1, so the line is found
// instead as the shortest prefix of the document that fails the same way.
func (p *parser) syntaxError(err error, data []byte) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		msg = m[2]
	}
	fe := &FieldError{File: p.file, Line: failingLine(data, msg), Msg: "invalid YAML: " + msg}
	return (&kompact.Error{Code: kompact.EInvalid, Message: fe.Error(), Err: fe}).
		WithFixes("Fix the YAML syntax at or just before that line: indent with spaces, not tabs, and quote values that contain \": \" or start with a character such as *, &, !, %, @ or `.")
}

// failingLine returns the number of lines in the shortest prefix of data
// whose decoding fails with message msg, or 0.
func failingLine(data []byte, msg string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	fails := func(k int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(bytes.Join(lines[:k], nil)))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if err == nil {
				continue
			}
			if errors.Is(err, io.EOF) {
				return false
			}
			got := strings.TrimPrefix(err.Error(), "yaml: ")
			if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
				got = m[2]
			}
			return got == msg
		}
	}
	if !fails(len(lines)) {
		return 0
	}
	lo, hi := 1, len(lines)
	for lo < hi {
		if mid := (lo + hi) / 2; fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// errorf returns an EInvalid error located at n (or at line 1 without n).
func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) *kompact.Error {
	fe := &FieldError{File: p.file, Line: 1, Path: path, Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.Line > 0 {
		fe.Line = n.Line
	}
	return &kompact.Error{Code: kompact.EInvalid, Message: fe.Error(), Err: fe}
}

// warnf records a warning located at n.
func (p *parser) warnf(n *yaml.Node, path, format string, args ...any) {
	fe := &FieldError{File: p.file, Line: n.Line, Path: path, Msg: fmt.Sprintf(format, args...)}
	p.warnings = append(p.warnings, fe.Error())
}

// visit counts a node against maxNodes.
func (p *parser) visit(n *yaml.Node, path string) error {
	p.nodes++
	if p.nodes > maxNodes {
		return p.errorf(n, path, "the document has more than %d values once its aliases are expanded", maxNodes).
			WithFixes("Use fewer aliases (*name), or write the values out.")
	}
	return nil
}

// deref follows aliases.
func (p *parser) deref(n *yaml.Node) (*yaml.Node, error) {
	for i := 0; n.Kind == yaml.AliasNode; i++ {
		if n.Alias == nil || i > 100 {
			return nil, p.errorf(n, "", "alias *%s leads nowhere", n.Value).WithFixes("Define the anchor &" + n.Value + " before using it.")
		}
		n = n.Alias
	}
	return n, nil
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// join appends key to path, bracketing keys that are not plain words.
func join(path, key string) string {
	if !plainKeyRE.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// entries returns the entries of mapping n in order, following aliases and
// merge keys (explicit keys win over merged ones). Duplicate and
// non-scalar keys are errors.
func (p *parser) entries(n *yaml.Node, path string) ([]entry, error) {
	var out, merged []entry
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := p.visit(k, path); err != nil {
			return nil, err
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			m, err := p.mergeSources(v, path)
			if err != nil {
				return nil, err
			}
			merged = append(merged, m...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, path, "keys must be plain strings, got %s", describe(k)).
				WithFixes("Write each key as a word followed by a colon, e.g. model: NAME.")
		}
		if first, ok := seen[k.Value]; ok {
			return nil, p.errorf(k, join(path, k.Value), "duplicate key (first set on line %d)", first.Line).
				WithFixes("Keep one of the two; YAML does not allow a key twice in a mapping.")
		}
		seen[k.Value] = k
		val, err := p.deref(v)
		if err != nil {
			return nil, err
		}
		out = append(out, entry{key: k, val: val, name: k.Value})
	}
	for _, e := range merged {
		if _, ok := seen[e.name]; !ok {
			seen[e.name] = e.key
			out = append(out, e)
		}
	}
	return out, nil
}

// mergeSources returns the entries a merge key (<<) brings in: from one
// mapping, or from a list of mappings, earlier ones winning.
func (p *parser) mergeSources(v *yaml.Node, path string) ([]entry, error) {
	v, err := p.deref(v)
	if err != nil {
		return nil, err
	}
	srcs := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		srcs = v.Content
	}
	var out []entry
	for _, s := range srcs {
		s, err := p.deref(s)
		if err != nil {
			return nil, err
		}
		if s.Kind != yaml.MappingNode {
			return nil, p.errorf(s, path, "a merge key (<<) takes a mapping or a list of mappings, got %s", describe(s)).
				WithFixes("Merge an anchored mapping: <<: *name.")
		}
		if err := p.enter(s, path); err != nil {
			return nil, err
		}
		es, err := p.entries(s, path)
		p.leave(s)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// fields checks that n is a mapping whose keys are all in allowed, and
// returns its non-null entries by key.
func (p *parser) fields(n *yaml.Node, path string, allowed []string) (map[string]entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.typeError(n, path, "a mapping")
	}
	es, err := p.entries(n, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]entry, len(es))
	for _, e := range es {
		if !slices.Contains(allowed, e.name) {
			return nil, p.unknownField(e, path, allowed)
		}
		if !isNull(e.val) {
			out[e.name] = e
		}
	}
	return out, nil
}

func (p *parser) unknownField(e entry, path string, allowed []string) error {
	list := strings.Join(allowed, ", ")
	if s := suggest(e.name, allowed); s != "" {
		return p.errorf(e.key, join(path, e.name), "unknown field; did you mean %q? (fields: %s)", s, list).
			WithFixes(fmt.Sprintf("Rename %q to %q.", e.name, s))
	}
	return p.errorf(e.key, join(path, e.name), "unknown field (fields: %s)", list).
		WithFixes(fmt.Sprintf("Remove %q, or use one of the fields listed.", e.name), docsFix)
}

// missing reports a required field that is absent; at is the parent.
func (p *parser) missing(at *yaml.Node, path, what string) error {
	return p.errorf(at, path, "required field is missing").
		WithFixes("Add " + what + ".")
}

// describe says what a node holds, for "got ..." in messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		v := n.Value
		if r := []rune(v); len(r) > 40 {
			v = string(r[:37]) + "..."
		}
		switch n.ShortTag() {
		case "!!str":
			return strconv.Quote(v)
		case "!!null":
			return "null"
		}
		return v
	}
	return "nothing"
}

// typeError reports a value of the wrong kind; want is "a string", "a
// number", "a mapping" and so on.
func (p *parser) typeError(n *yaml.Node, path, want string) *kompact.Error {
	err := p.errorf(n, path, "must be %s, got %s", want, describe(n))
	switch {
	case want == "a string" && n.Kind == yaml.ScalarNode:
		return err.WithFixes(fmt.Sprintf("Quote the value: %s: %q.", lastKey(path), n.Value))
	case want == "a mapping":
		return err.WithFixes("Write it as a mapping: one \"key: value\" per line, indented under " + lastKey(path) + ":.")
	case want == "true or false":
		return err.WithFixes("Write true or false, without quotes.")
	case want == "an integer":
		return err.WithFixes("Write a whole number without quotes, e.g. " + lastKey(path) + ": 2.")
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		return err.WithFixes("Write the number without quotes, e.g. " + lastKey(path) + ": 1.")
	}
	return err.WithFixes(docsFix)
}

func lastKey(path string) string {
	if i := strings.LastIndexAny(path, ".["); i >= 0 && path[i] == '.' {
		return path[i+1:]
	}
	return path
}

// str returns a string field ("" for null).
func (p *parser) str(n *yaml.Node, path string) (string, error) {
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", p.typeError(n, path, "a string")
	}
	return n.Value, nil
}

func (p *parser) boolean(n *yaml.Node, path string) (bool, error) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
		return false, p.typeError(n, path, "true or false")
	}
	return b, nil
}

func (p *parser) number(n *yaml.Node, path string) (float64, error) {
	var f float64
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&f) != nil {
		return 0, p.typeError(n, path, "a number")
	}
	return f, nil
}

func (p *parser) integer(n *yaml.Node, path string) (int64, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, p.typeError(n, path, "an integer")
	}
	var i int64
	if n.Decode(&i) != nil {
		return 0, p.errorf(n, path, "%s is out of range", n.Value).WithFixes("Use a smaller number.")
	}
	return i, nil
}

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
	if ae.val.Kind != yaml.MappingNode {
		return nil, p.typeError(ae.val, "agents", "a mapping")
	}
	agents, err := p.entries(ae.val, "agents")
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
			names := sortedKeys(c.Agents)
			err := p.errorf(de.val, "default_agent", "no agent named %q (agents: %s)", name, strings.Join(names, ", "))
			if s := suggest(name, names); s != "" {
				err.WithFixes(fmt.Sprintf("Did you mean %q?", s))
			}
			return nil, err.WithFixes("Name one of the agents, or remove default_agent.")
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (p *parser) agent(e entry, path string) (*kompact.Agent, error) {
	a := &kompact.Agent{Name: e.name}
	if isNull(e.val) {
		return nil, p.missing(e.key, join(path, "llm"), "an llm: mapping with base_url and model")
	}
	f, err := p.fields(e.val, path, agentFields)
	if err != nil {
		return nil, err
	}
	if sp, ok := f["system_prompt"]; ok {
		if a.SystemPrompt, err = p.str(sp.val, join(path, "system_prompt")); err != nil {
			return nil, err
		}
	}
	le, ok := f["llm"]
	if !ok {
		return nil, p.missing(e.key, join(path, "llm"), "an llm: mapping with base_url and model")
	}
	if a.LLM, err = p.llm(le, join(path, "llm")); err != nil {
		return nil, err
	}
	if ce, ok := f["compaction"]; ok {
		if a.Compaction, err = p.compaction(ce, join(path, "compaction"), e.name); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (p *parser) llm(e entry, path string) (kompact.LLMConfig, error) {
	var l kompact.LLMConfig
	f, err := p.fields(e.val, path, llmFields)
	if err != nil {
		return l, err
	}
	be, ok := f["base_url"]
	if !ok {
		return l, p.missing(e.key, join(path, "base_url"), "base_url: the API root, e.g. https://api.moonshot.ai/v1")
	}
	if l.BaseURL, err = p.str(be.val, join(path, "base_url")); err != nil {
		return l, err
	}
	if err := p.checkURL(be.val, join(path, "base_url"), l.BaseURL); err != nil {
		return l, err
	}
	me, ok := f["model"]
	if !ok {
		return l, p.missing(e.key, join(path, "model"), "model: the model name, e.g. kimi-k2-turbo-preview")
	}
	if l.Model, err = p.str(me.val, join(path, "model")); err != nil {
		return l, err
	}
	if strings.TrimSpace(l.Model) == "" {
		return l, p.errorf(me.val, join(path, "model"), "must not be empty").WithFixes("Name the model, e.g. model: kimi-k2-turbo-preview.")
	}
	if ke, ok := f["api_key_env"]; ok {
		if l.APIKeyEnv, err = p.apiKeyEnv(ke.val, join(path, "api_key_env")); err != nil {
			return l, err
		}
	}
	settings := map[string]any{}
	for _, name := range ownFields {
		if se, ok := f[name]; ok {
			v, err := p.setting(name, se.val, join(path, name))
			if err != nil {
				return l, err
			}
			settings[name] = v
		}
	}
	if xe, ok := f["extra_body"]; ok {
		xpath := join(path, "extra_body")
		if xe.val.Kind != yaml.MappingNode {
			return l, p.typeError(xe.val, xpath, "a mapping")
		}
		es, err := p.entries(xe.val, xpath)
		if err != nil {
			return l, err
		}
		for _, x := range es {
			fpath := join(xpath, x.name)
			switch kompact.RequestField(x.name) {
			case kompact.FieldReserved, kompact.FieldModel:
				return l, p.errorf(x.key, fpath, "extra_body may not set %q: kompact sets it for every request", x.name).
					WithFixes(fmt.Sprintf("Remove %q from extra_body; the model goes in llm.model.", x.name))
			case kompact.FieldOwn:
				return l, p.errorf(x.key, fpath, "set %s as llm.%s, not in extra_body", x.name, x.name).
					WithFixes(fmt.Sprintf("Move it: %s: VALUE directly under llm:.", x.name))
			case kompact.FieldTool: // accepted, and never sent
				p.warnf(x.key, fpath, toolFieldWarning)
			}
			v, err := p.value(x.val, fpath)
			if err != nil {
				return l, err
			}
			settings[x.name] = v
		}
	}
	if len(settings) > 0 {
		l.Settings = settings
	}
	return l, nil
}

func (p *parser) checkURL(n *yaml.Node, path, s string) error {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return p.errorf(n, path, "must not be empty").WithFixes("Set the API root, e.g. base_url: https://api.moonshot.ai/v1.")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return p.errorf(n, path, "must be an http or https URL, got %q", kompact.RedactURL(s)).
			WithFixes("Use the API root with its scheme, e.g. https://api.moonshot.ai/v1 or http://localhost:11434/v1.")
	case u.User != nil:
		return p.errorf(n, path, "must not hold a user name or password").
			WithFixes("Remove the credentials from the URL and put the key in an environment variable named by api_key_env.")
	case kompact.SecretQueryParam(s) != "":
		return p.errorf(n, path, "must not carry a credential in its query string (parameter %q)", kompact.SecretQueryParam(s)).
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
	f, err := p.fields(e.val, path, compactionFields)
	if err != nil {
		return c, err
	}
	if x, ok := f["enabled"]; ok {
		if c.Enabled, err = p.boolean(x.val, join(path, "enabled")); err != nil {
			return c, err
		}
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"type", &c.Type}, {"compaction_model", &c.CompactionModel}, {"prompt", &c.Prompt}, {"prompt_file", &c.PromptFile}} {
		if x, ok := f[s.name]; ok {
			if *s.dst, err = p.str(x.val, join(path, s.name)); err != nil {
				return c, err
			}
		}
	}
	if x, ok := f["max_preserved_messages"]; ok {
		fpath := join(path, "max_preserved_messages")
		i, err := p.integer(x.val, fpath)
		if err != nil {
			return c, err
		}
		if i < math.MinInt32 || i > math.MaxInt32 {
			return c, p.errorf(x.val, fpath, "%d is out of range", i).WithFixes("Use a small number; the default is 2.")
		}
		n := int(i)
		c.MaxPreservedMessages = &n
	}
	if c.Prompt != "" && c.PromptFile != "" {
		return c, p.errorf(f["prompt_file"].key, join(path, "prompt_file"), "prompt and prompt_file are both set; use one").
			WithFixes("Remove prompt to read the prompt from the file, or remove prompt_file to use the inline prompt.")
	}
	if c.PromptFile != "" {
		x := f["prompt_file"]
		if !filepath.IsAbs(c.PromptFile) {
			c.PromptFile = filepath.Join(p.dir, c.PromptFile)
		}
		if p.checkFiles {
			if info, err := os.Stat(c.PromptFile); err != nil || !info.Mode().IsRegular() {
				return c, p.errorf(x.val, join(path, "prompt_file"), "cannot read %s: not a file", c.PromptFile).
					WithFixes("Give the path of the prompt file; a relative path is relative to the configuration file's folder.")
			}
		}
	}
	if x, ok := f["settings_overrides"]; ok {
		if c.SettingsOverrides, err = p.overrides(x, join(path, "settings_overrides")); err != nil {
			return c, err
		}
	}
	if c.Enabled && c.Type != kompact.CompactionType {
		if x, ok := f["type"]; ok {
			p.warnf(x.val, path, "compaction is enabled but type is %q, not %q: the compaction actions are unavailable for agent %s",
				c.Type, kompact.CompactionType, agent)
		} else {
			p.warnf(e.key, path, "compaction is enabled but type is not set: the compaction actions are unavailable for agent %s (add type: %s)",
				agent, kompact.CompactionType)
		}
	}
	return c, nil
}

func (p *parser) overrides(e entry, path string) (map[string]any, error) {
	if e.val.Kind != yaml.MappingNode {
		return nil, p.typeError(e.val, path, "a mapping")
	}
	es, err := p.entries(e.val, path)
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

// value converts a YAML value to a JSON-compatible Go value.
func (p *parser) value(n *yaml.Node, path string) (any, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, err
	}
	if err := p.visit(n, path); err != nil {
		return nil, err
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if err := p.enter(n, path); err != nil {
			return nil, err
		}
		defer p.leave(n)
	}
	switch n.Kind {
	case yaml.MappingNode:
		es, err := p.entries(n, path)
		if err != nil {
			return nil, err
		}
		m := make(map[string]any, len(es))
		for _, e := range es {
			if m[e.name], err = p.value(e.val, join(path, e.name)); err != nil {
				return nil, err
			}
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			if l[i], err = p.value(c, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return nil, err
			}
		}
		return l, nil
	case yaml.ScalarNode:
		return p.scalar(n, path)
	}
	return nil, p.errorf(n, path, "unsupported YAML node").WithFixes(docsFix)
}

func (p *parser) scalar(n *yaml.Node, path string) (any, error) {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil, nil
	case "!!str", "!!timestamp":
		return n.Value, nil
	case "!!bool":
		return p.boolean(n, path)
	case "!!int":
		return p.integer(n, path)
	case "!!float":
		f, err := p.number(n, path)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, p.errorf(n, path, "%s cannot be sent as JSON", n.Value).WithFixes("Use a finite number.")
		}
		return f, nil
	default:
		return nil, p.errorf(n, path, "unsupported value tag %s", tag).
			WithFixes("Remove the tag; values must be strings, numbers, booleans, null, lists or mappings.")
	}
}

// suggest returns the candidate closest to s, or "" when none is close.
func suggest(s string, candidates []string) string {
	best, bestD := "", math.MaxInt
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if d := distance(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(1, len(s)/3) {
		return best
	}
	if len(s) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), ls) {
				return c
			}
		}
	}
	return ""
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of bytes.
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

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

func agentNode(a *kompact.Agent) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	if a.SystemPrompt != "" {
		addField(n, "system_prompt", strNode(a.SystemPrompt))
	}
	llm := &yaml.Node{Kind: yaml.MappingNode}
	addField(llm, "base_url", strNode(a.LLM.BaseURL))
	addField(llm, "model", strNode(a.LLM.Model))
	if a.LLM.APIKeyEnv != "" {
		addField(llm, "api_key_env", strNode(a.LLM.APIKeyEnv))
	}
	extra := map[string]any{}
	for k, v := range a.LLM.Settings {
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
	addField(n, "llm", llm)

	cc := a.Compaction
	comp := &yaml.Node{Kind: yaml.MappingNode}
	addField(comp, "enabled", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(cc.Enabled)})
	if cc.Type != "" {
		addField(comp, "type", strNode(cc.Type))
	}
	mp := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(cc.MaxPreserved())}
	if cc.MaxPreservedMessages == nil {
		mp.LineComment = "# default"
	}
	addField(comp, "max_preserved_messages", mp)
	for _, f := range []struct{ name, value string }{
		{"compaction_model", cc.CompactionModel}, {"prompt", cc.Prompt}, {"prompt_file", cc.PromptFile},
	} {
		if f.value != "" {
			addField(comp, f.name, strNode(f.value))
		}
	}
	if len(cc.SettingsOverrides) > 0 {
		vn, err := valueNode(cc.SettingsOverrides)
		if err != nil {
			return nil, err
		}
		addField(comp, "settings_overrides", vn)
	}
	addField(n, "compaction", comp)
	n.Content[len(n.Content)-2].LineComment = "# actions: " + actionList(a)
	return n, nil
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

// ReferenceMarkdown returns the reference page for c, meant for Default():
// docs/reference/default-config.md. It lists the agents in a table, then
// shows c.Source (or, when c has none, its effective YAML). The output
// depends only on c.
func ReferenceMarkdown(c *Config) []byte {
	var b bytes.Buffer
	source := "`config/default.yaml`, kompact's built-in configuration"
	if c.Path != "" {
		source = "`" + c.Path + "`"
	}
	b.WriteString("<!-- Generated by `go run ./cmd/kompact config reference > docs/reference/default-config.md`. DO NOT EDIT. -->\n\n")
	b.WriteString("# Default agent configuration\n\n")
	fmt.Fprintf(&b, "This page is generated from %s. Do not edit it by hand: change the YAML file, then run\n\n", source)
	b.WriteString("```sh\ngo run ./cmd/kompact config reference > docs/reference/default-config.md\n```\n\n")
	b.WriteString("`go test ./config` fails while this page is out of date. [The configuration reference](../config.md)\ndescribes every field.\n\n")
	if c.DefaultAgent != "" {
		fmt.Fprintf(&b, "The default agent is `%s`.\n\n", c.DefaultAgent)
	}
	b.WriteString("## Agents\n\n")
	b.WriteString("| agent | model | base_url | api_key_env | request settings | compaction enabled | type | max_preserved_messages | compaction_model | actions |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, name := range c.Names() {
		a := c.Agents[name]
		cc := a.Compaction
		enabled := "no"
		if cc.Enabled {
			enabled = "yes"
		}
		mp := strconv.Itoa(cc.MaxPreserved())
		if cc.MaxPreservedMessages == nil {
			mp += " (default)"
		}
		model := "(the agent's model)"
		if cc.CompactionModel != "" {
			model = code(cc.CompactionModel)
		}
		settings := "(none)"
		if len(a.LLM.Settings) > 0 {
			if js, err := json.Marshal(a.LLM.Settings); err == nil {
				settings = code(string(js))
			}
		}
		cells := []string{code(name), code(a.LLM.Model), code(a.LLM.BaseURL), orNone(a.LLM.APIKeyEnv), settings,
			enabled, orNone(cc.Type), mp, model, actionList(a)}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n## The file\n\n")
	src := c.Source
	if len(src) == 0 {
		src, _ = c.EffectiveYAML()
	}
	fence := "```"
	for bytes.Contains(src, []byte(fence)) {
		fence += "`"
	}
	b.WriteString(fence + "yaml\n")
	b.Write(src)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	return b.Bytes()
}

// code formats s as a code span in a table cell.
func code(s string) string {
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return code(s)
}
