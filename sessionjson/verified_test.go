package sessionjson_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
	"kompact/sessionjson"
)

// TestVerifiedHoldsDecodedText: the texts DecodeSession shares with the
// document are held, cut pieces only at character boundaries; decoded
// escapes, copies and the zero Verified are not.
func TestVerifiedHoldsDecodedText(t *testing.T) {
	doc := []byte(`{"messages":[{"role":"user","content":[` +
		`{"type":"text","text":"plain words"},{"type":"text","text":"数据 ok 🚀"},` +
		`{"type":"text","text":"line\nbreak"},{"type":"text","text":"\u00e9t\u00e9"}]}]}`)
	s, err := sessionjson.DecodeSession(doc)
	if err != nil {
		t.Fatal(err)
	}
	v := sessionjson.VerifiedDocument(doc)
	parts := s.Messages[0].Content
	plain, mixed, escaped, unicode := parts[0].Text, parts[1].Text, parts[2].Text, parts[3].Text
	for _, c := range []struct {
		name string
		s    string
		want bool
	}{
		{"plain text", plain, true},
		{"mixed-script text", mixed, true},
		{"a whole character cut from it", mixed[:3], true},
		{"a piece ending inside a character", mixed[:2], false},
		{"a piece starting inside a character", mixed[1:], false},
		{"a piece ending inside the emoji", mixed[:len(mixed)-1], false},
		{"text that held escapes", escaped, false},
		{"text that held \\u escapes", unicode, false},
		{"a copy", strings.Clone(plain), false},
		{"the empty string", "", false},
	} {
		if got := v.Holds(c.s); got != c.want {
			t.Errorf("%s %q: Holds = %v, want %v", c.name, c.s, got, c.want)
		}
	}
	if (sessionjson.Verified{}).Holds(plain) {
		t.Error("the zero Verified holds a decoded text")
	}
	sameVerifiedWire(t, doc, s.Messages)
}

// sameVerifiedWire checks that encoding msgs, decoded from doc, with doc
// verified writes exactly the bytes of encoding them without: every text
// part, every piece of a short text cut at any byte (pieces that cut a
// character are checked and repaired as before), and the whole request
// body.
func sameVerifiedWire(t *testing.T, doc []byte, msgs []kompact.Message) {
	t.Helper()
	v := sessionjson.VerifiedDocument(doc)
	for i := range msgs {
		for j := range msgs[i].Content {
			p := msgs[i].Content[j]
			samePart(t, &p, v)
			if text := p.Text; p.Type == kompact.PartText && len(text) <= 64 {
				for a := 0; a <= len(text); a++ {
					for b := a; b <= len(text); b++ {
						p.Text = text[a:b]
						samePart(t, &p, v)
					}
				}
			}
		}
	}
	plain, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	verified, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs, openai.WithVerified(v))
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != string(verified) {
		t.Fatalf("request bodies differ with the document verified:\n%s\n%s", verified, plain)
	}
}

func samePart(t *testing.T, p *kompact.Part, v sessionjson.Verified) {
	t.Helper()
	if got, want := v.AppendKimiPart(nil, p), sessionjson.AppendKimiPart(nil, p); string(got) != string(want) {
		t.Fatalf("part %q: verified %s, checked %s", p.Text, got, want)
	}
}
