package openai

// This file reads a chat-completions request as the compaction gateway
// receives it, once and without decoding its messages, and splices the
// body it forwards upstream (docs/gateway.md, "The wire form"). The
// messages' conversion into kompact's form is chatmessage.go's.

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"

	"kompact"
	"kompact/internal/jsonscan"
)

// ChatRequest is a chat-completions request body as the gateway reads it:
// where each message lies in the body, and the few top-level fields the
// gateway needs. It implements kompact.Conversation. A ChatRequest never
// changes once parsed and is safe for concurrent use; it keeps the body,
// which must not change either.
type ChatRequest struct {
	body []byte
	msgs []msgSpan
	// arrOpen and arrClose are the positions of the messages array's
	// brackets, objClose that of the body's closing brace.
	arrOpen, arrClose, objClose int

	model            string
	stream           bool
	hasStreamOptions bool
	includeUsage     bool
	tools            bool
}

// msgSpan is one message's bytes, body[start:end], and whether they hold
// white space between their tokens.
type msgSpan struct {
	start, end int
	spaced     bool
}

var _ kompact.Conversation = (*ChatRequest)(nil)

// ParseChatRequest reads a chat-completions request body in one pass. The
// body must be one JSON object (white space around it allowed), valid as
// encoding/json's Valid has it and nested at most 10,000 deep (its limit
// too), whose "messages" is an array of objects. No top-level key may
// appear twice (keys compared as encoding/json decodes them): the body is
// refused rather than guessed at. "model", when present and not null, must
// be a string; "stream" true, false or null. "stream_options" counts as
// present whatever its value (null too); include_usage is read only from
// an object. Every other field is left as it is. Any failure is an
// EInvalid *kompact.Error worded for the API's user. The messages
// themselves are checked as JSON only: Message reads each one.
func ParseChatRequest(body []byte) (*ChatRequest, error) {
	return ParseChatRequestAtMost(body, 0)
}

// ParseChatRequestAtMost is ParseChatRequest for a messages array of at
// most maxMessages elements (0: any number). It stops at the first message
// past the limit with a *TooManyMessagesError, so that what a refused body
// costs follows the limit, not the body (a 32 MiB array of empty messages
// holds some eleven million).
func ParseChatRequestAtMost(body []byte, maxMessages int) (*ChatRequest, error) {
	return ParseChatRequestBounded(body, maxMessages, jsonscan.PartLimits{})
}

// ParseChatRequestBounded is ParseChatRequestAtMost that also bounds the
// messages' parts (jsonscan.PartLimits; jsonscan.CountParts counts them),
// message by message as it scans: the first message past a bound is a
// *jsonscan.TooManyPartsError, before any message is decoded.
func ParseChatRequestBounded(body []byte, maxMessages int, parts jsonscan.PartLimits) (*ChatRequest, error) {
	p := requestParser{r: &ChatRequest{body: body, arrOpen: -1}, c: jsonscan.Cursor{B: body}, max: maxMessages,
		parts: jsonscan.PartBudget{Limits: parts}}
	if err := p.object(); err != nil {
		return nil, err
	}
	return p.r, nil
}

// TooManyMessagesError is ParseChatRequestAtMost's error for a messages
// array longer than Max: the bounds error every request parser shares.
type TooManyMessagesError = jsonscan.TooManyMessagesError

// requestParser reads the top-level object.
type requestParser struct {
	r     *ChatRequest
	c     jsonscan.Cursor
	keys  []string
	max   int // the most messages taken, 0 for any number
	parts jsonscan.PartBudget
}

// object reads the top-level object field by field, then checks what
// follows it and that "messages" was there.
func (p *requestParser) object() error {
	c := &p.c
	if c.Peek() != '{' {
		return notAnObject()
	}
	c.I++
	if c.Peek() != '}' {
		if err := p.items('}', p.field); err != nil {
			return err
		}
	}
	p.r.objClose = c.I
	c.I++
	if !c.AtEnd() {
		return p.syntax()
	}
	if p.r.arrOpen < 0 {
		return kompact.Errorf(kompact.EInvalid, "the request has no \"messages\"").
			WithFixes(`Send the conversation as "messages": [{"role": "user", "content": "..."}, ...].`)
	}
	return nil
}

