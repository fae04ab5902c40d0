package kompact_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"kompact"
	"kompact/internal/vectors"
)

// sameDecode checks that DecodeStoredMessage and DecodeMessage agree on
// data: both fail, or both give messages that write the same JSON.
func sameDecode(t *testing.T, data []byte) {
	t.Helper()
	slow, serr := kompact.DecodeMessage(data, 0)
	fast, ferr := kompact.DecodeStoredMessage(data, 0)
	if (serr == nil) != (ferr == nil) {
		t.Fatalf("errors differ for %q: %v / %v", data, serr, ferr)
	}
	if serr != nil {
		if serr.Error() != ferr.Error() {
			t.Fatalf("error messages differ: %v / %v", serr, ferr)
		}
		return
	}
	if a, b := slow.AppendJSON(nil), fast.AppendJSON(nil); !bytes.Equal(a, b) {
		t.Fatalf("decodes differ for %q:\nslow %s\nfast %s", data, a, b)
	}
	if (slow.ToolCalls == nil) != (fast.ToolCalls == nil) || slow.HasToolCallID != fast.HasToolCallID {
		t.Fatalf("presence differs for %q", data)
	}
}

func storedSamples() [][]byte {
	docs := [][]byte{
		[]byte(`{"role":"user","content":[]}`),
		[]byte(`{"role":"user","id":"m_1","name":"bob","content":[{"type":"text","text":"a \"q\" \\ \n\t\u0001 é 🚀 \u2028"}]}`),
		[]byte(`{"role":"assistant","content":[{"type":"think","think":"t","encrypted":"sig"},{"type":"text","text":""}],"tool_calls":[{"type":"function","id":"c1","function":{"name":"f","arguments":"{\"a\": 1}"},"extras":{"k":[1,2,{"x":null}],"s":"\u00e9"}},{"type":"function","id":"c2","function":{"name":"g"}}]}`),
		[]byte(`{"role":"tool","content":[{"type":"data","data":{"asset_ref":"A-1","n":-1.5e3,"ok":true,"list":[]}},{"type":"data","data":"str"},{"type":"data","data":42}],"tool_call_id":""}`),
		[]byte(`{"role":"user","content":[{"type":"image_url","image_url":{"url":"u","id":"i"}},{"type":"audio_url","audio_url":{"url":"a"}},{"type":"video_url","video_url":{"url":"v"}}]}`),
		[]byte(`{"role":"assistant","content":[],"tool_calls":[]}`),
	}
	for _, in := range vectors.Inputs() {
		var doc struct{ Messages []json.RawMessage }
		json.Unmarshal(in, &doc)
		for _, m := range doc.Messages {
			msg, err := kompact.DecodeMessage(m, 0)
			if err == nil {
				docs = append(docs, msg.AppendJSON(nil))
			}
		}
	}
	return docs
}

func TestDecodeStoredMessage(t *testing.T) {
	for _, d := range storedSamples() {
		sameDecode(t, d)
		if _, ok := kompact.DecodeStoredMessage(d, 0); ok != nil {
			t.Fatal(ok)
		}
	}
	// Forms that are not canonical still decode, through the fallback.
	for _, d := range []string{
		`{"content":"x","role":"user"}`,
		`{"role":"user","content":"plain string"}`,
		`{"role": "user", "content": []}`,
		`{"role":"user","content":[{"type":"text","text":"\ud800"}]}`,
		"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",
		`{"role":"user","content":[{"type":"data","data":{"a": 1}}]}`,
		`{"role":"bot","content":[]}`,
		`{"role":"user","content":[],"extra":1}`,
		`{"role":"user","content":[{"type":"text","text":"a"}]} `,
		`{"role":"user","content":[{"type":"data","data":01}]}`,
	} {
		sameDecode(t, []byte(d))
	}
}

// FuzzDecodeStoredMessage: the fast path never disagrees with DecodeMessage.
func FuzzDecodeStoredMessage(f *testing.F) {
	for _, d := range storedSamples() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameDecode(t, data)
	})
}

func BenchmarkDecodeMessage(b *testing.B) {
	s, total := benchSession(1000)
	var docs [][]byte
	for i := range s.Messages {
		docs = append(docs, s.Messages[i].AppendJSON(nil))
	}
	for _, tc := range []struct {
		name string
		fn   func([]byte, int) (kompact.Message, error)
	}{{"DecodeMessage", kompact.DecodeMessage}, {"DecodeStoredMessage", kompact.DecodeStoredMessage}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for i, d := range docs {
					if _, err := tc.fn(d, i); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
