package sessionjson

import (
	"reflect"
	"testing"

	"kompact"
)

// DecodeSessionUTF8 decodes exactly as DecodeSession (and the reference,
// kompact.DecodeSession) does when the text is valid UTF-8, on both of its
// paths, and reports text that is not, where the reference decoder would
// have replaced the bad bytes: in a string, in a
// data part the fast pass keeps raw, and in a document only the precise
// decoder reads.
func TestDecodeSessionUTF8(t *testing.T) {
	for _, doc := range []string{
		`{"id":"s","messages":[{"role":"user","content":"h\u00e9llo"},{"role":"assistant","content":[{"type":"data","data":{"k":"é"}}]}]}`,
		"\xEF\xBB\xBF" + `{"messages": [ {"content": "hi", "role": "user"} ]}`,
		`{"messages":[{"role":"user","content":"lone \udc00 surrogate"}]}`, // precise path
		`{"messages":[{"role":"user","content":"x","id":"a"},{"role":"user","content":"y","id":"a"}]}`,
		`{"messages":[`,
	} {
		want, wantErr := DecodeSession([]byte(doc))
		ref, refErr := kompact.DecodeSession([]byte(doc))
		if !reflect.DeepEqual(ref, want) || (refErr == nil) != (wantErr == nil) || (refErr != nil && refErr.Error() != wantErr.Error()) {
			t.Errorf("%s: DecodeSession %+v, %v; reference %+v, %v", doc, want, wantErr, ref, refErr)
		}
		got, valid, err := DecodeSessionUTF8([]byte(doc))
		if !valid || !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("%s:\n got %+v, %v, %v\nwant %+v, %v", doc, got, valid, err, want, wantErr)
		}
	}
	for _, doc := range []string{
		"{\"messages\":[{\"role\":\"user\",\"content\":\"bad \xff byte\"}]}",
		"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"data\",\"data\":\"\xc3\"}]}]}",
		"{\"messages\":[{\"role\":\"user\",\"content\":\"\\udc00\xff\"}], \"id\": 5}",
	} {
		if s, valid, err := DecodeSessionUTF8([]byte(doc)); valid || s != nil || err != nil {
			t.Errorf("%q: %v, valid %v, %v; want it reported as not UTF-8", doc, s, valid, err)
		}
	}
}
