package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"kompact"
)

// This file reads the stream of kompact's own Messages request into a
// kompact.Answer, within the answer cap.

// maxLine bounds one line of the stream, whatever the cap.
const maxLine = 32 << 20

// jsonUnmarshal is json.Unmarshal (one name for the package's reads).
var jsonUnmarshal = json.Unmarshal

// streamBlock is one content block as the stream builds it.
type streamBlock struct {
	typ, text, signature, data, id, name string
	input                                []byte
}

// streamReader reads one answer's events.
type streamReader struct {
	maxAnswer int64
	report    func(kompact.Progress)
	blocks    []*streamBlock
	usage     StreamUsage
	size      int64
	chars     int
	stopped   bool
}

// streamEvent is the fields of the events the reader uses.
type streamEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock *struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Thinking string `json:"thinking"`
		Data     string `json:"data"`
		ID       string `json:"id"`
		Name     string `json:"name"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// read reads the stream to its message_stop; a stream that ends before
// it, or carries an error event, is an error.
func (sr *streamReader) read(body io.Reader) error {
	limit := min(6*sr.maxAnswer+64<<10, maxLine)
	br := bufio.NewReaderSize(body, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if int64(len(line)) > limit {
			return sr.tooLarge()
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:")); ok {
			if err := sr.event(bytes.TrimSpace(data)); err != nil {
				return err
			}
		}
		line = line[:0]
		if sr.stopped {
			return nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the stream ended before message_stop")
			}
			return fmt.Errorf("the stream broke off: %w", err)
		}
	}
}

// event takes one event's data.
func (sr *streamReader) event(data []byte) error {
	sr.usage.Event(data)
	var ev streamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("an event does not read: %v", err)
	}
	switch ev.Type {
	case "content_block_start":
		if cb := ev.ContentBlock; cb != nil {
			b := &streamBlock{typ: cb.Type, text: cb.Text + cb.Thinking, data: cb.Data, id: cb.ID, name: cb.Name}
			for len(sr.blocks) <= ev.Index {
				sr.blocks = append(sr.blocks, nil)
			}
			sr.blocks[ev.Index] = b
			return sr.grow(cb.Text + cb.Thinking + cb.Data)
		}
	case "content_block_delta":
		return sr.delta(ev)
	case "message_stop":
		sr.stopped = true
	case "error":
		if ev.Error != nil {
			return fmt.Errorf("the stream carried an error: %s: %s", ev.Error.Type, ev.Error.Message)
		}
	}
	return nil
}

// delta applies a content_block_delta.
func (sr *streamReader) delta(ev streamEvent) error {
	if ev.Delta == nil || ev.Index < 0 || ev.Index >= len(sr.blocks) || sr.blocks[ev.Index] == nil {
		return nil
	}
	b, d := sr.blocks[ev.Index], ev.Delta
	switch d.Type {
	case "text_delta":
		b.text += d.Text
		sr.report(kompact.Progress{Chars: sr.chars + utf8.RuneCountInString(d.Text), Delta: d.Text})
		sr.chars += utf8.RuneCountInString(d.Text)
		return sr.grow(d.Text)
	case "thinking_delta":
		b.text += d.Thinking
		sr.chars += utf8.RuneCountInString(d.Thinking)
		sr.report(kompact.Progress{Chars: sr.chars})
		return sr.grow(d.Thinking)
	case "signature_delta":
		b.signature += d.Signature
	case "input_json_delta":
		b.input = append(b.input, d.PartialJSON...)
		return sr.grow(d.PartialJSON)
	}
	return nil
}

// grow counts s toward the answer cap.
func (sr *streamReader) grow(s string) error {
	sr.size += int64(len(s))
	if sr.size > sr.maxAnswer {
		return sr.tooLarge()
	}
	return nil
}

func (sr *streamReader) tooLarge() error {
	return &kompact.Error{Code: kompact.ELLM, Err: kompact.ErrAnswerTooLarge,
		Message: fmt.Sprintf("the LLM sent an answer longer than %d bytes (llm.max_answer_bytes); the call was stopped and nothing was written", sr.maxAnswer)}
}

// answer is what the stream built.
func (sr *streamReader) answer() kompact.Answer {
	var a kompact.Answer
	for _, b := range sr.blocks {
		if b == nil {
			continue
		}
		switch b.typ {
		case "text":
			a.Parts = append(a.Parts, kompact.TextPart(b.text))
		case "thinking":
			sig := b.signature
			a.Parts = append(a.Parts, kompact.Part{Type: kompact.PartThink, Think: b.text, Encrypted: &sig})
		case "redacted_thinking":
			data := b.data
			a.Parts = append(a.Parts, kompact.Part{Type: kompact.PartThink, Encrypted: &data})
		case "tool_use":
			args := string(b.input)
			if args == "" {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, kompact.ToolCall{ID: b.id, Name: b.name, Arguments: &args})
		}
	}
	a.Usage = sr.usage.Usage()
	return a
}
