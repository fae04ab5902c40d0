package kimicode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"kompact"
)

// Wire is what kompact reads of a Kimi Code agent's wire.jsonl: the agent's profile, its
// tools, its context as the records fold it, its TODO list and where earlier compactions
// were applied.
type Wire struct {
	// Lines is the number of lines of the file.
	Lines int
	// SystemPrompt, ModelAlias and ThinkingEffort come from the last profile.bind.
	SystemPrompt, ModelAlias, ThinkingEffort string
	// Model and Provider are the last llm.request's; SystemPromptHash and ToolsHash
	// too (kompact copies them into its llm.request record).
	Model, Provider, SystemPromptHash, ToolsHash string
	// Tools are the tools a compaction sends, as recorded: those of the snapshot whose
	// hash the last compaction's llm.request names, else the last llm.tools_snapshot's
	// (see ToolsFor).
	Tools []json.RawMessage
	// snapshots are the llm.tools_snapshot tools by hash; compactionTools is the hash
	// the last compaction's llm.request names.
	snapshots       map[string][]json.RawMessage
	compactionTools string
	// Context is the agent's context.
	Context []Message
	// Todos is the last TODO list the TodoList tool stored.
	Todos []Todo
	// Applied are the lines (1-based) of the context.apply_compaction records.
	Applied []int
	// Measured is the last measured token count of the context (0: none).
	Measured int
}

// record is the part of a wire.jsonl record the fold reads.
type record struct {
	Type           string          `json:"type"`
	Message        json.RawMessage `json:"message"`
	Event          json.RawMessage `json:"event"`
	SystemPrompt   *string         `json:"systemPrompt"`
	ModelAlias     string          `json:"modelAlias"`
	ThinkingEffort string          `json:"thinkingEffort"`
	Model          string          `json:"model"`
	Provider       string          `json:"provider"`
	Kind           string          `json:"kind"`
	PromptHash     string          `json:"systemPromptHash"`
	ToolsHash      string          `json:"toolsHash"`
	Hash           string          `json:"hash"`
	Tools          []json.RawMessage
	Key            string          `json:"key"`
	Value          json.RawMessage `json:"value"`
	ContextSummary string          `json:"contextSummary"`
	Tokens         int             `json:"tokens"`
}

// ReadWire folds the records of r, a wire.jsonl, with texts (the rebuilt context of an
// applied compaction carries Kimi Code's reminders), with no limits: ReadWireContext.
func ReadWire(r io.Reader, texts *Texts) (*Wire, error) {
	return ReadWireContext(context.Background(), r, texts, Limits{})
}

// ReadWireContext folds the records of r, a wire.jsonl, with texts, within lim, until ctx
// is done. The fold is linear in the file: open steps close in one pass, and an applied
// compaction rebuilds only the user messages it keeps (see Limits.MaxWork). A line that is
// not JSON is a *DamagedError; a context record kompact does not know is an error too:
// the context it would build could be wrong.
func ReadWireContext(ctx context.Context, r io.Reader, texts *Texts, lim Limits) (*Wire, error) {
	w := &Wire{}
	f := newFold(w, texts, lim)
	br := bufio.NewReaderSize(r, 1<<20)
	offset := int64(0)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			w.Lines++
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if w.Lines%checkEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err := lineUTF8(line, w.Lines, offset); err != nil {
				return nil, err
			}
			if ferr := f.add(line, w.Lines); ferr != nil {
				return nil, lineError(ferr, w.Lines, offset, line)
			}
		}
		offset += int64(len(line))
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	f.flushAll()
	f.finish()
	// Kimi Code's ACP server lists the tools in another order than a resumed `kimi -p`:
	// a session compacted before is compacted again with the same tools.
	if tools, ok := w.snapshots[w.compactionTools]; ok {
		w.Tools, w.ToolsHash = tools, w.compactionTools
	}
	return w, nil
}

