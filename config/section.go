package config

import "go.yaml.in/yaml/v3"

// section reads the fields of one mapping and keeps the first error: once
// a read fails, the later ones do nothing, so a reader lists its fields and
// checks err once, and the error is still the first in the file's order.
type section struct {
	f    map[string]entry
	path string
	err  error
}

// section checks the mapping n at path against allowed (fields).
func (p *parser) section(n *yaml.Node, path string, allowed []string) *section {
	f, err := p.fields(n, path, allowed)
	return &section{f: f, path: path, err: err}
}

// get returns the field name and its path when it is set and nothing has
// failed yet.
func (s *section) get(name string) (entry, string, bool) {
	x, ok := s.f[name]
	if !ok || s.err != nil {
		return entry{}, "", false
	}
	return x, join(s.path, name), true
}

// read reads the field name, when get finds it, into *dst with from. It
// returns the field's value and path, and whether it was read (without an
// error).
func read[T any](s *section, name string, dst *T, from func(*yaml.Node, string) (T, error)) (*yaml.Node, string, bool) {
	x, path, ok := s.get(name)
	if !ok {
		return nil, "", false
	}
	v, err := from(x.val, path)
	if err != nil {
		s.err = err
		return nil, "", false
	}
	*dst = v
	return x.val, path, true
}
