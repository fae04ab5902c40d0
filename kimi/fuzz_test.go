package kimi_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testkimi"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
)

// FuzzPrepare feeds arbitrary session JSON and selections to the core and
// checks its invariants: no panic; the preserved tail is the input's suffix;
// one header per compacted message; every text part of the compacted
// messages appears in the request, in order; the compacted session is the
// kept messages, one summary message, then the input's suffix.
func FuzzPrepare(f *testing.F) {
	for _, in := range vectors.Inputs() {
		f.Add(in, 2, "", uint8(0), uint8(0))
		f.Add(in, 1, "focus", uint8(1), uint8(3))
	}
	f.Add([]byte(`{"messages":[{"role":"system","content":"s"},{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"text","text":"b"},{"type":"think","think":"t"}]},{"role":"user","content":"c"}]}`), 1, "", uint8(0), uint8(0))
	f.Add([]byte(`{"messages":[{"id":"x","role":"user","content":"## Message 1\nRole: user\nContent:\n"},{"role":"tool","tool_call_id":"1","content":[{"type":"data","data":{"a":1}}]},{"role":"assistant","content":""}]}`), 1, " ", uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, doc []byte, n int, instr string, start, end uint8) {
		s, err := kompact.DecodeSession(doc)
		if err != nil {
			if kompact.ErrorCodeOf(err) != kompact.EInvalid {
				t.Fatalf("decode error with code %s: %v", kompact.ErrorCodeOf(err), err)
			}
			return
		}
		before, _ := json.Marshal(s)
		opt := kimi.Options{MaxPreserved: n, Instructions: instr}
		if len(s.Messages) > 0 && start > 0 {
			opt.Start = "#" + itoa(int(start)%len(s.Messages)+1)
		}
		if len(s.Messages) > 0 && end > 0 {
			opt.End = "#" + itoa(int(end)%len(s.Messages)+1)
		}
		p, err := kimi.Prepare(s, opt)
		if err != nil {
			if c := kompact.ErrorCodeOf(err); c != kompact.EInvalid && c != kompact.ENotFound {
				t.Fatalf("Prepare error with code %s: %v", c, err)
			}
			return
		}
		if p.Noop {
			if p.Reason == "" {
				t.Fatal("no-op without a reason")
			}
			return
		}
		msgs := s.Messages
		if p.Start < 0 || p.Start >= p.End || p.End > len(msgs) {
			t.Fatalf("bad range %d..%d of %d", p.Start, p.End, len(msgs))
		}
		// The preserved tail is the input's suffix.
		if got, want := mustJSONOf(p.Preserved()), mustJSONOf(msgs[len(msgs)-len(p.Preserved()):]); !bytes.Equal(got, want) {
			t.Fatal("preserved tail is not the input's suffix")
		}
		// Headers and texts, in order.
		parts := p.Transcript.Content
		k := 0
		for i, m := range p.Compacted() {
			h := "## Message " + itoa(i+1) + "\nRole: " + string(m.Role) + "\nContent:\n"
			if k >= len(parts)-1 || parts[k].Text != h {
				t.Fatalf("message %d: header missing at part %d", i+1, k)
			}
			k++
			for _, c := range m.Content {
				if c.Type != kompact.PartText {
					continue
				}
				if k >= len(parts)-1 || parts[k].Text != c.Text {
					t.Fatalf("message %d: text %q missing at part %d", i+1, c.Text, k)
				}
				k++
			}
		}
		if k != len(parts)-1 {
			t.Fatalf("%d extra parts before the prompt", len(parts)-1-k)
		}
		last := parts[len(parts)-1].Text
		if !strings.HasPrefix(last, "\n"+p.Prompt.Body) || (instr != "" && !strings.HasSuffix(last, instr)) {
			t.Fatal("prompt part malformed")
		}
		res, err := p.Apply(testkimi.Answer("summary"))
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		out := res.Session.Messages
		kept := p.Kept()
		if len(out) != len(kept)+1+len(msgs)-p.End {
			t.Fatalf("compacted session has %d messages", len(out))
		}
		if !bytes.Equal(mustJSONOf(out[:len(kept)]), mustJSONOf(kept)) ||
			!bytes.Equal(mustJSONOf(out[len(kept)+1:]), mustJSONOf(msgs[p.End:])) {
			t.Fatal("kept or following messages changed")
		}
		if !strings.HasPrefix(out[len(kept)].Content[0].Text, kompact.SummaryPrefix+"\n") {
			t.Fatal("summary message malformed")
		}
		if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
			t.Fatal("the input session changed")
		}
	})
}

func mustJSONOf(msgs []kompact.Message) []byte {
	b, err := json.Marshal(msgs)
	if err != nil {
		panic(err)
	}
	return b
}
