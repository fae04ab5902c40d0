package main

import (
	"sort"
	"strings"
)

// failure is a failed package's output as go test without -v prints it:
// each failed test's result line, its log indented under it, its failed
// subtests below, then what the package printed outside its tests.
func (p *pkgRun) failure() string {
	var b strings.Builder
	for _, t := range p.topLevel() {
		if t.result != "pass" && t.result != "skip" {
			p.writeFailed(&b, t, 0)
		}
	}
	for _, l := range p.lines {
		if !isFraming(l) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// writeFailed writes t at depth (0 for a top-level test). Under -json the
// test binary runs verbose, so t's log comes before its result line, and
// what follows that line (a panic) is printed as it is. A test without a
// result line (the binary exited during it) is headed by its RUN line.
func (p *pkgRun) writeFailed(b *strings.Builder, t *test, depth int) {
	indent := strings.Repeat("    ", depth)
	result := len(t.lines)
	for i, l := range t.lines {
		if strings.HasPrefix(l, "--- ") {
			result = i
		}
	}
	if result < len(t.lines) {
		b.WriteString(indent + t.lines[result])
	} else if len(t.lines) > 0 && strings.HasPrefix(t.lines[0], "=== RUN") {
		b.WriteString(indent + t.lines[0]) // it never ended: the binary exited during it
	}
	for _, l := range t.lines[:result] {
		switch {
		case isFraming(l):
		case strings.HasPrefix(l, "    "):
			b.WriteString(indent + l)
		default:
			b.WriteString(l)
		}
	}
	for _, c := range p.children(t.name) {
		if c.result != "pass" && c.result != "skip" {
			p.writeFailed(b, c, depth+1)
		}
	}
	for _, l := range t.lines[min(result+1, len(t.lines)):] {
		b.WriteString(l)
	}
}

// isFraming reports whether l is one of the lines verbose mode adds.
func isFraming(l string) bool {
	for _, f := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "PASS\n"} {
		if strings.HasPrefix(l, f) {
			return true
		}
	}
	return false
}

// topLevel lists the package's top-level tests in the order they finished
// (those that never did last).
func (p *pkgRun) topLevel() []*test { return p.children("") }

// children lists the direct subtests of the test named parent ("" for the
// top level), in the order they finished.
func (p *pkgRun) children(parent string) []*test {
	rank := map[string]int{}
	for i, name := range p.order {
		rank[name] = i
	}
	var out []*test
	for name, t := range p.tests {
		if p.parent(name) == parent {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ri, oki := rank[out[i].name]
		rj, okj := rank[out[j].name]
		if oki != okj {
			return oki
		}
		if ri != rj {
			return ri < rj
		}
		return out[i].name < out[j].name
	})
	return out
}

// parent is the name of the nearest test that name is a subtest of, or "".
func (p *pkgRun) parent(name string) string {
	for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
		if p.tests[name[:i]] != nil {
			return name[:i]
		}
	}
	return ""
}
