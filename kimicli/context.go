package kimicli

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"kompact"
	"kompact/internal/jsonwrite"
	"kompact/sessionjson"
)

// The metadata records of a kimi-cli context.jsonl file.
const (
	RecordSystemPrompt = kompact.KimiRecordSystemPrompt
	RecordCheckpoint   = kompact.KimiRecordCheckpoint
	RecordUsage        = kompact.KimiRecordUsage
)

// ContextFile is a kimi-cli session file (context.jsonl) as read: its
// system prompt, its records in file order and the lines that had to be
// skipped.
type ContextFile struct {
	// SystemPrompt is the last _system_prompt record's content, nil when
	// the file has none. It is never one of the messages.
	SystemPrompt *string
	Records      []Record
	// Skipped lists every line that was not read, with its reason.
	Skipped []Skipped
}

// Record is one line of a context file.
type Record struct {
	// Line is the 1-based line number.
	Line int
	// Kind is "message" or one of the metadata record names.
	Kind         string
	Message      kompact.Message
	CheckpointID int64
	TokenCount   int64
	// Text is a metadata record's line as the file has it (without its
	// line end); "" for a message.
	Text string
}

// Skipped is a line that was not read.
type Skipped struct {
	Line   int
	Reason string
}

func (s Skipped) String() string { return "line " + strconv.Itoa(s.Line) + ": " + s.Reason }

// ParseContext reads a context.jsonl file. Like kimi-cli, it passes over
// blank lines, and it skips malformed lines, lines that are not JSON
// objects and messages it cannot read, reporting each in Skipped with its
// line number.
//
// Message lines are read in one pass by sessionjson.MessageScanner; the few
// lines it leaves (metadata records, errors, rare forms) go through the
// precise reading, which words the reasons. A file of splitMin bytes or more
// is read in two halves at once when the program may use two cores. The
// messages' strings may share data's memory: data must not be modified
// afterwards.
func ParseContext(data []byte) *ContextFile {
	mid := 0
	if len(data) >= splitMin && runtime.GOMAXPROCS(0) > 1 {
		mid = middleLine(data)
	}
	return parseContext(data, true, mid)
}

// splitMin is the size from which ParseContext reads a file in two halves.
const splitMin = 1 << 20

// middleLine returns where the first line starting in data's second half
// starts, or 0 when there is none.
func middleLine(data []byte) int {
	i := bytes.IndexByte(data[len(data)/2:], '\n')
	if i < 0 || len(data)/2+i+1 >= len(data) {
		return 0
	}
	return len(data)/2 + i + 1
}

// parseContext reads the file line by line, the lines from mid on (when
// mid > 0; mid starts a line) at the same time as those before; fast
// selects the one-pass reading of message lines (the tests turn it off to
// compare).
func parseContext(data []byte, fast bool, mid int) *ContextFile {
	c := &ContextFile{}
	if mid <= 0 {
		c.parseLines(data, fast)
		return c
	}
	rest := &ContextFile{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rest.parseLines(data[mid:], fast)
	}()
	lines := c.parseLines(data[:mid], fast)
	<-done
	c.append(rest, lines)
	return c
}

// append adds to c what rest read of the lines after c's, which were
// numbered from 1 and come after c's lines lines.
func (c *ContextFile) append(rest *ContextFile, lines int) {
	if rest.SystemPrompt != nil {
		c.SystemPrompt = rest.SystemPrompt
	}
	for i := range rest.Records {
		rest.Records[i].Line += lines
	}
	for i := range rest.Skipped {
		rest.Skipped[i].Line += lines
	}
	if len(rest.Records) > 0 {
		c.Records = slices.Concat(c.Records, rest.Records)
	}
	c.Skipped = append(c.Skipped, rest.Skipped...)
}

// parseLines reads the lines of data into c, which has none yet, and
// returns how many there are. Records has room for one a line.
func (c *ContextFile) parseLines(data []byte, fast bool) int {
	c.Records = make([]Record, 0, bytes.Count(data, []byte{'\n'})+1)
	var ms sessionjson.MessageScanner
	line := 0
	for len(data) > 0 {
		line++
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
		raw = bytes.TrimSuffix(raw, []byte("\r"))
		if fast {
			if m, ok := ms.Scan(raw, "partial"); ok {
				c.Records = append(c.Records, Record{Line: line, Kind: "message", Message: m})
				continue
			}
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			c.parseLine(line, raw)
		}
	}
	return line
}