// field reads one key and its value.
func (p *requestParser) field() error {
	key, err := p.key()
	if err != nil {
		return err
	}
	if slices.Contains(p.keys, key) {
		return kompact.Errorf(kompact.EInvalid, "the request has the field %q twice", key).
			WithFixes(fmt.Sprintf("Send %q once: the gateway does not guess which one the provider would take.", key))
	}
	p.keys = append(p.keys, key)
	if !p.c.Tok(':') {
		return p.syntax()
	}
	p.c.WS()
	switch key {
	case "messages":
		return p.messages()
	case "model":
		return p.model()
	case "stream":
		return p.stream()
	case "stream_options":
		p.r.hasStreamOptions = true
		return p.streamOptions()
	case "tools":
		start := p.c.I
		if err := p.skip(); err != nil {
			return err
		}
		p.r.tools = jsonscan.OffersSome(p.c.B[start:p.c.I])
		return nil
	}
	return p.skip()
}

// key reads a key as encoding/json decodes it.
func (p *requestParser) key() (string, error) {
	if p.c.Peek() != '"' {
		return "", p.syntax()
	}
	k, ok := scanKey(&p.c)
	if !ok {
		return "", p.syntax()
	}
	return k, nil
}

// skip moves past one value, checking it.
func (p *requestParser) skip() error {
	if !skipValue(&p.c) {
		return p.syntax()
	}
	return nil
}

// messages reads the messages array, noting each element's span.
func (p *requestParser) messages() error {
	c := &p.c
	if c.Peek() != '[' {
		return kompact.Errorf(kompact.EInvalid, "the request's \"messages\" is not an array").
			WithFixes(`Send "messages" as a list: [{"role": "user", "content": "..."}, ...].`)
	}
	p.r.arrOpen = c.I
	c.I++
	if c.Peek() == ']' {
		p.r.arrClose = c.I
		c.I++
		return nil
	}
	if err := p.items(']', p.message); err != nil {
		return err
	}
	p.r.arrClose = c.I
	c.I++
	return nil
}

// message notes one element of the messages array, which must be an
// object.
func (p *requestParser) message() error {
	c := &p.c
	if c.Peek() != '{' {
		if err := p.skip(); err != nil {
			return err
		}
		return kompact.Errorf(kompact.EInvalid, "messages[%d] is not an object", len(p.r.msgs)).
			WithFixes(`Send each message as an object: {"role": "user", "content": "..."}.`)
	}
	if p.max > 0 && len(p.r.msgs) == p.max {
		return &TooManyMessagesError{Max: p.max}
	}
	start := c.I
	end, spaced, ok := jsonscan.Value(c.B, start)
	if !ok {
		c.I = end
		return p.syntax()
	}
	c.I = end
	if err := p.parts.Take(len(p.r.msgs), jsonscan.CountParts(c.B[start:end], p.parts.Room())); err != nil {
		return err
	}
	p.r.msgs = append(p.r.msgs, msgSpan{start: start, end: end, spaced: spaced})
	return nil
}

// model reads "model": a string or null.
func (p *requestParser) model() error {
	if p.c.Null() {
		return nil
	}
	if p.c.Peek() != '"' {
		return kompact.Errorf(kompact.EInvalid, "the request's \"model\" is not a string").
			WithFixes(`Send the model's name as a string, e.g. "model": "kimi-k2".`)
	}
	s, err := p.str()
	p.r.model = s
	return err
}

// str reads a string as encoding/json decodes it.
func (p *requestParser) str() (string, error) {
	s, ok := scanString(&p.c)
	if !ok {
		return "", p.syntax()
	}
	return s, nil
}

// stream reads "stream": true, false or null.
func (p *requestParser) stream() error {
	on, err := readStream(&p.c)
	p.r.stream = p.r.stream || on
	return err
}

