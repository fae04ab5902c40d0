package sessionjson

import (
	"bytes"
	"encoding/json"

	"kompact"
)

// LooksLikeKimiContext reports whether data begins as a kimi-cli
// context.jsonl does: its first non-blank line is a JSON object whose
// "role" is a metadata record's or a message role. A session document
// posted or passed by mistake in its place is told apart by it.
func LooksLikeKimiContext(data []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	var rec struct {
		Role string `json:"role"`
	}
	if json.Unmarshal(line, &rec) != nil {
		return false
	}
	switch rec.Role {
	case kompact.KimiRecordSystemPrompt, kompact.KimiRecordCheckpoint, kompact.KimiRecordUsage:
		return true
	}
	return kompact.Role(rec.Role).Valid()
}
