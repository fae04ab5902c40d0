package kompact_test

import (
	"testing"
	"time"

	"kompact"
)

// TestReplyTimeoutDefault: without llm.timeout a reply has 10 minutes.
func TestReplyTimeoutDefault(t *testing.T) {
	var l kompact.LLMConfig
	if l.ReplyTimeout() != 10*time.Minute || kompact.DefaultReplyTimeout != 10*time.Minute {
		t.Errorf("default reply timeout %s", l.ReplyTimeout())
	}
}

// TestProgressMerge: a coalesced report keeps the text of the one it
// replaces, unless that one belongs to another request or attempt.
func TestProgressMerge(t *testing.T) {
	a := kompact.Progress{Round: 1, Attempt: 1, Chars: 3, Delta: "abc"}
	b := kompact.Progress{Round: 1, Attempt: 1, Chars: 5, Delta: "de"}
	if got := b.Merge(a); got.Delta != "abcde" || got.Chars != 5 {
		t.Errorf("merged %+v", got)
	}
	retry := kompact.Progress{Round: 1, Attempt: 2, Chars: 2, Delta: "xy"}
	if got := retry.Merge(a); got.Delta != "xy" {
		t.Errorf("a retry kept the failed attempt's text: %+v", got)
	}
}