// readStream reads a request's "stream" value at c: true, false or null
// (the chat and Responses codecs' rule).
func readStream(c *jsonscan.Cursor) (bool, error) {
	switch {
	case c.Null():
	case len(c.B)-c.I >= 4 && string(c.B[c.I:c.I+4]) == "true":
		c.I += 4
		return true, nil
	case len(c.B)-c.I >= 5 && string(c.B[c.I:c.I+5]) == "false":
		c.I += 5
	default:
		return false, kompact.Errorf(kompact.EInvalid, "the request's \"stream\" is not true or false").
			WithFixes(`Send "stream": true for a streamed answer, or leave it out.`)
	}
	return false, nil
}

// streamOptions reads "stream_options", noting include_usage: true (of
// keys given twice, the last counts, as in Python's json).
func (p *requestParser) streamOptions() error {
	c := &p.c
	if c.Peek() != '{' {
		return p.skip()
	}
	c.I++
	if c.Tok('}') {
		return nil
	}
	err := p.items('}', func() error {
		key, err := p.key()
		if err != nil {
			return err
		}
		if !c.Tok(':') {
			return p.syntax()
		}
		c.WS()
		if key == "include_usage" {
			p.r.includeUsage = c.Peek() == 't'
		}
		return p.skip()
	})
	if err != nil {
		return err
	}
	c.I++ // the '}'
	return nil
}

// items reads the elements of an array or the fields of an object with
// item, one after each ',', up to close, where it leaves the cursor.
func (p *requestParser) items(close byte, item func() error) error {
	return readList(&p.c, close, item, p.syntax)
}

// readList reads, at c, the elements of an array or the fields of an
// object with item, one after each ',', up to close, where it leaves c;
// anything else there is syntax's error (the chat and Responses codecs'
// rule).
func readList(c *jsonscan.Cursor, close byte, item func() error, syntax func() error) error {
	for {
		if err := item(); err != nil {
			return err
		}
		if !c.Tok(',') {
			break
		}
	}
	if c.Peek() != close {
		return syntax()
	}
	return nil
}

// syntax is the error for a body that is not valid JSON, located at the
// cursor.
func (p *requestParser) syntax() error {
	return kompact.Errorf(kompact.EInvalid, "the request body is not valid JSON (near byte %d of %d)", min(p.c.I, len(p.c.B)), len(p.c.B)).
		WithFixes("Send the chat-completions request as one JSON object, as the OpenAI SDKs do.")
}

func notAnObject() error {
	return kompact.Errorf(kompact.EInvalid, "the request body is not a JSON object").
		WithFixes(`Send a chat-completions request: {"model": "...", "messages": [...]}.`)
}

// Len returns the number of messages.
func (r *ChatRequest) Len() int { return len(r.msgs) }

// Model returns "model" ("" when absent or null).
func (r *ChatRequest) Model() string { return r.model }

// Stream reports whether the request asks for a streamed answer.
func (r *ChatRequest) Stream() bool { return r.stream }

// HasTools reports whether the request offers tools: a "tools" that is
// neither absent, null nor an empty list.
func (r *ChatRequest) HasTools() bool { return r.tools }

// HasStreamOptions reports whether the request has "stream_options" (null
// counts).
func (r *ChatRequest) HasStreamOptions() bool { return r.hasStreamOptions }

// CanAskUsage reports whether Forward's askUsage applies: the request
// streams and has no "stream_options". When it does and the gateway asks,
// the usage chunk is the gateway's, not the client's: RelayStream's strip.
func (r *ChatRequest) CanAskUsage() bool { return r.stream && !r.hasStreamOptions }

// IncludeUsage reports whether the request's stream_options.include_usage
// is true: the client wants the stream's usage chunk.
func (r *ChatRequest) IncludeUsage() bool { return r.includeUsage }

// Body returns the body the request was parsed from.
func (r *ChatRequest) Body() []byte { return r.body }

// Raw returns message i's bytes as the client sent them (the body's
// memory).
func (r *ChatRequest) Raw(i int) []byte {
	s := r.msgs[i]
	return r.body[s.start:s.end:s.end]
}

