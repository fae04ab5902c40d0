package kompact

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// This file holds the two rules of JSON text that encoding/json does not
// apply and kompact does, on every object and string it interprets (a
// session document, a message, a request body): a key may not be given
// twice (encoding/json keeps the last, so {"role":"user","role":"system"}
// would be a system message), and a string may not hold a lone surrogate
// escape such as \ud800 (encoding/json replaces it by U+FFFD, so the text
// stored would differ from the text sent, as with invalid UTF-8). Data
// parts and tool call extras are kept as they are sent, raw: kompact does
// not interpret them, so these rules do not reach inside them.

// decodeObject decodes data, a JSON object, into its members as
// json.Unmarshal does, and returns the first key given twice, or "".
func decodeObject(data []byte) (map[string]json.RawMessage, string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return obj, "", err
	}
	return obj, RepeatedKey(data, len(obj)), nil
}

// RepeatedKey returns the first key that the JSON object data gives more
// than once, or "" when it gives each once. distinct is the number of
// distinct keys (the length of the map json.Unmarshal makes of data), or
// -1 when not known; when it equals the number of keys, data is not read
// twice. data must be valid JSON.
func RepeatedKey(data []byte, distinct int) string {
	if distinct >= 0 && countKeys(data) == distinct {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// countKeys counts the keys of the outermost object of valid JSON data:
// the colons outside strings at its depth.
func countKeys(data []byte) int {
	n, depth := 0, 0
	inStr, esc := false, false
	for _, c := range data {
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ':':
			if depth == 1 {
				n++
			}
		}
	}
	return n
}

// LoneSurrogate returns the offset in raw (JSON text: a string literal, or
// any value) of the first \u escape of a surrogate that is not one half of
// an escaped pair (a high surrogate, \ud800 to \udbff, followed by a low
// one, \udc00 to \udfff), or -1. Such an escape stands for no character.
func LoneSurrogate(raw []byte) int {
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // the escaped byte, a backslash say, is not the start of another escape
			continue
		}
		r, ok := hex4(raw, i+2)
		switch {
		case !ok:
			i++
			continue
		case r >= 0xD800 && r < 0xDC00:
			if lo, ok := hex4(raw, i+8); ok && raw[i+6] == '\\' && raw[i+7] == 'u' && lo >= 0xDC00 && lo < 0xE000 {
				i += 11
				continue
			}
			return i
		case r >= 0xDC00 && r < 0xE000:
			return i
		}
		i += 5
	}
	return -1
}

// hex4 reads the four hex digits at b[i:], if b has them.
func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	return rune(n), err == nil
}

// surrogateMsg says that raw holds the lone surrogate escape at offset at.
func surrogateMsg(raw []byte, at int) string {
	return "holds the lone surrogate escape " + string(raw[at:at+6]) + ", which stands for no character; send text as UTF-8 (an escaped surrogate must be one half of a pair)"
}

// decodeString decodes the JSON string raw into dst as json.Unmarshal
// does, refusing a lone surrogate escape: notString is the error (a
// FieldError's message) when raw is not a string, and the other error
// says which escape it holds.
func decodeString(raw json.RawMessage, dst *string, notString string) (errMsg string) {
	if json.Unmarshal(raw, dst) != nil {
		return notString
	}
	if at := LoneSurrogate(raw); at >= 0 {
		return surrogateMsg(raw, at)
	}
	return ""
}

// repeatedMsg says that a key was given twice.
const repeatedMsg = "given twice; a JSON object names each field once"
