package artifacts

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kompact/internal/jsonscan"
)

// ScanJSON calls emit with every artifact of the strings of a JSON value
// (a data part, tool-call arguments): the value of a "command" or "cmd"
// key is a command, the value of a path key without white space a path,
// and any other string is read as tool output. A value that is not JSON
// is read as tool output. Strings are visited in no particular order.
func ScanJSON(data []byte, emit Emit) { NewScanner(emit).ScanJSON(data) }

// ScanJSON calls the scanner's emit with every artifact of the strings of
// a JSON value (see the package ScanJSON).
func (sc *Scanner) ScanJSON(data []byte) {
	if sc.quickJSON(data) {
		return
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		sc.Scan(string(data), Output)
		return
	}
	sc.jsonValue(v, "")
}

func (sc *Scanner) jsonValue(v any, key string) {
	switch v := v.(type) {
	case string:
		sc.jsonString(v, key)
	case []any:
		for _, e := range v {
			sc.jsonValue(e, key)
		}
	case map[string]any:
		for k, e := range v {
			sc.jsonValue(e, k)
		}
	}
}

// pathKeys are the argument names whose values are paths.
var pathKeys = map[string]bool{"path": true, "file": true, "file_path": true, "filepath": true, "filename": true,
	"dir": true, "directory": true, "cwd": true, "target": true, "source": true, "destination": true}

// jsonString scans s, a string of a JSON value under key (the innermost
// object key it is under, "" at the top).
func (sc *Scanner) jsonString(s, key string) {
	switch {
	case key == "command" || key == "cmd":
		if t := Cut(Clean(s)); t != "" {
			sc.s.emit(Command, t)
		}
	case pathKeys[strings.ToLower(key)] && s != "" && !strings.ContainsAny(s, " \t\n") && len(s) <= 1024:
		sc.s.emit(Path, s)
	default:
		sc.Scan(s, Output)
	}
}

// quickJSON scans data as ScanJSON does through encoding/json, in one pass
// and without decoding it into maps, when it can be sure to find the same:
// it reports false, having emitted nothing, for anything else (escapes are
// decoded as encoding/json decodes them; invalid UTF-8, a key twice in an
// object, a number a float64 cannot hold or deep nesting are left to
// encoding/json).
func (sc *Scanner) quickJSON(data []byte) bool {
	type str struct{ s, key string }
	var strs []str
	cur := &jsonscan.Cursor{B: data}
	var walk func(key string, depth int) bool
	walk = func(key string, depth int) bool {
		switch cur.Peek() {
		case '"':
			v, ok := cur.Str()
			strs = append(strs, str{v, key})
			return ok
		case '[':
			return cur.List(depth, func() bool { return walk(key, depth+1) })
		case '{':
			var keys []string
			return cur.Object(depth, func(k []byte) bool {
				if !utf8.Valid(k) || slices.Contains(keys, string(k)) {
					return false
				}
				keys = append(keys, string(k))
				return walk(string(k), depth+1)
			})
		case 't', 'f', 'n':
			return cur.Skip(depth)
		}
		start := cur.I
		if !cur.Skip(depth) {
			return false
		}
		_, err := strconv.ParseFloat(string(data[start:cur.I]), 64)
		return err == nil
	}
	if !walk("", 0) || !cur.AtEnd() {
		return false
	}
	for _, s := range strs {
		sc.jsonString(s.s, s.key)
	}
	return true
}
