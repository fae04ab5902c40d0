package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// event is one line of go test -json (see go doc test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// pkgRun is what a package printed while its tests ran.
type pkgRun struct {
	lines []string         // output outside any test
	tests map[string]*test // by full name
	order []string         // test names in the order they finished
}

// test is one test's output and result ("pass", "fail", "skip", or ""
// while it runs).
type test struct {
	name   string
	lines  []string
	result string
}

// Report reads go test -json's output from in and writes to out what go
// test without -json would print, then the skip summary, and the final
// FAIL line when something failed. It reports whether something failed.
func Report(in io.Reader, out io.Writer) bool {
	r := &reporter{out: out, pkgs: map[string]*pkgRun{}}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Action == "" {
			r.print(sc.Text() + "\n") // not an event: go test's own output
			continue
		}
		r.handle(e)
	}
	if err := sc.Err(); err != nil {
		r.print("gotest: reading go test -json: " + err.Error() + "\n")
		r.failed = true
	}
	r.finish()
	return r.failed
}

type reporter struct {
	out    io.Writer
	pkgs   map[string]*pkgRun
	skips  []skip
	failed bool
}

func (r *reporter) print(s string) { _, _ = io.WriteString(r.out, s) }

// handle files one event: build output is printed at once, a package's
// output when the package ends.
func (r *reporter) handle(e event) {
	switch {
	case e.Action == "build-output":
		r.print(e.Output)
	case e.Action == "build-fail":
		r.failed = true
	case e.Package == "":
		r.print(e.Output)
	case e.Test != "":
		r.pkg(e.Package).handleTest(e)
	case e.Action == "output":
		p := r.pkg(e.Package)
		p.lines = append(p.lines, e.Output)
	case e.Action == "pass" || e.Action == "skip" || e.Action == "fail":
		r.endPackage(e.Package, e.Action == "fail")
	}
}

func (r *reporter) pkg(name string) *pkgRun {
	p := r.pkgs[name]
	if p == nil {
		p = &pkgRun{tests: map[string]*test{}}
		r.pkgs[name] = p
	}
	return p
}

func (p *pkgRun) handleTest(e event) {
	t := p.tests[e.Test]
	if t == nil {
		t = &test{name: e.Test}
		p.tests[e.Test] = t
	}
	switch e.Action {
	case "output":
		t.lines = append(t.lines, e.Output)
	case "pass", "fail", "skip":
		t.result = e.Action
		p.order = append(p.order, e.Test)
	}
}

// endPackage prints a package's result as go test does: its summary line
// when it passed, the output of its failed tests and its own when not.
func (r *reporter) endPackage(name string, failed bool) {
	p := r.pkg(name)
	delete(r.pkgs, name)
	r.skips = append(r.skips, p.skips(name)...)
	if failed {
		r.failed = true
		r.print(p.failure())
		return
	}
	for _, l := range p.lines {
		if strings.HasPrefix(l, "ok  ") || strings.HasPrefix(l, "?   ") || strings.HasPrefix(l, "\t") {
			r.print(l)
		}
	}
}

// finish prints the packages that never ended (go test was interrupted),
// the skip summary and the final FAIL.
func (r *reporter) finish() {
	for name, p := range r.pkgs {
		r.skips = append(r.skips, p.skips(name)...)
		r.print(p.failure())
		r.failed = true
	}
	r.print(summary(r.skips))
	if r.failed {
		r.print("FAIL\n")
	}
}
