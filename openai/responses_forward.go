package openai

// This file writes the Responses body the gateway forwards upstream after
// it answered a remote compaction itself: the compaction item it gave the
// client, which names kompact's summary by a handle, becomes the summary
// as a user message, so that any upstream reads it; every other byte is
// the client's.

import (
	"fmt"
	"strconv"
	"strings"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/internal/jsonwrite"
)

// handlePrefix opens a kompact compaction handle.
const handlePrefix = "kompact:"

// CompactionHandle names the summary a compaction item kompact answered
// stands for: the session and the revision whose summary it is, and the
// summary's text itself, so that the next request can be expanded
// whatever instance of kompact it reaches. Its text form, the item's
// encrypted_content (which Codex never reads), is
// "kompact:SESSION:REVISION", then, when Summary is not "", a newline and
// the summary. It is never the summary's only copy: the session's revision
// holds it.
type CompactionHandle struct {
	Session  string
	Revision int64
	Summary  string
}

// String returns the handle's text form.
func (h CompactionHandle) String() string {
	s := handlePrefix + h.Session + ":" + strconv.FormatInt(h.Revision, 10)
	if h.Summary != "" {
		s += "\n" + h.Summary
	}
	return s
}

// ParseCompactionHandle reads a handle's text form; ok is false for any
// other text (another provider's encrypted content).
func ParseCompactionHandle(s string) (h CompactionHandle, ok bool) {
	s, summary, _ := strings.Cut(s, "\n")
	rest, found := strings.CutPrefix(s, handlePrefix)
	cut := strings.LastIndexByte(rest, ':')
	if !found || cut <= 0 {
		return CompactionHandle{}, false
	}
	rev, err := strconv.ParseInt(rest[cut+1:], 10, 64)
	if err != nil || rev <= 0 || kompact.ValidateSessionID(rest[:cut]) != nil || strconv.FormatInt(rev, 10) != rest[cut+1:] {
		return CompactionHandle{}, false
	}
	return CompactionHandle{Session: rest[:cut], Revision: rev, Summary: summary}, true
}

// EmbeddedSummary is the SummaryFunc of the summaries handles carry.
func EmbeddedSummary(h CompactionHandle) (string, bool) { return h.Summary, h.Summary != "" }

// SummaryFunc returns the text of the summary a handle names; ok is false
// when there is none.
type SummaryFunc func(h CompactionHandle) (text string, ok bool)

// WithSummaries returns the request with f resolving the handles of its
// compaction items (Message reads such an item as its summary).
func (r *ResponsesRequest) WithSummaries(f SummaryFunc) *ResponsesRequest {
	c := *r
	c.summaries = f
	return &c
}

// Handles returns the kompact handles of the request's compaction items,
// in order, with the items' indexes.
func (r *ResponsesRequest) Handles() (idx []int, hs []CompactionHandle) {
	for i := range r.items {
		if r.items[i].kind != ItemCompaction {
			continue
		}
		if h, ok := r.handleAt(i); ok {
			idx, hs = append(idx, i), append(hs, h)
		}
	}
	return idx, hs
}

// handleAt reads item i's encrypted_content as a handle.
func (r *ResponsesRequest) handleAt(i int) (CompactionHandle, bool) {
	d := wireDecoder{c: jsonscan.Cursor{B: r.body}, index: i}
	var at int
	d.pick(r.items[i].start, []string{"encrypted_content"}, &at)
	s, ok := d.str(at)
	if !ok {
		return CompactionHandle{}, false
	}
	return ParseCompactionHandle(s)
}

// UnknownHandleError is Expand's error for a compaction item whose handle
// names no summary kompact has.
type UnknownHandleError struct {
	Index  int
	Handle CompactionHandle
}

func (e *UnknownHandleError) Error() string {
	return fmt.Sprintf("input[%d] is a compaction item naming %s, whose summary kompact does not have", e.Index, e.Handle)
}

// Expand returns the body to forward upstream: each compaction item whose
// encrypted_content is a kompact handle replaced by the summary it names,
// as a user message ({"type":"message","role":"user","content":
// [{"type":"input_text","text":SUMMARY}]}, ExpandItem); every other byte
// as the client sent it. With no such item it returns the body itself
// (the same slice). A handle summary does not resolve is an
// *UnknownHandleError: forwarding it would hand the upstream a compaction
// it cannot read. The same summaries give the same bytes, turn after
// turn, for the upstream's prompt cache.
func (r *ResponsesRequest) Expand(summary SummaryFunc) ([]byte, error) {
	idx, hs := r.Handles()
	if len(idx) == 0 {
		return r.body, nil
	}
	texts := make([]string, len(idx))
	size := len(r.body)
	for k, h := range hs {
		t, ok := summary(h)
		if !ok {
			return nil, &UnknownHandleError{Index: idx[k], Handle: h}
		}
		texts[k] = t
		size += len(t) + 80
	}
	dst := make([]byte, 0, size)
	at := 0
	for k, i := range idx {
		s := r.items[i]
		dst = append(dst, r.body[at:s.start]...)
		dst = ExpandItem(dst, texts[k])
		at = s.end
	}
	return append(dst, r.body[at:]...), nil
}

// ExpandItem appends the user message Expand puts where a kompact
// compaction item was.
func ExpandItem(dst []byte, summary string) []byte {
	return appendUserItem(dst, summary)
}

// appendUserItem appends a user message item of one input_text part.
func appendUserItem(dst []byte, text string) []byte {
	dst = append(dst, `{"type":"message","role":"user","content":[{"type":"input_text","text":`...)
	dst = jsonwrite.AppendString(dst, text)
	return append(dst, `}]}`...)
}
