package storeutil

import (
	"encoding/json"

	"kompact"
)

// kimiWithin returns k for a session of n messages: its records at most after
// the last message (an undo restores the records of a longer list). k is
// not modified; nil stays nil.
func kimiWithin(k *kompact.KimiContext, n int) *kompact.KimiContext {
	if k == nil {
		return nil
	}
	out := &kompact.KimiContext{SystemPrompt: k.SystemPrompt && n > 0, Records: make([]kompact.KimiRecord, len(k.Records))}
	for i, r := range k.Records {
		out.Records[i] = kompact.KimiRecord{At: min(r.At, n), Line: r.Line}
	}
	return out
}

// kimiRestoredTokens returns the token figures kimi-cli restores a file
// with: token_count from its last _usage line, pending the estimate of the
// messages after that line. ok is false when k has no readable _usage
// line (the whole list is estimated, as for any session).
func kimiRestoredTokens(k *kompact.KimiContext, msgs []kompact.Message) (count, pending int, ok bool) {
	if k == nil {
		return 0, 0, false
	}
	for i := len(k.Records) - 1; i >= 0; i-- {
		var rec struct {
			Role       string `json:"role"`
			TokenCount *int64 `json:"token_count"`
		}
		r := k.Records[i]
		if json.Unmarshal([]byte(r.Line), &rec) != nil || rec.Role != kompact.KimiRecordUsage || rec.TokenCount == nil || *rec.TokenCount < 0 {
			continue
		}
		return int(*rec.TokenCount), kompact.EstimateTokens(msgs[min(r.At, len(msgs)):]), true
	}
	return 0, 0, false
}
