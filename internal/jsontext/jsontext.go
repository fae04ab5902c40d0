// Package jsontext holds the two rules of JSON text that encoding/json does not
// apply and kompact does, on every object and string it interprets (a
// session document, a message, a request body): a key may not be given
// twice (encoding/json keeps the last, so {"role":"user","role":"system"}
// would be a system message), and a string may not hold a lone surrogate
// escape such as \ud800 (encoding/json replaces it by U+FFFD, so the text
// stored would differ from the text sent, as with invalid UTF-8). Data
// parts and tool call extras are kept as they are sent, raw: kompact does
// not interpret them, so these rules do not reach inside them.
package jsontext

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// DecodeObject decodes data, a JSON object, into its members as
// json.Unmarshal does, and returns the first key given twice, or "".
func DecodeObject(data []byte) (map[string]json.RawMessage, string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return obj, "", err
	}
	return obj, RepeatedKey(data, len(obj)), nil
}

// RepeatedKey returns the first key that the JSON object data gives more
// than once, or "" when it gives each once. distinct is the number of
// distinct keys (the length of the map json.Unmarshal makes of data), or
// -1 when not known; when it equals the number of keys, their names are
// not compared. data must be valid JSON.
func RepeatedKey(data []byte, distinct int) string {
	if distinct >= 0 && countKeys(data) == distinct {
		return ""
	}
	key, _ := ObjectFault(data)
	return key
}

// ObjectFault returns the first member of the JSON object data that
// breaks this file's rules at its top level: a key given again (escape
// ""), or a string value holding a lone surrogate escape (escape is that
// escape, such as \ud800). It returns "", "" when there is none; values
// that are objects or lists are not looked into. data must be valid JSON.
func ObjectFault(data []byte) (key, escape string) {
	seen := map[string]bool{}
	members(data, func(k string, v []byte) bool {
		switch {
		case seen[k]:
			key = k
		case len(v) > 0 && v[0] == '"':
			if at := LoneSurrogate(v); at >= 0 {
				key, escape = k, string(v[at:at+6])
			}
		}
		seen[k] = true
		return key == ""
	})
	return key, escape
}

// members calls fn with the key and the raw value of each member of the
// JSON object data, valid JSON, in order, until fn returns false.
func members(data []byte, fn func(key string, value []byte) bool) {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return
	}
	i++
	for {
		i = skipWS(data, i)
		if i >= len(data) || data[i] != '"' {
			return
		}
		end := stringEnd(data, i)
		key := string(data[i+1 : end-1])
		if bytes.IndexByte(data[i:end], '\\') >= 0 {
			_ = json.Unmarshal(data[i:end], &key)
		}
		i = skipWS(data, end) + 1 // past the colon
		i = skipWS(data, i)
		vend := valueEnd(data, i)
		if !fn(key, data[i:vend]) {
			return
		}
		i = skipWS(data, vend)
		if i >= len(data) || data[i] != ',' {
			return
		}
		i++
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the position after the string literal at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the position after the value at b[i].
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// countKeys counts the keys of the outermost object of valid JSON data:
// the colons outside strings at its depth.
func countKeys(data []byte) int {
	n, depth := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = stringEnd(data, i) - 1
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

// DecodeString decodes the JSON string raw into dst as json.Unmarshal
// does, refusing a lone surrogate escape: notString is the error (a
// FieldError's message) when raw is not a string, and the other error
// says which escape it holds.
func DecodeString(raw json.RawMessage, dst *string, notString string) (errMsg string) {
	if json.Unmarshal(raw, dst) != nil {
		return notString
	}
	if at := LoneSurrogate(raw); at >= 0 {
		return surrogateMsg(raw, at)
	}
	return ""
}

// RepeatedMsg says that a key was given twice.
const RepeatedMsg = "given twice; a JSON object names each field once"

// FirstBadUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func FirstBadUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	at := 0
	for at < len(b) {
		r, n := utf8.DecodeRune(b[at:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		at += n
	}
	return at
}
