package sessionjson_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/sessionjson"
)

// sameDecode checks that DecodeStoredMessage and DecodeMessage agree on
// data: both fail, or both give messages that write the same JSON; and
// that DecodeOwnedMessage gives exactly the reference's values.
func sameDecode(t *testing.T, data []byte) {
	t.Helper()
	slow, serr := kompact.DecodeMessage(data, 0)
	sameOwned(t, data, slow, serr)
	fast, ferr := sessionjson.DecodeStoredMessage(data, 0)
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

// sameOwned checks DecodeOwnedMessage against the reference's message
// want or error werr for data: the same error word for word, or the same
// values (reflect.DeepEqual). It gets a copy of data, which it owns: it
// may write it, and nothing reads the copy but the message afterwards. So
// a scan that wrote before it gave up would show here, its fallback
// decoding other bytes than the reference did.
func sameOwned(t *testing.T, data []byte, want kompact.Message, werr error) {
	t.Helper()
	got, err := sessionjson.DecodeOwnedMessage(bytes.Clone(data), 0)
	if !sameError(err, werr) {
		t.Fatalf("DecodeOwnedMessage of %q: error %v, reference %v", data, err, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeOwnedMessage of %q:\ngot       %#v\nreference %#v", data, got, want)
	}
}

// TestDecodeOwnedMessage: a message with escapes in every string the
// scanner sets decodes in place to the reference's values, its strings
// in the buffer it was given, while its raw values keep their escapes.
func TestDecodeOwnedMessage(t *testing.T) {
	const e = `\"\\\/\b\f\n\r\t\u00e9\ud83d\ude80\u0000`
	docs := []string{
		`{"id":"i` + e + `","role":"tool","name":"n` + e + `","tool_call_id":"c` + e + `","content":[` +
			`{"type":"text","text":"t` + e + `"},{"type":"think","think":"k` + e + `","encrypted":"s` + e + `"},` +
			`{"type":"image_url","image_url":{"url":"u` + e + `","id":"m` + e + `"}},{"type":"data","data":{"d":"` + e + `"}}]}`,
		`{"role":"assistant","content":"x` + e + `","tool_calls":[{"type":"function","id":"c` + e + `",` +
			`"function":{"name":"f` + e + `","arguments":"a` + e + `"},"extras":{"x":"` + e + `"}}]}`,
	}
	for _, d := range docs {
		want, err := kompact.DecodeMessage([]byte(d), 0)
		if err != nil {
			t.Fatal(err)
		}
		buf := []byte(d)
		got, err := sessionjson.DecodeOwnedMessage(buf, 0)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\ngot       %#v (%v)\nreference %#v", d, got, err, want)
		}
		inBuf := func(s string) bool {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			start := uintptr(unsafe.Pointer(&buf[0]))
			return p >= start && p+uintptr(len(s)) <= start+uintptr(len(buf))
		}
		var strs []string
		if len(got.Content) > 0 && got.Content[0].Type == kompact.PartText {
			strs = append(strs, got.Content[0].Text)
		}
		for _, c := range got.ToolCalls {
			strs = append(strs, c.ID, c.Name, *c.Arguments)
		}
		if got.ID != "" {
			strs = append(strs, got.ID, got.Name, got.ToolCallID, got.Content[1].Think, *got.Content[1].Encrypted, got.Content[2].URL, *got.Content[2].MediaID)
		}
		for _, s := range strs {
			if !inBuf(s) {
				t.Errorf("%q is not in the buffer it was decoded from", s)
			}
		}
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
		if _, ok := sessionjson.DecodeStoredMessage(d, 0); ok != nil {
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

// FuzzDecodeStoredMessage: DecodeStoredMessage and DecodeOwnedMessage
// never disagree with kompact.DecodeMessage.
func FuzzDecodeStoredMessage(f *testing.F) {
	for _, d := range storedSamples() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameDecode(t, data)
	})
}

// sameSession checks sessionjson.DecodeSession against the reference
// decoder, kompact.DecodeSession: the same session or the same error, word
// for word. When the fast pass reads data, reading its list in two halves
// at once gives the same, and its session is the reference's, or fails only
// the checks made after reading (ValidateDecodedSession), as the
// reference's does.
func sameSession(t *testing.T, data []byte) {
	t.Helper()
	want, werr := kompact.DecodeSession(data)
	fast, ok := sessionjson.ScanSession(data)
	// Read in two halves at once, whatever its size, the list gives the same.
	if split, sok := sessionjson.ScanSessionSplit(data, 1); sok != ok || ok && !reflect.DeepEqual(split, fast) {
		t.Fatalf("split read of %q: %v, whole: %v", data, sok, ok)
	}
	if ok {
		if verr := kompact.ValidateDecodedSession(fast); !sameError(verr, werr) {
			t.Fatalf("fast pass read %q: checks %v, reference decoder %v", data, verr, werr)
		}
		if werr == nil && !reflect.DeepEqual(fast, want) {
			t.Fatalf("decodes differ for %q:\nfast      %s\nreference %s", data, fast.AppendJSON(nil), want.AppendJSON(nil))
		}
	}
	got, err := sessionjson.DecodeSession(data)
	if !sameError(err, werr) {
		t.Fatalf("DecodeSession error %v, reference %v (session %v)", err, werr, got)
	}
	if err == nil {
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeSession of %q:\ngot       %s\nreference %s", data, got.AppendJSON(nil), want.AppendJSON(nil))
		}
		sameVerifiedWire(t, data, got.Messages)
	}
}

// sameError reports whether a and b are both nil or both errors with the
// same message.
func sameError(a, b error) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error())
}

