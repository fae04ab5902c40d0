package artifacts

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kompact/internal/jsonscan"
)

// ScanJSON calls the scanner's emit with every artifact of the strings of
// a JSON value (a data part, tool-call arguments): the value of a
// "command" or "cmd" key is a command, the value of a path key without
// white space a path, and any other string is read as tool output. A
// value that is not JSON is read as tool output. Strings are visited in no
// particular order.
func (sc *Scanner) ScanJSON(data []byte) {
	sc.scanJSON(jsonscan.Cursor{B: data}, func() string { return string(data) })
}

// ScanJSONString is ScanJSON of a JSON value held in a string (tool-call
// arguments), read where it is: what it emits may share s's memory.
func (sc *Scanner) ScanJSONString(s string) {
	sc.scanJSON(jsonscan.StringCursor(s), func() string { return s })
}

// scanJSON scans the value under cur; text returns it as a string, read as
// tool output when it is not JSON.
func (sc *Scanner) scanJSON(cur jsonscan.Cursor, text func() string) {
	if sc.quickJSON(cur) {
		return
	}
	var v any
	if err := json.Unmarshal(cur.B, &v); err != nil {
		sc.Scan(text(), Output)
		return
	}
	eachJSONString(v, "", sc.jsonString)
}

// eachJSONString calls f with each string of v, a value encoding/json
// decoded, and the innermost object key it is under ("" at the top).
func eachJSONString(v any, key string, f func(s, key string)) {
	switch v := v.(type) {
	case string:
		f(v, key)
	case []any:
		for _, e := range v {
			eachJSONString(e, key, f)
		}
	case map[string]any:
		for k, e := range v {
			eachJSONString(e, k, f)
		}
	}
}

// pathKeys are the argument names whose values are paths.
var pathKeys = map[string]bool{"path": true, "file": true, "file_path": true, "filepath": true, "filename": true,
	"dir": true, "directory": true, "cwd": true, "target": true, "source": true, "destination": true}

// jsonString scans s, a string of a JSON value under key.
func (sc *Scanner) jsonString(s, key string) {
	if c, text := jsonRule(s, key); c != 0 {
		if text != "" {
			sc.s.emit(c, text)
		}
		return
	}
	sc.Scan(s, Output)
}

// jsonRule returns the artifact s, a string of a JSON value under key (the
// innermost object key it is under, "" at the top), is by its key: a
// command ("" when s is blank) or a path; class 0 when its key makes it
// neither, and it is read as tool output.
func jsonRule(s, key string) (Class, string) {
	switch {
	case key == "command" || key == "cmd":
		return Command, Cut(Clean(s))
	case pathKeys[strings.ToLower(key)] && s != "" && !strings.ContainsAny(s, " \t\n") && len(s) <= 1024:
		if strings.HasPrefix(s, "./") {
			return Path, dotSlash(s, asPath)
		}
		return Path, s
	}
	return 0, ""
}

// quickJSON scans the value under cur as ScanJSON does through
// encoding/json, in one pass and without decoding it into maps, when it
// can be sure to find the same: it reports false, having emitted nothing,
// for anything else (escapes are decoded as encoding/json decodes them;
// invalid UTF-8, a key twice in an object, a number a float64 cannot hold
// or deep nesting are left to encoding/json).
func (sc *Scanner) quickJSON(cur jsonscan.Cursor) bool {
	w := &sc.json
	w.cur = cur
	defer w.reset()
	if !w.value(nil, 0) || !w.cur.AtEnd() {
		return false
	}
	for _, s := range w.strs {
		sc.jsonString(s.s, string(s.key))
	}
	return true
}

// jsonWalk is quickJSON's state, which a Scanner keeps from one value to
// the next.
type jsonWalk struct {
	cur jsonscan.Cursor
	// strs are the strings read, each with the innermost key it is under.
	strs []jsonStr
	// keys are the keys read so far of each object being read, the
	// innermost object's last.
	keys [][]byte
}

type jsonStr struct {
	s   string
	key []byte
}

// reset forgets the value read, keeping the buffers.
func (w *jsonWalk) reset() {
	clear(w.strs)
	clear(w.keys)
	w.strs, w.keys, w.cur = w.strs[:0], w.keys[:0], jsonscan.Cursor{}
}

// value reads one value under key at depth, false when quickJSON must
// leave it to encoding/json.
func (w *jsonWalk) value(key []byte, depth int) bool {
	switch w.cur.Peek() {
	case '"':
		v, ok := w.cur.Str()
		w.strs = append(w.strs, jsonStr{v, key})
		return ok
	case '[':
		return w.cur.List(depth, func() bool { return w.value(key, depth+1) })
	case '{':
		first := len(w.keys)
		ok := w.cur.Object(depth, func(k []byte) bool {
			if !utf8.Valid(k) || slices.ContainsFunc(w.keys[first:], func(e []byte) bool { return bytes.Equal(e, k) }) {
				return false
			}
			w.keys = append(w.keys, k)
			return w.value(k, depth+1)
		})
		w.keys = w.keys[:first]
		return ok
	case 't', 'f', 'n':
		return w.cur.Skip(depth)
	}
	start := w.cur.I
	if !w.cur.Skip(depth) {
		return false
	}
	_, err := strconv.ParseFloat(string(w.cur.B[start:w.cur.I]), 64)
	return err == nil
}
