// Package testkimi is test support: the kimi engine's plan and a model's answer, as the tests of
// kimi and internal/storeutil build them. Written once: the test move of issue 41 §1 had copied
// them into both packages.
package testkimi

import (
	"testing"

	"kompact"
	"kompact/kimi"
)

// Prepare is kimi.Prepare of s with opt; an error fails the test.
func Prepare(t *testing.T, s *kompact.Session, opt kimi.Options) *kimi.Plan {
	t.Helper()
	p, err := kimi.Prepare(s, opt)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return p
}

// Answer is a model's answer that thinks first, then says text (10 output tokens).
func Answer(text string) kompact.Answer {
	return kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("thinking"), kompact.TextPart(text)}, Usage: &kompact.Usage{Output: 10}}
}
