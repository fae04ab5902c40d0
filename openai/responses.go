package openai

// This file reads a Responses API request (POST /v1/responses, the wire
// Codex CLI speaks) as the gateway's Responses face receives it: once, in
// one pass, noting where each input item lies and the few top-level
// fields the gateway needs, without decoding the items. Reading an item
// into kompact's form is responses_item.go's; what kompact knows of
// Codex's requests is responses_codex.go's; the body forwarded upstream is
// responses_forward.go's (docs/gateway.md, "Codex").

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"kompact"
	"kompact/internal/jsonscan"
)

// ItemKind is what an input item of a Responses request is, by its
// "type" (an item with a "role" and no "type" is a message, as the API
// reads it).
type ItemKind uint8

const (
	// ItemOther is an item of a type the gateway does not read (a web
	// search call, a custom tool call...): kept whole, as data.
	ItemOther ItemKind = iota
	// ItemMessage is a message: developer, system, user or assistant.
	ItemMessage
	// ItemFunctionCall is the model's call of a tool.
	ItemFunctionCall
	// ItemFunctionCallOutput is a tool's output, answering a call.
	ItemFunctionCallOutput
	// ItemReasoning is the model's reasoning, kept opaque.
	ItemReasoning
	// ItemCompaction is a compaction item: the compacted history before
	// it, as an encrypted_content the client does not read.
	ItemCompaction
	// ItemCompactionTrigger asks for a compaction (Codex's remote
	// compaction): {"type": "compaction_trigger"}.
	ItemCompactionTrigger
)

var itemKindNames = [...]string{"other", "message", "function_call", "function_call_output", "reasoning", "compaction", "compaction_trigger"}

func (k ItemKind) String() string {
	if int(k) < len(itemKindNames) {
		return itemKindNames[k]
	}
	return fmt.Sprintf("ItemKind(%d)", uint8(k))
}

// itemKinds maps an item's "type" to its kind.
var itemKinds = map[string]ItemKind{
	"message": ItemMessage, "function_call": ItemFunctionCall, "function_call_output": ItemFunctionCallOutput,
	"reasoning": ItemReasoning, "compaction": ItemCompaction, "compaction_trigger": ItemCompactionTrigger,
}

// ResponsesRequest is a Responses request body as the gateway reads it:
// where each input item lies in the body, what kind each is, and the
// top-level fields the gateway needs. It implements kompact.Conversation
// over the input items, one message per item (Message). A
// ResponsesRequest never changes once parsed and is safe for concurrent
// use; it keeps the body, which must not change either.
type ResponsesRequest struct {
	body  []byte
	items []itemSpan
	// inputText is the input when it is a string (one user message, the
	// API's shorthand), and textInput says it was.
	inputText string
	textInput bool

	model  string
	stream bool
	// tools: whether "tools" was present and whether it was [].
	hasTools, noTools bool
	// hasText: whether "text" (the answer's format) was present.
	hasText bool
	// summaries resolves kompact's compaction handles (WithSummaries).
	summaries SummaryFunc
}

// itemSpan is one input item: its bytes, body[start:end], whether they
// hold white space between their tokens, and its kind (and role, for a
// message).
type itemSpan struct {
	start, end int
	spaced     bool
	kind       ItemKind
	role       string
}

var _ kompact.Conversation = (*ResponsesRequest)(nil)

// ParseResponsesRequest reads a Responses request body in one pass, as
// ParseResponsesRequestBounded with no bounds.
func ParseResponsesRequest(body []byte) (*ResponsesRequest, error) {
	return ParseResponsesRequestBounded(body, 0, jsonscan.PartLimits{})
}

// ParseResponsesRequestBounded reads a Responses request body in one
// pass. The body must be one JSON object (white space around it allowed),
// valid as encoding/json's Valid has it, whose "input" is a string or an
// array of objects. No top-level key may appear twice (keys compared as
// encoding/json decodes them). "model", when present and not null, must
// be a string; "stream" true, false or null; "tools" is noted as present,
// and as [] when it is an empty array; "text" is noted as present. Every
// other field is left as it is. Each item's "type" (and a message's
// "role") is read for its kind; the items are otherwise checked as JSON
// only (Message reads each one).
//
// maxItems (0: any number) bounds the input items: the first item past it
// is a *TooManyMessagesError; parts bounds the items' parts
// (jsonscan.PartLimits, counted by jsonscan.CountParts) item by item: the
// first past a bound is a *jsonscan.TooManyPartsError. Both stop the scan
// there, before any item is decoded, so that what a refused body costs
// follows the bounds, not the body. Every other failure is an EInvalid
// *kompact.Error worded for the API's user.
func ParseResponsesRequestBounded(body []byte, maxItems int, parts jsonscan.PartLimits) (*ResponsesRequest, error) {
	p := responsesParser{r: &ResponsesRequest{body: body}, c: jsonscan.Cursor{B: body}, max: maxItems,
		parts: jsonscan.PartBudget{Limits: parts}}
	if err := p.object(); err != nil {
		return nil, err
	}
	return p.r, nil
}

