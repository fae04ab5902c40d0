package openai_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
)

// chunkRecorder records the size of each write.
type chunkRecorder struct {
	bytes.Buffer
	sizes []int
	fail  error
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	if c.fail != nil {
		return 0, c.fail
	}
	c.sizes = append(c.sizes, len(p))
	return c.Buffer.Write(p)
}

// TestWriteRequestBody: the streamed body is byte for byte RequestBody's,
// and it leaves in pieces of bounded size, not as one block.
func TestWriteRequestBody(t *testing.T) {
	var msgs []kompact.Message
	long := strings.Repeat("ab\"c\n é 数据 ", 100)
	for i := range 400 {
		m := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(long), kompact.ThinkPart("t"), kompact.TextPart("x")}}
		if i%3 == 0 {
			m = kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart(long)}}
		}
		msgs = append(msgs, m)
	}
	// One message with many parts, like the compaction request itself.
	big := kompact.Message{Role: kompact.RoleUser}
	for range 400 {
		big.Content = append(big.Content, kompact.TextPart(long))
	}
	msgs = append(msgs, big)
	fields := map[string]any{"temperature": 0.5, "tools": []int{1}}
	want, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: fields}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	var got chunkRecorder
	if err := openai.WriteRequestBody(&got, kompact.RequestConfig{Model: "m", Fields: fields}, msgs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatal("WriteRequestBody wrote a different body than RequestBody")
	}
	if len(got.sizes) < 10 {
		t.Fatalf("%d writes for %d bytes: the body was not streamed", len(got.sizes), len(want))
	}
	for _, n := range got.sizes {
		if n > 64<<10+len(long)*2 {
			t.Fatalf("a write of %d bytes: more than the buffer and one part", n)
		}
	}
	bad := &chunkRecorder{fail: errors.New("disk full")}
	if err := openai.WriteRequestBody(bad, kompact.RequestConfig{Model: "m", Fields: fields}, msgs); err == nil || err.Error() != "disk full" {
		t.Fatalf("write error %v, want disk full", err)
	}
	if _, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: map[string]any{"x": func() {}}}, msgs); err == nil {
		t.Fatal("a field that is not JSON was accepted")
	}
	if err := openai.WriteRequestBody(&got, kompact.RequestConfig{Model: "m", Fields: map[string]any{"x": func() {}}}, msgs); err == nil {
		t.Fatal("a field that is not JSON was accepted by WriteRequestBody")
	}
}
