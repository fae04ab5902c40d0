package anthropic

import (
	"strconv"
	"strings"
)

// This file is the text of the gateway's answer to Claude Code's own
// compaction request (docs/gateway.md, "Claude Code"): the summary kompact
// committed for it, then the client's recent messages that the summary
// does not cover, in the <summary> tags Claude Code reads.

// summaryTags turns the tags Claude Code reads in a compaction answer into
// plain brackets inside the answer's own <summary>, so that a summary
// that holds such tags itself is kept whole.
var summaryTags = strings.NewReplacer("<summary>", "[summary]", "</summary>", "[/summary]", "<analysis>", "[analysis]", "</analysis>", "[/analysis]")

// ClaudeCodeCompactionAnswer is the answer to Claude Code's compaction
// request for model from the summary committed as revision of session
// sessionID: one text block, summary, then recent (the client's messages
// after it, as text; "" for none), in <summary> tags (Claude Code 2.1.332
// keeps what they hold; an answer without them it asks for again); usage
// reporting the compacted context, tokens, so that the client does not
// compact again at once.
func ClaudeCodeCompactionAnswer(sessionID string, revision int64, model, summary, recent string, tokens int) *Answer {
	text := summary
	if recent != "" {
		text += "\n\nThe most recent messages, which the summary above does not cover:\n\n" + recent
	}
	text = "<summary>\n" + summaryTags.Replace(text) + "\n</summary>"
	return &Answer{ID: "msg_kompact_" + sessionID + "_" + strconv.FormatInt(revision, 10), Model: model, Text: text,
		InputTokens: tokens, OutputTokens: max(len(text)/4, 1)}
}