// responsesParser reads the top-level object of a Responses request.
type responsesParser struct {
	r     *ResponsesRequest
	c     jsonscan.Cursor
	keys  []string
	max   int // the most items taken, 0 for any number
	parts jsonscan.PartBudget
	input bool // "input" was read
}

// object reads the top-level object field by field, then checks what
// follows it and that "input" was there.
func (p *responsesParser) object() error {
	c := &p.c
	if !c.Tok('{') {
		return notAResponsesRequest("the body is not a JSON object")
	}
	if !c.Tok('}') {
		if err := p.list('}', p.field); err != nil {
			return err
		}
		c.I++
	}
	if !c.AtEnd() {
		return p.syntax()
	}
	if !p.input {
		return kompact.Errorf(kompact.EInvalid, `the request has no "input"`).
			WithFixes(`Send the conversation as "input": [{"type": "message", "role": "user", "content": "..."}, ...].`)
	}
	return nil
}

// field reads one key and its value.
func (p *responsesParser) field() error {
	c := &p.c
	c.WS()
	if c.Peek() != '"' {
		return p.syntax()
	}
	key, ok := scanKey(c)
	if !ok || !c.Tok(':') {
		return p.syntax()
	}
	if slices.Contains(p.keys, key) {
		return kompact.Errorf(kompact.EInvalid, "the request has the field %q twice", key).
			WithFixes(fmt.Sprintf("Send %q once: the gateway does not guess which one the provider would take.", key))
	}
	p.keys = append(p.keys, key)
	c.WS()
	switch key {
	case "input":
		p.input = true
		return p.inputValue()
	case "model":
		return p.model()
	case "stream":
		return p.stream()
	case "tools":
		p.r.hasTools = true
		p.r.noTools = c.Peek() == '[' && emptyAfterBracket(c.B, c.I+1)
	case "text":
		p.r.hasText = true
	}
	return p.skip()
}

// emptyAfterBracket reports whether only white space lies between b[i]
// and a closing bracket.
func emptyAfterBracket(b []byte, i int) bool {
	for ; i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'); i++ {
	}
	return i < len(b) && b[i] == ']'
}

// skip moves past one value, checking it.
func (p *responsesParser) skip() error {
	if !skipValue(&p.c) {
		return p.syntax()
	}
	return nil
}

// inputValue reads "input": a string (one user message) or an array of
// items.
func (p *responsesParser) inputValue() error {
	c := &p.c
	switch c.Peek() {
	case '"':
		s, ok := scanString(c)
		if !ok {
			return p.syntax()
		}
		p.r.inputText, p.r.textInput = s, true
		return nil
	case '[':
	default:
		if err := p.skip(); err != nil {
			return err
		}
		return kompact.Errorf(kompact.EInvalid, `the request's "input" is neither a string nor a list of items`).
			WithFixes(`Send "input" as a list of items: [{"type": "message", "role": "user", "content": "..."}, ...].`)
	}
	c.I++
	if c.Tok(']') {
		return nil
	}
	if err := p.list(']', p.item); err != nil {
		return err
	}
	c.I++
	return nil
}

// item notes one element of the input array, which must be an object.
func (p *responsesParser) item() error {
	c := &p.c
	c.WS()
	i := len(p.r.items)
	if c.Peek() != '{' {
		if err := p.skip(); err != nil {
			return err
		}
		return kompact.Errorf(kompact.EInvalid, "input[%d] is not an object", i).
			WithFixes(`Send each input item as an object: {"type": "message", "role": "user", "content": "..."}.`)
	}
	if p.max > 0 && i == p.max {
		return &TooManyMessagesError{Max: p.max}
	}
	start := c.I
	end, spaced, ok := jsonscan.Value(c.B, start)
	c.I = end
	if !ok {
		return p.syntax()
	}
	if err := p.parts.Take(i, jsonscan.CountParts(c.B[start:end], p.parts.Room())); err != nil {
		return err
	}
	span := itemSpan{start: start, end: end, spaced: spaced}
	if err := p.kindOf(&span, i); err != nil {
		return err
	}
	p.r.items = append(p.r.items, span)
	return nil
}

