package openai_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/openai"
)

// TestRequestBodyTwoHalves: a message with over 1 MiB of parts, whose list
// RequestBody and WriteRequestBody encode in chunks on two goroutines at
// once, gives the same bytes as one goroutine encoding it in one pass,
// whatever the parts around the cuts.
func TestRequestBodyTwoHalves(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	big := strings.Repeat("line \"q\"\t数据 é → \\ end\n", 2000) // ~52 KB
	id := "m1"
	text := func(s string) kompact.Part { return kompact.TextPart(s) }
	think := func(s string) kompact.Part { return kompact.ThinkPart(s) }
	cases := map[string][]kompact.Part{
		"texts": func() []kompact.Part {
			var ps []kompact.Part
			for i := range 40 {
				ps = append(ps, text(big[i:]))
				if i%7 == 0 {
					ps = append(ps, kompact.Part{Type: kompact.PartData, Data: []byte(`{"k":"v"}`)},
						kompact.Part{Type: kompact.PartImage, URL: "https://x/1.png", MediaID: &id})
				}
			}
			return ps
		}(),
		"first half thinking": func() []kompact.Part {
			var ps []kompact.Part
			for range 30 {
				ps = append(ps, think(big), kompact.Part{Type: kompact.PartThink, Text: big})
			}
			for range 30 {
				ps = append(ps, text(big))
			}
			return ps
		}(),
		"many chunks": func() []kompact.Part {
			var ps []kompact.Part
			for i := range 150 {
				ps = append(ps, text(big[i:]))
				if i%9 == 0 {
					ps = append(ps, think(big), think(big), think(big), think(big), think(big), think(big))
				}
			}
			return ps
		}(),
		"second half thinking": func() []kompact.Part {
			var ps []kompact.Part
			for range 10 {
				ps = append(ps, text(big))
			}
			for range 30 {
				ps = append(ps, think(big))
			}
			return ps
		}(),
	}
	for name, parts := range cases {
		msgs := []kompact.Message{{Role: kompact.RoleUser, Content: parts}}
		runtime.GOMAXPROCS(1)
		want, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
		runtime.GOMAXPROCS(2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the body built on two goroutines differs from the one built on one (%d / %d bytes)", name, len(got), len(want))
		}
		var streamed bytes.Buffer
		if err := openai.WriteRequestBody(&streamed, kompact.RequestConfig{Model: "m"}, msgs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(streamed.Bytes(), want) {
			t.Errorf("%s: the body streamed from two goroutines differs from the one built on one (%d / %d bytes)", name, streamed.Len(), len(want))
		}
		if !json.Valid(got) {
			t.Errorf("%s: body is not valid JSON", name)
		}
	}
}
