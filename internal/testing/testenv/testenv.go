// Package testenv holds the one rule for tests that need something outside
// the checkout (a PostgreSQL server, an Ollama server, Chromium, the shared
// reference material): without it they skip, except under CI=true, where
// they fail, since CI must run every test (.ci/run provides all of them).
package testenv

import (
	"os"
	"testing"
)

// Require skips tb when ok is false (missing says what is absent, howTo how
// to provide it), and fails it instead under CI=true.
func Require(tb testing.TB, ok bool, missing, howTo string) {
	tb.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s, and CI=true runs every test: %s", missing, howTo)
		return
	}
	tb.Skipf("%s; to run this test, %s", missing, howTo)
}

// Var returns the environment variable name, which must not be empty
// (Require, with howTo saying how to set it).
func Var(tb testing.TB, name, howTo string) string {
	tb.Helper()
	v := os.Getenv(name)
	Require(tb, v != "", name+" is not set", howTo)
	return v
}