// parseLine is the precise reading of one non-blank line.
func (c *ContextFile) parseLine(line int, raw []byte) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		c.skip(line, "not valid JSON: "+err.Error())
		return
	}
	if obj == nil {
		c.skip(line, "not a JSON object")
		return
	}
	var role string
	if !c.field(line, obj, "role", &role, `no "role" string`) {
		return
	}
	switch role {
	case RecordSystemPrompt:
		var s string
		if !c.field(line, obj, "content", &s, `_system_prompt without a "content" string`) {
			return
		}
		c.SystemPrompt = &s
		c.Records = append(c.Records, Record{Line: line, Kind: role, Text: string(raw)})
	case RecordCheckpoint:
		var id int64
		if !c.field(line, obj, "id", &id, `_checkpoint without an integer "id"`) {
			return
		}
		c.Records = append(c.Records, Record{Line: line, Kind: role, CheckpointID: id, Text: string(raw)})
	case RecordUsage:
		var n int64
		if !c.field(line, obj, "token_count", &n, `_usage without an integer "token_count"`) {
			return
		}
		c.Records = append(c.Records, Record{Line: line, Kind: role, TokenCount: n, Text: string(raw)})
	default:
		m, err := decodeKimiMessage(obj, raw)
		if err != nil {
			c.skip(line, "message not read: "+err.Error())
			return
		}
		c.Records = append(c.Records, Record{Line: line, Kind: "message", Message: m})
	}
}

// field decodes obj[key] into v. When the key is missing or holds another
// type, it skips the line with reason and returns false.
func (c *ContextFile) field(line int, obj map[string]json.RawMessage, key string, v any, reason string) bool {
	if json.Unmarshal(obj[key], v) != nil {
		c.skip(line, reason)
		return false
	}
	return true
}

func (c *ContextFile) skip(line int, reason string) {
	c.Skipped = append(c.Skipped, Skipped{Line: line, Reason: reason})
}

// decodeKimiMessage reads a message line. kimi-cli writes nulls kompact
// does not (media "id": null, think "encrypted": null), and may write a
// message's "partial" flag; those are accepted.
func decodeKimiMessage(obj map[string]json.RawMessage, raw []byte) (kompact.Message, error) {
	if _, ok := obj["partial"]; ok {
		delete(obj, "partial")
		b, err := json.Marshal(obj)
		if err != nil {
			return kompact.Message{}, err
		}
		raw = b
	}
	return kompact.DecodeMessage(raw, -1)
}

// Messages returns the messages of the file, in order.
func (c *ContextFile) Messages() []kompact.Message {
	n := 0
	for i := range c.Records {
		if c.Records[i].Kind == "message" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]kompact.Message, 0, n)
	for _, r := range c.Records {
		if r.Kind == "message" {
			out = append(out, r.Message)
		}
	}
	return out
}

// TokenCount returns the last _usage record's token count, or -1.
func (c *ContextFile) TokenCount() int64 {
	n := int64(-1)
	for _, r := range c.Records {
		if r.Kind == RecordUsage {
			n = r.TokenCount
		}
	}
	return n
}

// Session returns the file as a kompact session: the system prompt, if any,
// becomes a leading system message; checkpoints and usage are dropped.
func (c *ContextFile) Session() *kompact.Session {
	s := &kompact.Session{}
	if c.SystemPrompt != nil {
		s.Messages = append(s.Messages, kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(*c.SystemPrompt)}})
	}
	s.Messages = append(s.Messages, c.Messages()...)
	return s
}

// KimiSession returns the file as a kimi-cli session of the service:
// Session's messages, and the file's metadata lines, exactly as read, at
// their places among them (kompact.KimiContext), so that FileFromSession
// writes the file back byte for byte (but for the lines that were
// skipped, blank lines, and line ends other than "\n").
func (c *ContextFile) KimiSession() *kompact.Session {
	s := c.Session()
	k := &kompact.KimiContext{SystemPrompt: c.SystemPrompt != nil, Records: []kompact.KimiRecord{}}
	at := len(s.Messages) - len(c.Messages())
	for _, r := range c.Records {
		if r.Kind == "message" {
			at++
			continue
		}
		k.Records = append(k.Records, kompact.KimiRecord{At: at, Line: r.Text})
	}
	s.Kimi = k
	return s
}

// CompactedFile returns the context.jsonl that kimi-cli writes after a
// compaction: the _system_prompt record (when there is one), checkpoint 0,
// the compacted messages, then _usage with the estimated token count. It is
// byte for byte what kimi-cli's own code writes.
func CompactedFile(systemPrompt *string, msgs []kompact.Message, tokenCount int64) []byte {
	var b []byte
	if systemPrompt != nil {
		b = AppendSystemPromptLine(b, *systemPrompt)
	}
	b = AppendCheckpointLine(b, 0)
	for i := range msgs {
		b = AppendMessageLine(b, &msgs[i])
	}
	return AppendUsageLine(b, tokenCount)
}

// AppendSystemPromptLine appends a _system_prompt record, written as
// Python's json.dumps writes it.
// (kompact.KimiSystemPromptLine).
func AppendSystemPromptLine(dst []byte, prompt string) []byte {
	return append(append(dst, kompact.KimiSystemPromptLine(prompt)...), '\n')
}

// AppendCheckpointLine appends a _checkpoint record.
func AppendCheckpointLine(dst []byte, id int64) []byte {
	return append(append(dst, kompact.KimiCheckpointLine(id)...), '\n')
}

