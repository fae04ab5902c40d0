package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// skip is a skipped test and its skip message.
type skip struct {
	pkg, test, reason string
}

// logLine is the start of a t.Log (or t.Skip) line in verbose output:
// the indent, then file:line.
var logLine = regexp.MustCompile(`^    [^ :]+:\d+: `)

// skips lists the package's skipped tests, each with the last message it
// logged (t.Skip's) without its file:line.
func (p *pkgRun) skips(pkg string) []skip {
	var out []skip
	for _, name := range p.order {
		if t := p.tests[name]; t.result == "skip" {
			out = append(out, skip{pkg, name, t.skipReason()})
		}
	}
	return out
}

func (t *test) skipReason() string {
	var msg []string
	for _, l := range t.lines {
		switch {
		case logLine.MatchString(l):
			msg = []string{logLine.ReplaceAllString(strings.TrimSuffix(l, "\n"), "")}
		case msg != nil && strings.HasPrefix(l, "        "):
			msg = append(msg, strings.TrimSpace(l))
		case strings.HasPrefix(l, "--- SKIP"):
			if msg == nil {
				return "(no message)"
			}
			return strings.Join(msg, " ")
		}
	}
	return "(no message)"
}

// summary is the block that ends the output when tests skipped: how many,
// then each reason with its count and the packages it came from.
func summary(skips []skip) string {
	if len(skips) == 0 {
		return ""
	}
	byReason := map[string][]skip{}
	var reasons []string
	for _, s := range skips {
		if byReason[s.reason] == nil {
			reasons = append(reasons, s.reason)
		}
		byReason[s.reason] = append(byReason[s.reason], s)
	}
	sort.SliceStable(reasons, func(i, j int) bool {
		if len(byReason[reasons[i]]) != len(byReason[reasons[j]]) {
			return len(byReason[reasons[i]]) > len(byReason[reasons[j]])
		}
		return reasons[i] < reasons[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d %s skipped:\n", len(skips), plural(len(skips), "test", "tests"))
	for _, r := range reasons {
		fmt.Fprintf(&b, "%4d  %s\n      in %s\n", len(byReason[r]), r, packages(byReason[r]))
	}
	return b.String()
}

// packages names the packages of skips, with a count each.
func packages(skips []skip) string {
	count := map[string]int{}
	for _, s := range skips {
		count[s.pkg]++
	}
	names := make([]string, 0, len(count))
	for name := range count {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		names[i] = fmt.Sprintf("%s (%d)", name, count[name])
	}
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
