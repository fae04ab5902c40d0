package kimicode

import (
	"bytes"
	"encoding/json"
	"strings"
)

// jsonString is s as JSON.stringify writes it: no HTML escapes, U+2028 and U+2029 as
// they are.
func jsonString(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	if strings.Contains(out, `\u202`) {
		out = strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(out)
	}
	return out
}

// object writes a JSON object of keys and values in order; a value is a string (quoted),
// an int, a bool, nil (null), json.RawMessage or a nested object.
type object []field

type field struct {
	key   string
	value any
}

func (o object) write(b *bytes.Buffer) {
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(f.key))
		b.WriteByte(':')
		writeValue(b, f.value)
	}
	b.WriteByte('}')
}

func writeValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(jsonString(v))
	case int:
		b.WriteString(itoa(v))
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	case json.RawMessage:
		b.Write(v)
	case object:
		v.write(b)
	case []object:
		writeArray(b, len(v), func(i int) { v[i].write(b) })
	case []json.RawMessage:
		writeArray(b, len(v), func(i int) { b.Write(v[i]) })
	}
}

// writeArray writes a JSON array of n elements, each written by elem.
func writeArray(b *bytes.Buffer, n int, elem func(i int)) {
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		elem(i)
	}
	b.WriteByte(']')
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// bytesOf is o written.
func (o object) bytes() []byte {
	var b bytes.Buffer
	o.write(&b)
	return b.Bytes()
}
