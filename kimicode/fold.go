package kimicode

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"kompact"
)

// Limits bound a fold of wire.jsonl (ReadWireContext); a zero field is no limit.
type Limits struct {
	// MaxMessages bounds the messages the context holds at any line, the open steps' and
	// the tool results waiting for their step counted: a file past it is ETooLarge at
	// that line, before the rest is read (the server's import passes
	// --max-request-messages).
	MaxMessages int
	// MaxWork bounds what the applied compactions' rebuilds cost: each message an elided
	// rebuild walks (head and tail) and each of its tokens count one, and the fold may
	// spend DefaultMaxWork plus WorkPerLine for every line read (0: that). A compaction
	// whose kept user messages fit within KeptBudget costs nothing. No file Kimi Code
	// writes comes near it; a file of thousands of compactions of almost nothing but
	// kept user messages is ETooLarge.
	MaxWork int
}

// The fold's work allowance (Limits.MaxWork).
const (
	DefaultMaxWork = 1 << 22
	WorkPerLine    = 128
)

// DamagedError is a line of wire.jsonl that is not a record: not JSON, or JSON of the
// wrong shape. Torn is true for a last line that is cut short (no newline at its end):
// a write torn by a crash, or one still under way.
type DamagedError struct {
	// Line is 1-based, Offset the byte offset of the line's start.
	Line   int
	Offset int64
	Torn   bool
	Err    error
}

func (e *DamagedError) Error() string {
	if e.Torn {
		return fmt.Sprintf("wire.jsonl is damaged: its last line (line %d, at byte offset %d) is cut short: %v", e.Line, e.Offset, e.Err)
	}
	return fmt.Sprintf("wire.jsonl is damaged: line %d (at byte offset %d) is not a record: %v", e.Line, e.Offset, e.Err)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// UnknownRecordError is a context record kompact does not know (another version of Kimi
// Code's records).
type UnknownRecordError struct{ Type string }

func (e *UnknownRecordError) Error() string {
	return fmt.Sprintf("kompact does not know Kimi Code's %q record", e.Type)
}

// lineError is err, met folding line n (at offset, its bytes line), as ReadWireContext
// returns it: a JSON error is a *DamagedError, a kompact error keeps its code.
func lineError(err error, n int, offset int64, line []byte) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &typ) {
		torn := len(line) > 0 && line[len(line)-1] != '\n'
		return &DamagedError{Line: n, Offset: offset, Torn: torn && syntax != nil, Err: err}
	}
	var ke *kompact.Error
	if errors.As(err, &ke) {
		return err
	}
	return fmt.Errorf("wire.jsonl line %d: %w", n, err)
}

// appendMessage puts m at the end of the context.
func (f *fold) appendMessage(m Message) error {
	f.w.Context = append(f.w.Context, m)
	if keptUser(&m) {
		f.users = append(f.users, m)
		f.usersTokens += EstimateMessage(&m)
	}
	return f.checkMessages()
}

// checkMessages is ETooLarge when the context is past Limits.MaxMessages.
func (f *fold) checkMessages() error {
	max := f.lim.MaxMessages
	if max <= 0 {
		return nil
	}
	n := len(f.w.Context) - len(f.dead) + len(f.results)
	if f.base != nil {
		n += f.base.len()
	}
	if n <= max {
		return nil
	}
	return kompact.Errorf(kompact.ETooLarge, "the session's context holds more than %d messages at line %d of wire.jsonl; the server takes at most %d in one request (--max-request-messages)", max, f.w.Lines, max).
		WithFixes("Compact the session with Kimi Code (/compact) before importing it, or restart the server with a larger --max-request-messages.")
}

// compact applies a compaction whose summary message is contextSummary: the context
// becomes what Rebuild makes of it, built from the kept user messages the fold keeps as
// it reads (only an elided rebuild walks them, and pays for it: Limits.MaxWork).
func (f *fold) compact(contextSummary string) error {
	f.flushAll()
	f.sweep()
	head, tail, omitted, elided := selectUsers(f.users, f.usersTokens)
	b := &rebuilt{head: head, tail: tail, summary: []Message{
		userText(contextSummary, Origin{Kind: "compaction_summary"}),
		userText(f.texts.ContinuationText(), Origin{Kind: "injection", Variant: "compaction_continuation"})}}
	if elided {
		e := userText(f.texts.ElisionText(omitted), Origin{Kind: "injection", Variant: "compaction_elision"})
		b.elision = &e
		f.users = append(slices.Clip(head), tail...)
		f.usersTokens = EstimateMessages(f.users)
		f.work += len(f.users) + f.usersTokens
		f.ops += len(f.users)
		if max := f.maxWork(); f.work > max {
			return kompact.Errorf(kompact.ETooLarge, "by line %d, the file's compactions have rebuilt more than %d kept user messages and tokens, the fold's allowance for that many lines (%d, and %d a line)", f.w.Lines, max, DefaultMaxWork, WorkPerLine).
				WithFixes("This is not a session Kimi Code wrote: thousands of compactions of almost nothing. Import a Kimi Code session's wire.jsonl.")
		}
	}
	f.base, f.w.Context = b, nil
	return nil
}

func (f *fold) maxWork() int {
	if f.lim.MaxWork > 0 {
		return f.lim.MaxWork
	}
	return DefaultMaxWork + WorkPerLine*f.w.Lines
}

// sweep takes the steps that closed empty out of the context (no step is open).
func (f *fold) sweep() {
	if len(f.dead) == 0 {
		return
	}
	f.ops += len(f.w.Context)
	ctx := f.w.Context[:0]
	for i, m := range f.w.Context {
		if !f.dead[i] {
			ctx = append(ctx, m)
		}
	}
	clear(f.w.Context[len(ctx):])
	f.w.Context, f.dead = ctx, map[int]bool{}
}

// finish makes w.Context the whole context: what the last compaction left, then the
// messages after it.
func (f *fold) finish() {
	f.sweep()
	b := f.base
	if b == nil {
		return
	}
	f.ops += b.len() + len(f.w.Context)
	ctx := make([]Message, 0, b.len()+len(f.w.Context))
	ctx = append(ctx, b.head...)
	if b.elision != nil {
		ctx = append(ctx, *b.elision)
	}
	ctx = append(append(append(ctx, b.tail...), b.summary...), f.w.Context...)
	f.w.Context = ctx
}
