package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kompact"
)

var (
	plainKeyRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
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

// mapping returns the entries of n, which must be a mapping.
func (p *parser) mapping(n *yaml.Node, path string) ([]entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.typeError(n, path, "a mapping")
	}
	return p.entries(n, path)
}

// fields checks that n is a mapping whose keys are all in allowed, and
// returns its non-null entries by key.
func (p *parser) fields(n *yaml.Node, path string, allowed []string) (map[string]entry, error) {
	es, err := p.mapping(n, path)
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