// lineUTF8 refuses line n of wire.jsonl (at offset) when it is not valid UTF-8: decoded,
// its bytes would become U+FFFD, and the request, the rebuilt context or an imported
// session would no longer say what the file says (the README: text that is not UTF-8 is
// refused). Every reader of a wire.jsonl (request, compact and sessions import with
// --kimi-code, the import route's format=kimi-code) folds through here.
func lineUTF8(line []byte, n int, offset int64) error {
	if utf8.Valid(line) {
		return nil
	}
	at := 0
	for at < len(line) {
		r, size := utf8.DecodeRune(line[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	return kompact.Errorf(kompact.EInvalid, "wire.jsonl is not valid UTF-8 (at byte %d, in line %d); nothing was read from it", offset+int64(at), n).
		WithFixes("Kimi Code writes its wire.jsonl as UTF-8: a byte that is not was written by something else, or the file is damaged. Restore the session folder from a backup; kompact keeps a session's text as it is and would otherwise have to replace the bytes with U+FFFD.")
}

// checkEvery is how many lines the fold reads between two looks at its context.
const checkEvery = 1024

// fold holds the steps still open while the records are read. While it reads, w.Context
// holds the messages after the last applied compaction; base is what that compaction
// left (finish joins them).
type fold struct {
	w     *Wire
	texts *Texts
	lim   Limits
	// steps maps an open step's uuid to its assistant message's index in w.Context;
	// dead are the indexes of steps that closed empty (swept out before a compaction
	// and at the end).
	steps   map[string]int
	dead    map[int]bool
	results map[string]Message
	// users are the context's kept user messages (base's and w.Context's), usersTokens
	// their estimate: what the next compaction keeps from.
	users       []Message
	usersTokens int
	base        *rebuilt
	// work is what the compactions' rebuilds cost so far (Limits.MaxWork); ops counts
	// the messages and steps the fold visits beyond reading them (its tests' measure).
	work, ops int
}

// rebuilt is the context an applied compaction left: head, the elision note (when
// elided), tail, the summary and the continuation note.
type rebuilt struct {
	head, tail []Message
	elision    *Message
	summary    []Message
}

func (b *rebuilt) len() int {
	n := len(b.head) + len(b.tail) + len(b.summary)
	if b.elision != nil {
		n++
	}
	return n
}

func newFold(w *Wire, texts *Texts, lim Limits) *fold {
	return &fold{w: w, texts: texts, lim: lim, steps: map[string]int{}, dead: map[int]bool{}, results: map[string]Message{}}
}

func (f *fold) add(line []byte, n int) error {
	var r record
	if err := json.Unmarshal(line, &r); err != nil {
		return err
	}
	w := f.w
	switch r.Type {
	case "profile.bind":
		if r.SystemPrompt != nil {
			w.SystemPrompt = *r.SystemPrompt
		}
		w.ModelAlias, w.ThinkingEffort = r.ModelAlias, r.ThinkingEffort
	case "llm.tools_snapshot":
		w.Tools, w.ToolsHash = r.Tools, r.Hash
		if w.snapshots == nil {
			w.snapshots = map[string][]json.RawMessage{}
		}
		w.snapshots[r.Hash] = r.Tools
	case "llm.request":
		if r.Kind == "compaction" {
			w.compactionTools = r.ToolsHash
		}
		if r.Kind == "loop" || w.Model == "" {
			w.Model, w.Provider, w.SystemPromptHash, w.ToolsHash = r.Model, r.Provider, r.PromptHash, r.ToolsHash
		}
	case "token_counting.measured", "token_counting.rebased":
		w.Measured = r.Tokens
	case "tools.update_store":
		if r.Key == "todo" {
			w.Todos = nil
			if err := json.Unmarshal(r.Value, &w.Todos); err != nil {
				return err
			}
		}
	case "context.append_message":
		m, err := decodeMessage(r.Message)
		if err != nil {
			return err
		}
		return f.appendMessage(m)
	case "context.append_loop_event":
		return f.event(r.Event)
	case "context.apply_compaction":
		if err := f.compact(r.ContextSummary); err != nil {
			return err
		}
		w.Applied = append(w.Applied, n)
	default:
		if strings.HasPrefix(r.Type, "context.") {
			return &UnknownRecordError{Type: r.Type}
		}
	}
	return nil
}

// wireMessage is a message as context.append_message records it.
type wireMessage struct {
	Role      string            `json:"role"`
	Content   []json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"toolCalls"`
	ToolCallID string  `json:"toolCallId"`
	Origin     *Origin `json:"origin"`
}

func decodeMessage(raw json.RawMessage) (Message, error) {
	var wm wireMessage
	if err := json.Unmarshal(raw, &wm); err != nil {
		return Message{}, err
	}
	m := Message{Role: wm.Role, ToolCallID: wm.ToolCallID}
	if wm.Origin != nil {
		m.Origin = *wm.Origin
	}
	for _, c := range wm.Content {
		p, err := decodePart(c)
		if err != nil {
			return m, err
		}
		m.Parts = append(m.Parts, p)
	}
	for _, c := range wm.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return m, nil
}

func decodePart(raw json.RawMessage) (Part, error) {
	var p struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		Think string `json:"think"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return Part{}, err
	}
	return Part{Type: p.Type, Text: p.Text, Think: p.Think, Raw: raw}, nil
}