// sessionSamples are session documents in many forms: kimi-cli's vectors,
// the stored samples wrapped in a session, white space and key orders.
func sessionSamples() [][]byte {
	docs := append([][]byte{}, vectors.Inputs()...)
	for _, m := range storedSamples() {
		docs = append(docs, append(append([]byte(`{"id":"s","messages":[`), m...), "]}"...))
	}
	docs = append(docs,
		[]byte(` { "messages" : [ { "content" : [ { "text" : "a\u00e9\ud83d\ude80" , "type" : "text" } ] , "role" : "user" } ] , "agent" : null }`+"\n\t"),
		[]byte(`{"messages":[{"role":"tool","tool_call_id":null,"content":null,"tool_calls":null,"name":null,"id":null}]}`),
		[]byte(`{"messages":[{"role":"assistant","tool_calls":[{"function":{"arguments":null,"name":null},"id":null,"type":null,"extras":{ "a" : [ 1 , "x y" ] }}],"content":[{"encrypted":null,"think":"t","type":"think"},{"image_url":{"id":null,"url":null},"type":"image_url"},{"data": [ 1.5e-3 , -0, true, false, null, {} ] ,"type":"data"}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":"x","role":"user"}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"x","think":"y"}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"image_url","audio_url":{"url":"u"}}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"data","data":01}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":"\ud800"}]}`),
		[]byte(`{"messages":[{"role":"user","content":"a\u0000b"}]}`),
		[]byte(`{"messages":[{"id":"a","role":"user","content":""},{"id":"a","role":"user","content":""}]}`),
		[]byte(`{"messages":[]}`),
		[]byte(`{"messages":null}`),
		[]byte(`{"messages":[]} x`),
		[]byte(`{"mess\u0061ges":[]}`),
		// Issue 21 §5: repeated keys at every level, lone surrogates in
		// every kind of string, and the forms that only look like them.
		[]byte(`{"messages":[{"role":"user","role":"system","content":"x"}]}`),
		[]byte(`{"messages":[{"role":"user","r\u006fle":"system","content":"x"}]}`),
		[]byte(`{"id":"a","id":"b","messages":[]}`),
		[]byte(`{"messages":[],"messages":[{"role":"system","content":"x"}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"a","text":"b"}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"a","url":"b"}}]}]}`),
		[]byte(`{"messages":[{"role":"assistant","tool_calls":[{"type":"function","id":"c","function":{"name":"f","name":"g"}}]}]}`),
		[]byte(`{"messages":[{"role":"user","content":[{"type":"data","data":{"a":1,"a":"\ud800"}}]}]}`),
		[]byte(`{"messages":[{"role":"user","id":"\udc00","name":"\ud83d\ude00\ud83d","content":"\\ud800"}]}`),
		[]byte(`{"compaction_model":"\ud800","messages":[{"role":"tool","tool_call_id":"\ud800","content":[{"type":"think","think":"t","encrypted":"\udbff"}]}]}`),
		[]byte(`{"messages":[{"role":"user","id":"a\u0000b","content":"x"}]}`),
		[]byte(`{"id":"p","pinned":["a","#2"],"messages":[{"id":"a","role":"user","content":"x"},{"role":"user","content":"y"}]}`),
		[]byte(`{"pinned":[],"messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":null,"messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":[null],"messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":"a","messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":[1],"messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":["\ud800"],"messages":[{"role":"user","content":"x"}]}`),
		[]byte(`{"pinned":["a"],"pinned":["b"],"messages":[{"id":"a","role":"user","content":"x"}]}`),
		[]byte(`{"messages":[{"id":"a","role":"user","content":"x"}],"pinned":["a"]}`),
	)
	return docs
}

func TestScanSession(t *testing.T) {
	fastRead := 0
	for _, d := range sessionSamples() {
		sameSession(t, d)
		if _, ok := sessionjson.ScanSession(d); ok {
			fastRead++
		}
	}
	// The fast pass must actually read the ordinary forms, not leave them
	// all to the reference decoder.
	if fastRead < len(vectors.Inputs())+len(storedSamples()) {
		t.Fatalf("the fast pass read only %d of the samples", fastRead)
	}
}

// FuzzDecodeSession: sessionjson.DecodeSession never disagrees with the
// reference decoder.
func FuzzDecodeSession(f *testing.F) {
	for _, d := range sessionSamples() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameSession(t, data)
	})
}

// TestDecodeSessionSplitEveryPosition moves the middle of what follows the
// list's '[' (a field after the list grows), where
// the split read guesses a message start, over every position of messages
// whose data parts hold what looks like message starts, valid and not: the
// split read agrees with the whole read and the reference decoder each time.
func TestDecodeSessionSplitEveryPosition(t *testing.T) {
	msgs := `{"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "c", ` +
		`"content": [{"type": "data", "data": [{"x": 1}, {"role": "user", "content": "inner"}]}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"b}, {\"role\""}]}, {"role": "user", "content": "c"}`
	bad := []string{
		msgs,
		msgs + `, {"role": "user", "content": 1}`,
		`{"role": "nobody"}, ` + msgs,
		msgs + `, {"role": "user", "content": "d", "extra": 1}`,
	}
	for _, body := range bad {
		for pad := 0; pad <= 2*len(body); pad++ {
			doc := []byte(`{"messages": [` + body + `], "agent": "` + strings.Repeat("p", pad) + `"}`)
			sameSession(t, doc)
		}
	}
}
