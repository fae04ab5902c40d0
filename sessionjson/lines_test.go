package sessionjson_test

import (
	"bytes"
	"testing"

	"kompact"
	"kompact/sessionjson"
)

// TestMessageScannerReused: a MessageScanner reading many messages one
// after another, some of which it gives up on midway, reads each as a new
// MessageScanner does, and no message's parts reach another's.
func TestMessageScannerReused(t *testing.T) {
	docs := storedSamples()
	docs = append(docs, []byte(`{"role":"user","content":[{"type":"text","text":"a"}],"bad":1}`), []byte(`{"role":"user","partial":true,"content":"p"}`))
	var ms sessionjson.MessageScanner
	var got []kompact.Message
	for round := range 3 {
		for _, d := range docs {
			want, wok := new(sessionjson.MessageScanner).Scan(d, "partial")
			m, ok := ms.Scan(d, "partial")
			if ok != wok || ok && !bytes.Equal(m.AppendJSON(nil), want.AppendJSON(nil)) {
				t.Fatalf("round %d, %s: %v %s, want %v %s", round, d, ok, m.AppendJSON(nil), wok, want.AppendJSON(nil))
			}
			if ok {
				got = append(got, m)
			}
		}
	}
	before := make([][]byte, len(got))
	for i := range got {
		before[i] = got[i].AppendJSON(nil)
	}
	for i := range got {
		got[i].Content = append(got[i].Content, kompact.TextPart("appended"))
	}
	for i := range got {
		got[i].Content = got[i].Content[:len(got[i].Content)-1]
		if b := got[i].AppendJSON(nil); !bytes.Equal(b, before[i]) {
			t.Fatalf("message %d changed by an append to another: %s, was %s", i, b, before[i])
		}
	}
}
