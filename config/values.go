package config

import (
	"errors"
	"fmt"
	"math"

	"kompact"

	"go.yaml.in/yaml/v3"
)

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

// instructions reads standing compaction instructions: a string
// kompact.CheckInstructions accepts.
func (p *parser) instructions(n *yaml.Node, path string) (string, error) {
	s, err := p.str(n, path)
	if err != nil {
		return "", err
	}
	var ke *kompact.Error
	if errors.As(kompact.CheckInstructions("the text", s), &ke) {
		return "", p.errorf(n, path, "%s", ke.Message).WithFixes(ke.Fixes...)
	}
	return s, nil
}
