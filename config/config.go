// Package config reads kompact's agent configuration file: a YAML document
// that names the agents, says which OpenAI-compatible LLM each one talks to,
// and says how its conversations are compacted. docs/config.md describes
// every field, value, error and warning.
//
// Parse and Load return a *Config; errors are *kompact.Error values with code
// kompact.EInvalid whose cause is a *FieldError.
package config

import (
	"bytes"
	_ "embed"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	// a compaction block that is enabled with a type that is not registered.
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
	return nil, didYouMean(err, name, names).WithFixes("Use one of: "+list+".", "Or add an agent named "+name+" under agents: in "+c.where()+".")
}

// Names returns the agents' names, sorted.
func (c *Config) Names() []string {
	return sortedKeys(c.Agents)
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