// kindOf reads an item's "type" and "role" into its kind.
func (p *responsesParser) kindOf(s *itemSpan, i int) error {
	d := wireDecoder{c: jsonscan.Cursor{B: p.c.B}, index: i}
	var typ, role int
	d.pick(s.start, []string{"type", "role"}, &typ, &role)
	t, tok := d.str(typ)
	r, rok := d.str(role)
	if (typ != 0 && !tok) || (role != 0 && !rok) {
		return kompact.Errorf(kompact.EInvalid, `input[%d]: "type" and "role" must be strings`, i).
			WithFixes(`Send each item's "type" as a string, e.g. "type": "message".`)
	}
	switch {
	case typ == 0 && role != 0:
		s.kind = ItemMessage
	default:
		s.kind = itemKinds[t]
	}
	if s.kind == ItemMessage {
		s.role = r
	}
	return nil
}

// model reads "model": a string or null.
func (p *responsesParser) model() error {
	if p.c.Null() {
		return nil
	}
	if p.c.Peek() != '"' {
		return kompact.Errorf(kompact.EInvalid, `the request's "model" is not a string`).
			WithFixes(`Send the model's name as a string, e.g. "model": "gpt-5-codex".`)
	}
	s, ok := scanString(&p.c)
	if !ok {
		return p.syntax()
	}
	p.r.model = s
	return nil
}

// stream reads "stream": true, false or null.
func (p *responsesParser) stream() error {
	on, err := readStream(&p.c)
	p.r.stream = p.r.stream || on
	return err
}

// list reads the elements of an array or the fields of an object with
// item, one after each ',', up to close, where it leaves the cursor.
func (p *responsesParser) list(close byte, item func() error) error {
	return readList(&p.c, close, item, p.syntax)
}

// syntax is the error for a body that is not valid JSON, located at the
// cursor.
func (p *responsesParser) syntax() error {
	return notAResponsesRequest(fmt.Sprintf("the body is not valid JSON (near byte %d of %d)", min(p.c.I, len(p.c.B)), len(p.c.B)))
}

// notAResponsesRequest is the error of a body that is not a Responses
// request.
func notAResponsesRequest(why string) error {
	return kompact.Errorf(kompact.EInvalid, "the request body is not a Responses request: %s", why).
		WithFixes(`Send a JSON object like {"model": "...", "input": [{"type": "message", "role": "user", "content": "..."}]}, as Codex and the OpenAI SDKs do.`)
}

// Len returns the number of input items (1 for a string input).
func (r *ResponsesRequest) Len() int {
	if r.textInput {
		return 1
	}
	return len(r.items)
}

// Kind returns input item i's kind (ItemMessage for a string input).
func (r *ResponsesRequest) Kind(i int) ItemKind {
	if r.textInput {
		return ItemMessage
	}
	return r.items[i].kind
}

// Model returns "model" ("" when absent or null).
func (r *ResponsesRequest) Model() string { return r.model }

// Stream reports whether the request asks for a streamed answer.
func (r *ResponsesRequest) Stream() bool { return r.stream }

// NoTools reports whether the request's "tools" is [] (an empty list, not
// an absent one): Codex's local compaction sends it so.
func (r *ResponsesRequest) NoTools() bool { return r.noTools }

// HasTools reports whether the request has "tools" (an empty list too).
func (r *ResponsesRequest) HasTools() bool { return r.hasTools }

// HasText reports whether the request has "text" (the answer's format):
// Codex's title request does.
func (r *ResponsesRequest) HasText() bool { return r.hasText }

// Body returns the body the request was parsed from.
func (r *ResponsesRequest) Body() []byte { return r.body }

// Raw returns input item i's bytes as the client sent them (the body's
// memory); a string input's is its JSON string.
func (r *ResponsesRequest) Raw(i int) []byte {
	if r.textInput {
		return appendTextInput(nil, r.inputText)
	}
	s := r.items[i]
	return r.body[s.start:s.end:s.end]
}

// Digest returns the SHA-256 of item i's JSON without insignificant white
// space: items sent alike, white space aside, digest alike (keys are not
// reordered, nor escapes rewritten). A string input digests as the user
// message it stands for.
func (r *ResponsesRequest) Digest(i int) [32]byte {
	if r.textInput {
		return sha256.Sum256(appendTextInput(nil, r.inputText))
	}
	s := r.items[i]
	return digestJSON(r.body[s.start:s.end], s.spaced)
}

// appendTextInput appends the message a string input stands for.
func appendTextInput(dst []byte, text string) []byte {
	return appendUserItem(dst, text)
}