// AppendUsageLine appends a _usage record.
func AppendUsageLine(dst []byte, tokenCount int64) []byte {
	return append(append(dst, kompact.KimiUsageLine(tokenCount)...), '\n')
}

// AppendMessageLine appends m as one line of pydantic's compact JSON, the
// way kimi-cli writes message records: keys in kosong's declaration order,
// null fields of the message left out, a lone text part written as a plain
// string, think parts with "encrypted" and media parts with "id" even when
// null.
//
// Two things differ from kimi-cli on purpose, so that kimi-cli can read
// every line back: a tool call without arguments is written with
// "arguments": null (kimi-cli leaves the key out and then cannot restore
// the message), and kompact's data parts, which kimi-cli does not know,
// are written as text parts holding their JSON.
func AppendMessageLine(dst []byte, m *kompact.Message) []byte {
	dst = append(dst, `{"role":`...)
	dst = jsonwrite.AppendString(dst, string(m.Role))
	if m.Name != "" {
		dst = append(dst, `,"name":`...)
		dst = jsonwrite.AppendString(dst, m.Name)
	}
	dst = append(dst, `,"content":`...)
	if len(m.Content) == 1 && m.Content[0].Type == kompact.PartText {
		dst = jsonwrite.AppendString(dst, m.Content[0].Text)
	} else {
		dst = jsonwrite.AppendArray(dst, m.Content, appendKimiPart)
	}
	if m.ToolCalls != nil {
		dst = append(dst, `,"tool_calls":`...)
		dst = jsonwrite.AppendArray(dst, m.ToolCalls, appendKimiCall)
	}
	dst = m.AppendToolCallID(dst)
	return append(dst, "}\n"...)
}

// appendKimiPart appends p as kimi-cli's Part model writes it
// (sessionjson.AppendKimiPart), in jsonwrite.AppendArray's argument order.
func appendKimiPart(p *kompact.Part, dst []byte) []byte { return sessionjson.AppendKimiPart(dst, p) }

// appendKimiCall appends c as kimi-cli's ToolCall model writes it, but
// with "arguments": null when c has none (see AppendMessageLine).
func appendKimiCall(c *kompact.ToolCall, dst []byte) []byte {
	dst = append(dst, `{"type":"function","id":`...)
	dst = jsonwrite.AppendString(dst, c.ID)
	dst = append(dst, `,"function":{"name":`...)
	dst = jsonwrite.AppendString(dst, c.Name)
	dst = append(dst, `,"arguments":`...)
	dst = jsonwrite.AppendStringOrNull(dst, c.Arguments)
	dst = append(dst, '}')
	if len(c.Extras) > 0 {
		dst = append(dst, `,"extras":`...)
		dst = append(dst, c.Extras...)
	}
	return append(dst, '}')
}

// SkippedSummary describes the skipped lines in one sentence, or "".
func (c *ContextFile) SkippedSummary() string {
	if len(c.Skipped) == 0 {
		return ""
	}
	parts := make([]string, len(c.Skipped))
	for i, s := range c.Skipped {
		parts[i] = s.String()
	}
	return strings.Join(parts, "; ")
}

// FileFromSession returns s as a kimi-cli context.jsonl. A kimi-cli
// session (s.Kimi) is written as its file: its metadata lines at their
// places among the message lines, its system prompt message as its
// _system_prompt line only. Any other session is written as kimi-cli
// writes a new file: a leading system message with one text part becomes
// the _system_prompt record, then checkpoint 0, the messages, and _usage
// with kimi-cli's token estimate. Message ids, which kimi-cli does not
// keep, are not written.
func FileFromSession(s *kompact.Session) []byte {
	if s.Kimi != nil {
		return kimiFile(s.Kimi, s.Messages)
	}
	msgs := s.Messages
	var sp *string
	if len(msgs) > 0 && msgs[0].Role == kompact.RoleSystem && len(msgs[0].Content) == 1 && msgs[0].Content[0].Type == kompact.PartText {
		text := msgs[0].Content[0].Text
		sp = &text
		msgs = msgs[1:]
	}
	return CompactedFile(sp, msgs, int64(kompact.EstimateTokens(msgs)))
}

// kimiFile writes msgs with k's records before the messages they come
// before (the ones beyond the list after it), the first message left out
// when it is the system prompt.
func kimiFile(k *kompact.KimiContext, msgs []kompact.Message) []byte {
	var b []byte
	r := 0
	for i := range msgs {
		for ; r < len(k.Records) && k.Records[r].At <= i; r++ {
			b = append(append(b, k.Records[r].Line...), '\n')
		}
		if i == 0 && k.SystemPrompt {
			continue
		}
		b = AppendMessageLine(b, &msgs[i])
	}
	for ; r < len(k.Records); r++ {
		b = append(append(b, k.Records[r].Line...), '\n')
	}
	return b
}
