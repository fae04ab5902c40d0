package jsonscan

// This file checks whole JSON values exactly as encoding/json's Valid does
// (objects with any keys, escaped ones too; strings' escapes checked, their
// UTF-8 not), in one pass without recursion, and compacts them.

// MaxDepth is the nesting Value accepts: encoding/json's own limit.
const MaxDepth = 10000

// Value checks the JSON value that starts at b[i] (no white space before
// it) and returns the position after it, whether it holds insignificant
// white space (between its tokens), and whether it is valid. It accepts
// what encoding/json's Valid accepts of a value, up to MaxDepth of nesting.
func Value(b []byte, i int) (end int, spaced, ok bool) {
	v := valueScan{b: b, i: i}
	if !v.run() {
		return v.i, v.spaced, false
	}
	return v.i, v.spaced, true
}

// valueScan is Value's state: the position, the open containers (a bit
// each, set for an object: the first 64 in low, the others in high),
// whether the last token opened one (its first element or key comes next)
// and whether white space was met.
type valueScan struct {
	b      []byte
	i      int
	depth  int
	low    uint64
	high   []uint64
	opened bool
	spaced bool
}

// push opens a container.
func (v *valueScan) push(obj bool) {
	var bit uint64
	if obj {
		bit = 1
	}
	if d := v.depth; d < 64 {
		v.low = v.low&^(1<<d) | bit<<d
	} else {
		d -= 64
		if d/64 >= len(v.high) {
			v.high = append(v.high, 0)
		}
		v.high[d/64] = v.high[d/64]&^(1<<(d%64)) | bit<<(d%64)
	}
	v.depth++
}

// top reports whether the innermost open container is an object.
func (v *valueScan) top() bool {
	d := v.depth - 1
	if d < 64 {
		return v.low>>d&1 == 1
	}
	d -= 64
	return v.high[d/64]>>(d%64)&1 == 1
}

// ws moves past white space, noting it.
func (v *valueScan) ws() {
	start := v.i
	for v.i < len(v.b) && isSpace(v.b[v.i]) {
		v.i++
	}
	if v.i > start {
		v.spaced = true
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next returns the byte after white space, or 0 at the end.
func (v *valueScan) next() byte {
	v.ws()
	if v.i < len(v.b) {
		return v.b[v.i]
	}
	return 0
}

// run reads values and the punctuation after them until the outermost
// value is closed.
func (v *valueScan) run() bool {
	for {
		if !v.value() {
			return false
		}
		if v.opened {
			v.opened = false
			continue
		}
		more, ok := v.after()
		if !ok || !more {
			return ok
		}
	}
}

// after reads what follows a value: closings, then a comma (and in an
// object the next key). more says that a value comes next.
func (v *valueScan) after() (more, ok bool) {
	for v.depth > 0 {
		obj := v.top()
		switch c := v.next(); {
		case c == ',':
			v.i++
			return true, !obj || v.key()
		case obj && c == '}', !obj && c == ']':
			v.i++
			v.depth--
		default:
			return false, false
		}
	}
	return false, true
}

// value reads a scalar, or the opening of a container and, for an object,
// its first key (an empty container is read whole).
func (v *valueScan) value() bool {
	switch c := v.next(); c {
	case '{', '[':
		v.i++
		if v.depth >= MaxDepth {
			return false
		}
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		if v.next() == closing {
			v.i++
			return true
		}
		v.push(c == '{')
		v.opened = true
		return c == '[' || v.key()
	case '"':
		return v.str()
	}
	s := Cursor{B: v.b, I: v.i}
	if !s.Skip(0) {
		return false
	}
	v.i = s.I
	return true
}

// key reads an object key and its colon.
func (v *valueScan) key() bool {
	if v.next() != '"' || !v.str() {
		return false
	}
	if v.next() != ':' {
		return false
	}
	v.i++
	return true
}

// str reads a string (the cursor at its quote), checking its escapes.
func (v *valueScan) str() bool {
	s := Cursor{B: v.b, I: v.i}
	if !s.skipString() {
		return false
	}
	v.i = s.I
	return true
}

// AppendCompact appends the valid JSON raw to dst without insignificant
// white space.
func AppendCompact(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case isSpace(c):
			i++
		case c == '"':
			end := stringEnd(raw, i)
			dst = append(dst, raw[i:end]...)
			i = end
		default:
			j := i + 1
			for j < len(raw) && !isSpaceOrQuote(raw[j]) {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		}
	}
	return dst
}

func isSpaceOrQuote(c byte) bool { return isSpace(c) || c == '"' }

// stringEnd returns the position after the string that opens at b[i] (of a
// valid document).
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		end, stop, _ := PlainRun(b, j)
		switch stop {
		case '"':
			return end + 1
		case '\\':
			j = end + 2
		default:
			if end >= len(b) {
				return len(b)
			}
			j = end + 1
		}
	}
}

// OffersSome reports whether a valid JSON value holds something: it is
// neither null nor an empty list (a request's "tools", say).
func OffersSome(raw []byte) bool {
	i := 0
	ws := func() {
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
			i++
		}
	}
	ws()
	if i < len(raw) && raw[i] == 'n' {
		return false
	}
	if i < len(raw) && raw[i] == '[' {
		i++
		ws()
		return i < len(raw) && raw[i] != ']'
	}
	return i < len(raw)
}
