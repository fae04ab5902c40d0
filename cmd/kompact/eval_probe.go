package main

import (
	"context"
	"errors"
	"strings"

	"kompact"
	"kompact/fidelity"
	"kompact/service"
)

// This file is kompact eval's --probe: after a compaction, the agent's
// model is asked one question per planted fact on the compacted session,
// through the continue path (the type's kompact.CompactionType.Reply: the agent's system prompt and
// chat settings), and an answer counts when it holds the fact (the rule
// of "Kept", docs/fidelity.md).

// probeQuestions name what is asked for, per class; the question adds how
// the fact starts, so that it names one fact without giving it.
var probeQuestions = map[kompact.ArtifactClass]string{
	kompact.ArtifactPath:       "Which file or directory path came up earlier in this conversation",
	kompact.ArtifactCommand:    "Which shell command came up earlier in this conversation",
	kompact.ArtifactError:      "Which error message came up earlier in this conversation",
	kompact.ArtifactURL:        "Which URL came up earlier in this conversation",
	kompact.ArtifactIdentifier: "Which identifier from the code came up earlier in this conversation",
	kompact.ArtifactTodo:       "Which TODO item came up earlier in this conversation",
}

// probeQuestion is the question about ft, one of facts: what it is, and
// how it starts.
func probeQuestion(ft fact, facts []fact) string {
	return probeQuestions[ft.Class] + ` that starts with "` + probeHint(ft, facts) + `"? Answer with it exactly and in full, on one line.`
}

// probeHint is the start of ft's text that names it among facts: its
// first third (one character at least), longer when another fact of the
// class starts the same, and never all of it: the question must not hold
// the answer.
func probeHint(ft fact, facts []fact) string {
	r := []rune(ft.Text)
	n := max(1, len(r)/3)
	for n < len(r)-1 && sharedPrefix(ft, facts, string(r[:n])) {
		n++
	}
	return string(r[:min(n, len(r)-1)])
}

// sharedPrefix reports whether another fact of ft's class starts with
// prefix.
func sharedPrefix(ft fact, facts []fact, prefix string) bool {
	for _, o := range facts {
		if o.Class == ft.Class && o.Text != ft.Text && strings.HasPrefix(o.Text, prefix) {
			return true
		}
	}
	return false
}

// probe asks the agent's model about every fact of sc on the compacted
// session and counts, per class, the answers that hold their fact. A
// reply the continue path refuses (empty, only thinking, a tool call)
// holds nothing; any other error stops the run.
func probe(ctx context.Context, llm kompact.LLM, agent *kompact.Agent, sc scenario, compacted *kompact.Session) (map[kompact.ArtifactClass]int, error) {
	found := map[kompact.ArtifactClass]int{}
	for _, ft := range sc.facts {
		answer, err := probeAnswer(ctx, llm, agent, compacted.Messages, probeQuestion(ft, sc.facts))
		if err != nil {
			return nil, err
		}
		art := kompact.Artifact{Class: ft.Class, Text: ft.Text, Sent: true}
		if fidelity.MeasureFidelity([]kompact.Artifact{art}, answer).Kept == 1 {
			found[ft.Class]++
		}
	}
	return found, nil
}

// probeAnswer is the text of the model's reply to question after history,
// within the agent's llm.timeout; "" for a reply without text.
func probeAnswer(ctx context.Context, llm kompact.LLM, agent *kompact.Agent, history []kompact.Message, question string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, agent.LLM.ReplyTimeout())
	defer cancel()
	msgs := append(append(make([]kompact.Message, 0, len(history)+1), history...),
		kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(question)}})
	reply, _, err := service.TypeFor(agent).Reply(ctx, llm, agent, msgs)
	var ke *kompact.Error
	if errors.As(err, &ke) && ke.Code == kompact.EEmptyResponse {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	text := ""
	for _, p := range reply.Content {
		if p.Type == kompact.PartText {
			text += p.Text
		}
	}
	return text, nil
}
