package sessionjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// MessageAt names the message of a session document, read from r, whose
// JSON text holds byte off of the document: "messages[i]", or "" when off
// is outside the messages list or the document does not read that far as
// JSON. It reads r once, holding one message at a time, so it can say
// where a long document's bad byte sits (a byte that is not UTF-8, which
// JSON's syntax lets through) without holding the document.
func MessageAt(r io.Reader, off int64) string {
	br := bufio.NewReader(r)
	base := int64(0)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		_, _ = br.Discard(3)
		base = 3
	}
	dec := json.NewDecoder(br)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key != "messages" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil || base+dec.InputOffset() > off {
				return ""
			}
			continue
		}
		return listItemAt(dec, base, off)
	}
	return ""
}

// listItemAt reads the list dec is at and names its item holding off.
func listItemAt(dec *json.Decoder, base, off int64) string {
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return ""
	}
	for i := 0; dec.More(); i++ {
		var item json.RawMessage
		if dec.Decode(&item) != nil {
			return ""
		}
		if end := base + dec.InputOffset(); end > off {
			if end-int64(len(item)) > off {
				return "" // between items
			}
			return "messages[" + strconv.Itoa(i) + "]"
		}
	}
	return ""
}

// LineAt is the line (from 1) of data that holds byte off: where a bad byte
// of a file with one JSON record a line (a kimi-cli context.jsonl) sits.
func LineAt(data []byte, off int) int {
	return bytes.Count(data[:min(off, len(data))], []byte{'\n'}) + 1
}
