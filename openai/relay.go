package openai

// This file relays an upstream's answer to the gateway's client: a
// server-sent event stream event by event as it arrives, reading the usage
// it reports on the way (docs/gateway.md, "The wire form").

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"kompact"
	"kompact/internal/bytesize"
)

// DefaultMaxEvent bounds one relayed event when RelayStream is given no
// bound.
const DefaultMaxEvent = 8 << 20

// relayReadSize is how much RelayStream asks of its source at a time.
const relayReadSize = 32 << 10

// RelayStream copies the server-sent events that src carries to dst, each
// one as soon as it is whole, calling flush (when not nil) after the events
// of each read, so that none waits for the next. An event ends at a blank
// line ("\n", "\r\n" or "\r" line ends); the bytes are passed on as they
// came (comments, keep-alives, "data: [DONE]" included), and what follows
// the last event when src ends is passed on too.
//
// Each event's data (its "data:" lines, joined by "\n") that is a JSON
// object with a usage report is read for it: the chunk's non-null "usage"
// or, failing that, the first choice's (Moonshot's), mapped as UsageFrom
// does; a report of no tokens counts as none. RelayStream returns the
// last report, or nil.
//
// With strip set, the usage chunk the gateway asked for on the client's
// behalf is not passed on: an event whose data has a "usage" object (of
// any tokens, none too) and no choices ("choices" absent, null or []).
// Everything else is.
//
// An event longer than maxEvent bytes (0 or less: DefaultMaxEvent), an
// unterminated end of the stream too, stops the relay with an ELLM error
// before any of it is passed on (the events before it are); so does a
// failure to read src. A failure to write dst is returned as it is.
func RelayStream(dst io.Writer, flush func(), src io.Reader, strip bool, maxEvent int) (*kompact.Usage, error) {
	var cu chatUsage
	err := RelayEvents(dst, flush, src, maxEvent, func(data []byte) bool { return cu.read(data) && strip })
	return cu.usage, err
}

// RelayEvents relays the server-sent events of src to dst as RelayStream
// does, with each event's data (its "data:" lines joined by "\n") given
// to read; an event for which read reports true is not passed on. Any
// protocol's stream goes through it: RelayStream reads chat-completions
// usage with it, the Messages face its own.
func RelayEvents(dst io.Writer, flush func(), src io.Reader, maxEvent int, read func(data []byte) bool) error {
	if maxEvent <= 0 {
		maxEvent = DefaultMaxEvent
	}
	r := relay{dst: dst, flush: flush, read: read, max: maxEvent, buf: make([]byte, 0, relayReadSize)}
	for {
		n, err := r.fill(src)
		if n > 0 {
			if werr := r.events(false); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return r.events(true)
		}
		if err != nil {
			return kompact.Errorf(kompact.ELLM, "the upstream's stream broke off: %s", errorText(err))
		}
		if len(r.buf)-r.start > r.max {
			return r.tooLong()
		}
	}
}

// relay is RelayStream's state: buf[start:] is what has not been passed
// on, buf[start:scan] of it known to hold no event's end; line is where
// the line being scanned begins.
type relay struct {
	dst   io.Writer
	flush func()
	read  func(data []byte) bool
	max   int
	buf   []byte
	start int
	scan  int
	line  int
}

// fill appends what src has to buf, making room first: the bytes passed
// on are dropped, and buf grows when an event fills it.
func (r *relay) fill(src io.Reader) (int, error) {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:])
		r.buf = r.buf[:n]
		r.scan -= r.start
		r.line -= r.start
		r.start = 0
	}
	if cap(r.buf)-len(r.buf) < relayReadSize/2 {
		r.buf = append(r.buf, make([]byte, relayReadSize)...)[:len(r.buf)]
	}
	n, err := src.Read(r.buf[len(r.buf):cap(r.buf)])
	r.buf = r.buf[:len(r.buf)+n]
	return n, err
}

// events passes on the whole events in buf (at the end of src, the rest
// too) and flushes.
func (r *relay) events(atEOF bool) error {
	pending := r.start
	for {
		end, ok := r.nextEnd(atEOF)
		if !ok {
			break
		}
		if end-r.start > r.max {
			if err := r.write(pending, r.start); err != nil {
				return err
			}
			return r.tooLong()
		}
		if r.readEvent(r.buf[r.start:end]) {
			if err := r.write(pending, r.start); err != nil {
				return err
			}
			pending = end
		}
		r.start = end
	}
	if atEOF && r.start < len(r.buf) {
		if len(r.buf)-r.start > r.max {
			if err := r.write(pending, r.start); err != nil {
				return err
			}
			return r.tooLong()
		}
		r.readEvent(r.buf[r.start:])
		r.start = len(r.buf)
	}
	return r.write(pending, r.start)
}

