package kompact

import (
	"strconv"
	"strings"

	"kompact/internal/jsonwrite"
)

// This file is the kimi-cli side of a stored session: what marks a session as a kimi-cli
// context.jsonl's and keeps what of that file is not one of its messages, so that the file
// comes back byte for byte and a compaction writes it as kimi-cli's /compact does
// (docs/kimi-cli.md, "Sessions in the service").

// KimiContext marks a session as a kimi-cli context.jsonl's (Session.Kimi) and keeps the file's
// metadata lines, exactly as read, at their places among the messages. A kompact session has
// none.
type KimiContext struct {
	// SystemPrompt says that the session's first message is the file's system prompt: the file
	// holds it as a _system_prompt record (in Records), not as a message line, and it is not
	// part of the history a compaction reads.
	SystemPrompt bool `json:"system_prompt,omitempty"`
	// Records are the _system_prompt, _checkpoint and _usage lines, in file order.
	Records []KimiRecord `json:"records"`
}

// The lines of kimi-cli's metadata records, as Python's json.dumps writes them (", " and ": "
// separators, non-ASCII and DEL as \uXXXX).

// History returns how many leading messages of msgs are not kimi-cli history: 1 for the system
// prompt message, else 0. k may be nil.
func (k *KimiContext) History(msgs []Message) int {
	if k != nil && k.SystemPrompt && len(msgs) > 0 {
		return 1
	}
	return 0
}

// compacted returns the context after a compaction whose committed list begins with msgs
// (kimi-cli's compacted history, after the system prompt message when there is one): what
// kimi-cli writes in a new file, the _system_prompt record, checkpoint 0, the messages, then
// _usage with tokenCount (KimiSystemPromptLine and the others). Messages appended after msgs
// follow the _usage line.
func (k *KimiContext) compacted(msgs []Message, tokenCount int) *KimiContext {
	off := k.History(msgs)
	out := &KimiContext{SystemPrompt: off == 1}
	if off == 1 && len(msgs[0].Content) == 1 {
		out.Records = append(out.Records, KimiRecord{At: 1, Line: KimiSystemPromptLine(msgs[0].Content[0].Text)})
	}
	out.Records = append(out.Records,
		KimiRecord{At: off, Line: KimiCheckpointLine(0)},
		KimiRecord{At: len(msgs), Line: KimiUsageLine(int64(tokenCount))})
	return out
}

// validateKimi checks a session's kimi-cli context against its n messages: the records in
// order, within the list, one line each, and the system prompt message a system message with
// one text part.
func validateKimi(k *KimiContext, msgs []Message) error {
	if k == nil {
		return nil
	}
	fix := "The kimi-cli context of a session comes from a kimi-cli import (format=kimi); send the file itself."
	if k.SystemPrompt && (len(msgs) == 0 || msgs[0].Role != RoleSystem || len(msgs[0].Content) != 1 || msgs[0].Content[0].Type != PartText) {
		return Errorf(EInvalid, "kimi.system_prompt: the first message is not a system message with one text part").WithFixes(fix)
	}
	prev := 0
	for i, r := range k.Records {
		switch {
		case r.At < prev || r.At > len(msgs):
			return Errorf(EInvalid, "kimi.records[%d].at: %d is out of order or beyond the %d messages", i, r.At, len(msgs)).WithFixes(fix)
		case r.Line == "" || strings.ContainsAny(r.Line, "\r\n"):
			return Errorf(EInvalid, "kimi.records[%d].line: a record is one non-empty line", i).WithFixes(fix)
		}
		prev = r.At
	}
	return nil
}

// AppendJSON appends k's JSON form: {"system_prompt":true,"records":[...]} (system_prompt only
// when set).
func (k *KimiContext) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if k.SystemPrompt {
		dst = append(dst, `"system_prompt":true,`...)
	}
	dst = append(dst, `"records":[`...)
	for i, r := range k.Records {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"at":`...)
		dst = strconv.AppendInt(dst, int64(r.At), 10)
		dst = append(dst, `,"line":`...)
		dst = jsonwrite.AppendString(dst, r.Line)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// MarshalJSON writes AppendJSON's form.
func (k KimiContext) MarshalJSON() ([]byte, error) { return k.AppendJSON(nil), nil }

// KimiRecord is a metadata line of a kimi-cli file.
type KimiRecord struct {
	// At is the index of the session message the line comes before; the number of messages for
	// a line after the last.
	At int `json:"at"`
	// Line is the line as the file has it, without its newline.
	Line string `json:"line"`
}

// The roles of kimi-cli's metadata records.
const (
	KimiRecordSystemPrompt = "_system_prompt"
	KimiRecordCheckpoint   = "_checkpoint"
	KimiRecordUsage        = "_usage"
)

// KimiSystemPromptLine is the _system_prompt record of prompt.
func KimiSystemPromptLine(prompt string) string {
	b := append([]byte(nil), `{"role": "_system_prompt", "content": `...)
	b = jsonwrite.AppendStringASCII(b, prompt)
	return string(append(b, '}'))
}

// KimiCheckpointLine is the _checkpoint record of id.
func KimiCheckpointLine(id int64) string {
	return `{"role": "_checkpoint", "id": ` + strconv.FormatInt(id, 10) + "}"
}

// KimiUsageLine is the _usage record of a token count.
func KimiUsageLine(tokenCount int64) string {
	return `{"role": "_usage", "token_count": ` + strconv.FormatInt(tokenCount, 10) + "}"
}