// compactPool holds the buffers that Digest compacts spaced messages into.
var compactPool = sync.Pool{New: func() any { return new([]byte) }}

// Digest returns the SHA-256 of message i's JSON without insignificant
// white space: messages sent alike, white space aside, digest alike. Keys
// are not reordered, nor escapes or numbers rewritten: the same message
// with its keys in another order, or a character escaped differently,
// digests differently. Each call hashes the message anew.
func (r *ChatRequest) Digest(i int) [32]byte {
	s := r.msgs[i]
	return digestJSON(r.body[s.start:s.end], s.spaced)
}

// digestJSON is the SHA-256 of raw, one JSON value, without its
// insignificant white space (spaced says it has some): the digest of a
// request's message or item, for every codec of the package.
func digestJSON(raw []byte, spaced bool) [32]byte {
	if !spaced {
		return sha256.Sum256(raw)
	}
	bp := compactPool.Get().(*[]byte)
	buf := jsonscan.AppendCompact((*bp)[:0], raw)
	sum := sha256.Sum256(buf)
	if cap(buf) <= 1<<20 {
		*bp = buf
		compactPool.Put(bp)
	}
	return sum
}

// Forward returns the body to send upstream: the body's bytes outside the
// messages array as they are; inside it, messages [0:head] as the client
// sent them, then summary in the wire form (AppendWireMessage), then
// messages [from:Len()] as the client sent them. Each run of the client's
// messages is copied whole, the separators between them included; the
// runs and the summary's messages are joined by a bare comma, and the
// white space just inside the brackets is dropped. With no summary and
// head == from the array is the client's, untouched: Forward(0, nil, 0,
// false) is the body itself (the same slice, not a copy).
//
// askUsage, when the request streams and has no "stream_options", adds
// "stream_options":{"include_usage":true} as the object's last member,
// just before its closing brace; it changes nothing otherwise (a client's
// own stream_options, null too, is never rewritten).
//
// The same arguments give the same bytes, whatever parse of the same body
// they are given to: what reaches the provider is byte-stable from turn to
// turn, for its prompt cache. Forward panics unless 0 <= head <= from <=
// Len(), as slicing would.
func (r *ChatRequest) Forward(head int, summary []kompact.Message, from int, askUsage bool) []byte {
	if head < 0 || head > from || from > len(r.msgs) {
		panic(fmt.Sprintf("openai: Forward(%d, _, %d) of %d messages", head, from, len(r.msgs)))
	}
	addUsage := askUsage && r.CanAskUsage()
	untouched := len(summary) == 0 && head == from
	if untouched && !addUsage {
		return r.body
	}
	dst := make([]byte, 0, len(r.body)+summarySize(summary)+64)
	if untouched {
		dst = append(dst, r.body[:r.objClose]...)
	} else {
		dst = r.spliceArray(dst, head, summary, from)
	}
	if addUsage {
		dst = append(dst, `,"stream_options":{"include_usage":true}`...)
	}
	return append(dst, r.body[r.objClose:]...)
}

// spliceArray appends the body up to its closing brace with the messages
// array spliced (see Forward).
func (r *ChatRequest) spliceArray(dst []byte, head int, summary []kompact.Message, from int) []byte {
	dst = append(dst, r.body[:r.arrOpen+1]...)
	sep := false
	if head > 0 {
		dst = append(dst, r.body[r.msgs[0].start:r.msgs[head-1].end]...)
		sep = true
	}
	for i := range summary {
		if sep {
			dst = append(dst, ',')
		}
		dst = AppendWireMessage(dst, &summary[i])
		sep = true
	}
	if n := len(r.msgs); from < n {
		if sep {
			dst = append(dst, ',')
		}
		dst = append(dst, r.body[r.msgs[from].start:r.msgs[n-1].end]...)
	}
	return append(dst, r.body[r.arrClose:r.objClose]...)
}

// summarySize estimates the wire size of msgs.
func summarySize(msgs []kompact.Message) int {
	if len(msgs) == 0 {
		return 0
	}
	return bodySize("", msgs)
}