func (r *relay) tooLong() error {
	return kompact.Errorf(kompact.ELLM, "the upstream sent an event longer than %s; the relay stopped", bytesize.FormatBytes(int64(r.max)))
}

// write passes on buf[from:to] and flushes.
func (r *relay) write(from, to int) error {
	if from == to {
		return nil
	}
	if _, err := r.dst.Write(r.buf[from:to]); err != nil {
		return err
	}
	if r.flush != nil {
		r.flush()
	}
	return nil
}

// nextEnd finds the end of the event that begins at start: the position
// after its blank line. A "\r" at the end of what has been read may begin
// a "\r\n": it waits for the next byte (or the end of src).
func (r *relay) nextEnd(atEOF bool) (int, bool) {
	b := r.buf
	if r.scan < r.start {
		r.scan, r.line = r.start, r.start
	}
	for i := r.scan; i < len(b); i++ {
		c := b[i]
		if c != '\n' && c != '\r' {
			continue
		}
		end := i + 1
		if c == '\r' {
			if i+1 == len(b) && !atEOF {
				r.scan = i
				return 0, false
			}
			if i+1 < len(b) && b[i+1] == '\n' {
				end++
			}
		}
		blank := i == r.line
		r.line, i = end, end-1
		if blank {
			r.scan = end
			return end, true
		}
	}
	r.scan = len(b)
	return 0, false
}

// readEvent gives the data of the event ev to read, and says whether it
// is not to be passed on.
func (r *relay) readEvent(ev []byte) bool {
	return r.read != nil && r.read(eventData(ev))
}

// chatUsage reads the usage reports of a chat-completions stream.
type chatUsage struct{ usage *kompact.Usage }

// read reads the usage report of an event's data, if it has one, and says
// whether it is a usage chunk (one RelayStream strips when asked).
func (cu *chatUsage) read(data []byte) bool {
	if len(data) == 0 || data[0] != '{' || !bytes.Contains(data, []byte(`"usage"`)) {
		return false
	}
	u, has, choices := chunkUsage(data)
	if u != nil {
		cu.usage = u
	}
	return has && !choices
}

// eventData returns the data of an event: its "data:" lines' values (one
// leading space dropped), joined by "\n".
func eventData(ev []byte) []byte {
	var data []byte
	n := 0
	for len(ev) > 0 {
		line := ev
		ev = nil
		if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
			skip := 1
			if line[i] == '\r' && i+1 < len(line) && line[i+1] == '\n' {
				skip = 2
			}
			line, ev = line[:i], line[i+skip:]
		}
		v, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		v, _ = bytes.CutPrefix(v, []byte(" "))
		if n > 0 {
			data = append(data, '\n')
		}
		data = append(data, v...)
		n++
	}
	return data
}

// wireUsage is a chat-completions usage report.
type wireUsage struct {
	PromptTokens        int64  `json:"prompt_tokens"`
	CompletionTokens    int64  `json:"completion_tokens"`
	CachedTokens        *int64 `json:"cached_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// usage maps the report, nil when it counts no tokens.
func (w *wireUsage) usage() *kompact.Usage {
	if w == nil || (w.PromptTokens == 0 && w.CompletionTokens == 0) {
		return nil
	}
	var details *int64
	if w.PromptTokensDetails != nil {
		details = w.PromptTokensDetails.CachedTokens
	}
	u := UsageFrom(w.PromptTokens, w.CompletionTokens, w.CachedTokens, details)
	return &u
}

// chunkUsage reads the usage of a chunk or a completion: the top-level
// report, else the first choice's. has says whether the top-level "usage"
// is an object (of any tokens), choices whether there is any choice.
func chunkUsage(data []byte) (u *kompact.Usage, has, choices bool) {
	var v struct {
		Usage   *wireUsage `json:"usage"`
		Choices []struct {
			Usage *wireUsage `json:"usage"`
		} `json:"choices"`
	}
	if json.Unmarshal(data, &v) != nil {
		return nil, false, true
	}
	u = v.Usage.usage()
	if u == nil && len(v.Choices) > 0 {
		u = v.Choices[0].Usage.usage()
	}
	return u, v.Usage != nil, len(v.Choices) > 0
}

// CompletionUsage returns the usage report of a non-streamed answer (a
// chat.completion object), as RelayStream reads a chunk's; nil when it has
// none or is not such an object.
func CompletionUsage(body []byte) *kompact.Usage {
	u, _, _ := chunkUsage(body)
	return u
}
