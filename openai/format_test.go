package openai_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"kompact"
	"kompact/openai"
)

func strp(s string) *string { return &s }
func i64p(n int64) *int64   { return &n }

// jsonEqual decodes both sides into any and compares the values.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON differs\n got %s\nwant %s", got, want)
	}
}

func TestAppendWireMessage(t *testing.T) {
	args := `{"path": "a.txt"}`
	tests := []struct {
		name string
		msg  kompact.Message
		want string
	}{
		{
			name: "one text part is a string",
			msg:  kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi\nthere")}},
			want: `{"role":"user","content":"hi\nthere"}`,
		},
		{
			name: "one empty text part is an empty string",
			msg:  kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("")}},
			want: `{"role":"user","content":""}`,
		},
		{
			name: "two text parts are an array",
			msg: kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
				kompact.TextPart("a"), kompact.TextPart("b"),
			}},
			want: `{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
		},
		{
			name: "no parts is an empty array",
			msg:  kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{}},
			want: `{"role":"user","content":[]}`,
		},
		{
			name: "think parts become reasoning_content",
			msg: kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{
				kompact.ThinkPart("first "), kompact.TextPart("answer"), kompact.ThinkPart("second"),
			}},
			want: `{"role":"assistant","content":"answer","reasoning_content":"first second"}`,
		},
		{
			name: "think with signature drops the signature",
			msg: kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{
				{Type: kompact.PartThink, Think: "hmm", Encrypted: strp("sig")}, kompact.TextPart("A"),
			}},
			want: `{"role":"assistant","content":"A","reasoning_content":"hmm"}`,
		},
		{
			name: "think parts removed from an array",
			msg: kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{
				kompact.TextPart("a"), kompact.ThinkPart("t"), kompact.TextPart("b"),
			}},
			want: `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"reasoning_content":"t"}`,
		},
		{
			name: "tool calls with whitespace-only text have no content",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				Content:   []kompact.Part{kompact.TextPart(" \n\t ")},
				ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "ReadFile", Arguments: &args}},
			},
			want: `{"role":"assistant","tool_calls":[{"type":"function","id":"r1","function":{"name":"ReadFile","arguments":"{\"path\": \"a.txt\"}"}}]}`,
		},
		{
			name: "tool calls with several blank texts and no parts",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				Content:   []kompact.Part{kompact.TextPart(""), kompact.TextPart("  ")},
				ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "ReadFile", Arguments: &args}},
			},
			want: `{"role":"assistant","tool_calls":[{"type":"function","id":"r1","function":{"name":"ReadFile","arguments":"{\"path\": \"a.txt\"}"}}]}`,
		},
		{
			name: "tool calls with no content parts at all",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "ReadFile", Arguments: &args}},
			},
			want: `{"role":"assistant","tool_calls":[{"type":"function","id":"r1","function":{"name":"ReadFile","arguments":"{\"path\": \"a.txt\"}"}}]}`,
		},
		{
			name: "tool calls with think and blank text keep reasoning only",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				Content:   []kompact.Part{kompact.ThinkPart("plan"), kompact.TextPart(" ")},
				ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "ReadFile", Arguments: &args}},
			},
			want: `{"role":"assistant","reasoning_content":"plan","tool_calls":[{"type":"function","id":"r1","function":{"name":"ReadFile","arguments":"{\"path\": \"a.txt\"}"}}]}`,
		},
		{
			name: "tool calls with real text keep content",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				Content:   []kompact.Part{kompact.TextPart("Reading it.")},
				ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "ReadFile", Arguments: &args}},
			},
			want: `{"role":"assistant","content":"Reading it.","tool_calls":[{"type":"function","id":"r1","function":{"name":"ReadFile","arguments":"{\"path\": \"a.txt\"}"}}]}`,
		},
		{
			name: "blank text without tool calls keeps content",
			msg:  kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("  ")}},
			want: `{"role":"assistant","content":"  "}`,
		},
		{
			name: "blank user text with tool calls field keeps content",
			msg: kompact.Message{
				Role:      kompact.RoleUser,
				Content:   []kompact.Part{kompact.TextPart(" ")},
				ToolCalls: []kompact.ToolCall{{ID: "x", Name: "f"}},
			},
			want: `{"role":"user","content":" ","tool_calls":[{"type":"function","id":"x","function":{"name":"f"}}]}`,
		},
		{
			name: "tool calls with a blank text and a media part keep content",
			msg: kompact.Message{
				Role: kompact.RoleAssistant,
				Content: []kompact.Part{
					kompact.TextPart(""),
					{Type: kompact.PartImage, URL: "https://example.com/a.png"},
				},
				ToolCalls: []kompact.ToolCall{{ID: "x", Name: "f"}},
			},
			want: `{"role":"assistant","content":[{"type":"text","text":""},{"type":"image_url","image_url":{"url":"https://example.com/a.png","id":null}}],"tool_calls":[{"type":"function","id":"x","function":{"name":"f"}}]}`,
		},
		{
			name: "media parts: id null when absent, kept when present",
			msg: kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
				kompact.TextPart("Look at this:"),
				{Type: kompact.PartImage, URL: "https://example.com/cat.png", MediaID: strp("img-1")},
				{Type: kompact.PartVideo, URL: "ms://file-123"},
				{Type: kompact.PartAudio, URL: "data:audio/wav;base64,AAAA"},
				{Type: kompact.PartAudio, URL: "https://example.com/a.wav", MediaID: strp("")},
			}},
			want: `{"role":"user","content":[
				{"type":"text","text":"Look at this:"},
				{"type":"image_url","image_url":{"url":"https://example.com/cat.png","id":"img-1"}},
				{"type":"video_url","video_url":{"url":"ms://file-123","id":null}},
				{"type":"audio_url","audio_url":{"url":"data:audio/wav;base64,AAAA","id":null}},
				{"type":"audio_url","audio_url":{"url":"https://example.com/a.wav","id":""}}]}`,
		},
		{
			name: "a lone media part is still an array",
			msg: kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
				{Type: kompact.PartImage, URL: "u"},
			}},
			want: `{"role":"user","content":[{"type":"image_url","image_url":{"url":"u","id":null}}]}`,
		},
		{
			name: "a lone data part is a string holding its JSON",
			msg: kompact.Message{Role: kompact.RoleTool, ToolCallID: "c1", HasToolCallID: true, Content: []kompact.Part{
				{Type: kompact.PartData, Data: []byte(`{"asset":"a1"}`)},
			}},
			want: `{"role":"tool","content":"{\"asset\":\"a1\"}","tool_call_id":"c1"}`,
		},
		{
			name: "a data part beside text is a text part",
			msg: kompact.Message{Role: kompact.RoleTool, ToolCallID: "c1", Content: []kompact.Part{
				kompact.TextPart("result:"),
				{Type: kompact.PartData, Data: []byte(`{"asset":"a1"}`)},
			}},
			want: `{"role":"tool","content":[{"type":"text","text":"result:"},{"type":"text","text":"{\"asset\":\"a1\"}"}],"tool_call_id":"c1"}`,
		},
		{
			name: "data part with tool calls keeps content",
			msg: kompact.Message{
				Role:      kompact.RoleAssistant,
				Content:   []kompact.Part{{Type: kompact.PartData, Data: []byte(`[1,2]`)}},
				ToolCalls: []kompact.ToolCall{{ID: "x", Name: "f"}},
			},
			want: `{"role":"assistant","content":"[1,2]","tool_calls":[{"type":"function","id":"x","function":{"name":"f"}}]}`,
		},
		{
			name: "name and tool_call_id",
			msg: kompact.Message{
				Role: kompact.RoleTool, Name: "alice", ToolCallID: "call_1",
				Content: []kompact.Part{kompact.TextPart("ok")},
			},
			want: `{"role":"tool","name":"alice","content":"ok","tool_call_id":"call_1"}`,
		},
		{
			name: "empty tool_call_id that was present is kept",
			msg: kompact.Message{
				Role: kompact.RoleTool, HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart("ok")},
			},
			want: `{"role":"tool","content":"ok","tool_call_id":""}`,
		},
		{
			name: "id is not sent",
			msg:  kompact.Message{ID: "m-7", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("x")}},
			want: `{"role":"user","content":"x"}`,
		},
		{
			name: "tool call arguments nil, empty and extras",
			msg: kompact.Message{
				Role:    kompact.RoleAssistant,
				Content: []kompact.Part{kompact.TextPart("calling")},
				ToolCalls: []kompact.ToolCall{
					{ID: "a", Name: "NoArgs"},
					{ID: "b", Name: "EmptyArgs", Arguments: strp("")},
					{ID: "c", Name: "WithExtras", Arguments: strp("{}"), Extras: []byte(`{"k":[1,{"z":null}]}`)},
				},
			},
			want: `{"role":"assistant","content":"calling","tool_calls":[
				{"type":"function","id":"a","function":{"name":"NoArgs"}},
				{"type":"function","id":"b","function":{"name":"EmptyArgs","arguments":""}},
				{"type":"function","id":"c","function":{"name":"WithExtras","arguments":"{}"},"extras":{"k":[1,{"z":null}]}}]}`,
		},
		{
			name: "special characters survive",
			msg: kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
				kompact.TextPart("<b>\"q\"</b> \\ \x00 é🚀 \u2028"),
			}},
			want: `{"role":"user","content":"<b>\"q\"</b> \\ \u0000 é🚀 \u2028"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := openai.AppendWireMessage(nil, &tt.msg)
			jsonEqual(t, got, tt.want)
		})
	}
}

func TestAppendWireMessageNoContentKey(t *testing.T) {
	m := kompact.Message{
		Role:      kompact.RoleAssistant,
		Content:   []kompact.Part{kompact.TextPart("\n")},
		ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "f", Arguments: strp("{}")}},
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(openai.AppendWireMessage(nil, &m), &obj); err != nil {
		t.Fatal(err)
	}
	if _, ok := obj["content"]; ok {
		t.Errorf("content present: %s", obj["content"])
	}
	if _, ok := obj["reasoning_content"]; ok {
		t.Errorf("reasoning_content present without think parts: %s", obj["reasoning_content"])
	}
}

func TestAppendWireMessageAppendsAndDoesNotModify(t *testing.T) {
	m := kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{
		kompact.ThinkPart("t"), kompact.TextPart("a"), kompact.TextPart("b"),
	}}
	before := len(m.Content)
	out := openai.AppendWireMessage([]byte("prefix:"), &m)
	if string(out[:7]) != "prefix:" {
		t.Fatalf("prefix lost: %q", out)
	}
	jsonEqual(t, out[7:], `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"reasoning_content":"t"}`)
	if len(m.Content) != before || m.Content[0].Type != kompact.PartThink {
		t.Errorf("message was modified: %+v", m.Content)
	}
}

func TestAppendWireMessages(t *testing.T) {
	msgs := []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("sys")}},
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("a"), kompact.TextPart("b")}},
	}
	jsonEqual(t, openai.AppendWireMessages(nil, msgs),
		`[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]`)
	jsonEqual(t, openai.AppendWireMessages(nil, nil), `[]`)
}

func TestRequestBody(t *testing.T) {
	msgs := []kompact.Message{
		{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart("You are helpful.")}},
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("history"), kompact.TextPart("compact it")}},
	}
	body, err := openai.RequestBody(kompact.RequestConfig{Model: "kimi-k2 \"test\""}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	var keys []string
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"messages", "model", "stream", "stream_options"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	for _, k := range []string{"tools", "tool_choice"} {
		if _, ok := obj[k]; ok {
			t.Errorf("body has %q", k)
		}
	}
	jsonEqual(t, obj["model"], `"kimi-k2 \"test\""`)
	jsonEqual(t, obj["stream"], `true`)
	jsonEqual(t, obj["stream_options"], `{"include_usage":true}`)
	jsonEqual(t, obj["messages"], string(openai.AppendWireMessages(nil, msgs)))
	jsonEqual(t, obj["messages"], `[{"role":"system","content":"You are helpful."},
		{"role":"user","content":[{"type":"text","text":"history"},{"type":"text","text":"compact it"}]}]`)
}

func TestRequestBodyEmpty(t *testing.T) {
	body, _ := openai.RequestBody(kompact.RequestConfig{Model: ""}, nil)
	jsonEqual(t, body, `{"model":"","messages":[],"stream":true,"stream_options":{"include_usage":true}}`)
}

// TestKCP004RequestBodyNeverCarriesTools: whatever the merged settings say,
// the body has no tool fields, and the other settings are sent.
func TestKCP004RequestBodyNeverCarriesTools(t *testing.T) {
	fields := map[string]any{
		"temperature": 0.3, "max_tokens": 4096, "top_p": 0.9,
		"thinking": map[string]any{"type": "enabled"},
		"tools":    []any{map[string]any{"type": "function"}}, "tool_choice": "auto",
		"parallel_tool_calls": true, "functions": []any{}, "function_call": "auto",
		"stream": false, "messages": "x", "model": "other", "n": 3,
	}
	body, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: fields}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, body, `{"model":"m","messages":[],"max_tokens":4096,"temperature":0.3,"thinking":{"type":"enabled"},"top_p":0.9,"stream":true,"stream_options":{"include_usage":true}}`)
	if _, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: map[string]any{"bad": func() {}}}, nil); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("an unencodable setting: %v", err)
	}
}

func TestAccumulatorMergesAndSplits(t *testing.T) {
	var a openai.Accumulator
	a.Content("Hel")
	a.Content("")
	a.Content("lo")
	a.Reasoning("")
	a.Reasoning("think ")
	a.Content("")
	a.Reasoning("more")
	a.Content(" world")
	a.Content("!")
	ans := a.Answer()
	want := []kompact.Part{
		kompact.TextPart("Hello"),
		kompact.ThinkPart("think more"),
		kompact.TextPart(" world!"),
	}
	if !reflect.DeepEqual(ans.Parts, want) {
		t.Errorf("parts = %#v\nwant %#v", ans.Parts, want)
	}
	if ans.ToolCalls != nil || ans.Usage != nil {
		t.Errorf("tool calls %v, usage %v; want none", ans.ToolCalls, ans.Usage)
	}
	if a.Chars != len("Hello")+len("think more")+len(" world!") {
		t.Errorf("Chars = %d", a.Chars)
	}
}

func TestAccumulatorLeadingReasoning(t *testing.T) {
	var a openai.Accumulator
	a.Reasoning("a")
	a.Reasoning("b")
	a.Content("c")
	want := []kompact.Part{kompact.ThinkPart("ab"), kompact.TextPart("c")}
	if got := a.Answer().Parts; !reflect.DeepEqual(got, want) {
		t.Errorf("parts = %#v, want %#v", got, want)
	}
}

func TestAccumulatorEmpty(t *testing.T) {
	var a openai.Accumulator
	a.Content("")
	a.Reasoning("")
	ans := a.Answer()
	if len(ans.Parts) != 0 || ans.ToolCalls != nil || ans.Usage != nil || a.Chars != 0 {
		t.Errorf("answer of nothing = %#v, Chars %d", ans, a.Chars)
	}
}

func TestAccumulatorChars(t *testing.T) {
	var a openai.Accumulator
	a.Content("é🚀")
	if a.Chars != 2 {
		t.Fatalf("Chars = %d after \"é🚀\", want 2", a.Chars)
	}
	a.Reasoning("日本")
	a.Content("")
	a.Content("a\n")
	if a.Chars != 6 {
		t.Fatalf("Chars = %d, want 6", a.Chars)
	}
	a.ToolCall(0, "c", "f", `{"x":1}`)
	if a.Chars != 6 {
		t.Errorf("tool-call arguments changed Chars to %d", a.Chars)
	}
}

func TestAccumulatorToolCalls(t *testing.T) {
	var a openai.Accumulator
	a.Content("Calling.")
	a.ToolCall(0, "call_1", "ReadFile", "")
	a.ToolCall(1, "call_2", "Shell", `{"comm`)
	a.ToolCall(0, "", "", `{"path":`)
	a.ToolCall(0, "", "", "")
	a.ToolCall(0, "", "", ` "a.txt"}`)
	a.ToolCall(1, "", "", `and": "ls"}`)
	ans := a.Answer()
	want := []kompact.ToolCall{
		{ID: "call_1", Name: "ReadFile", Arguments: strp(`{"path": "a.txt"}`)},
		{ID: "call_2", Name: "Shell", Arguments: strp(`{"command": "ls"}`)},
	}
	if !reflect.DeepEqual(ans.ToolCalls, want) {
		t.Errorf("tool calls:\n got %s\nwant %s", callsString(ans.ToolCalls), callsString(want))
	}
	if want := []kompact.Part{kompact.TextPart("Calling.")}; !reflect.DeepEqual(ans.Parts, want) {
		t.Errorf("parts = %#v", ans.Parts)
	}
}

func TestAccumulatorToolCallOutOfOrderIndex(t *testing.T) {
	var a openai.Accumulator
	a.ToolCall(1, "b", "g", "{}")
	a.ToolCall(0, "a", "f", "[]")
	got := a.Answer().ToolCalls
	want := []kompact.ToolCall{
		{ID: "a", Name: "f", Arguments: strp("[]")},
		{ID: "b", Name: "g", Arguments: strp("{}")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", callsString(got), callsString(want))
	}
}

func callsString(cs []kompact.ToolCall) string {
	b, _ := json.Marshal(cs)
	return string(b)
}

func TestAccumulatorAnswerMidStream(t *testing.T) {
	var a openai.Accumulator
	a.Content("one")
	first := a.Answer()
	if want := []kompact.Part{kompact.TextPart("one")}; !reflect.DeepEqual(first.Parts, want) {
		t.Fatalf("first answer %#v", first.Parts)
	}
	a.Content(" two")
	a.Reasoning("why")
	second := a.Answer()
	if want := []kompact.Part{kompact.TextPart("one two"), kompact.ThinkPart("why")}; !reflect.DeepEqual(second.Parts, want) {
		t.Fatalf("second answer %#v", second.Parts)
	}
	a.Reasoning(" not")
	a.Content("three")
	third := a.Answer()
	again := a.Answer()
	want := []kompact.Part{kompact.TextPart("one two"), kompact.ThinkPart("why not"), kompact.TextPart("three")}
	if !reflect.DeepEqual(third.Parts, want) || !reflect.DeepEqual(again.Parts, want) {
		t.Fatalf("third answer %#v, again %#v", third.Parts, again.Parts)
	}
	// Earlier answers are snapshots: later deltas do not change their parts.
	if want := []kompact.Part{kompact.TextPart("one")}; !reflect.DeepEqual(first.Parts, want) {
		t.Errorf("first answer changed to %#v", first.Parts)
	}
	if want := []kompact.Part{kompact.TextPart("one two"), kompact.ThinkPart("why")}; !reflect.DeepEqual(second.Parts, want) {
		t.Errorf("second answer changed to %#v", second.Parts)
	}
	if a.Chars != len("one two")+len("why not")+len("three") {
		t.Errorf("Chars = %d", a.Chars)
	}
}

// TestAccumulatorAnswerSnapshots takes an answer after every delta, with
// parts of two deltas each, so that answers are taken while a part is still
// open and the accumulator's finished parts have spare capacity. Every
// answer must keep what it held when it was taken: the open part an answer
// adds must not share memory with parts the accumulator finishes later.
func TestAccumulatorAnswerSnapshots(t *testing.T) {
	var a openai.Accumulator
	var answers []kompact.Answer
	var wants [][]kompact.Part
	var done []kompact.Part
	for i := 0; i < 9; i++ {
		think := i%2 == 1
		open := ""
		for _, s := range []string{string(rune('a' + i)), string(rune('A' + i))} {
			if think {
				a.Reasoning(s)
			} else {
				a.Content(s)
			}
			open += s
			cur := append([]kompact.Part(nil), done...)
			if think {
				cur = append(cur, kompact.ThinkPart(open))
			} else {
				cur = append(cur, kompact.TextPart(open))
			}
			answers = append(answers, a.Answer())
			wants = append(wants, cur)
		}
		if think {
			done = append(done, kompact.ThinkPart(open))
		} else {
			done = append(done, kompact.TextPart(open))
		}
	}
	for i := range answers {
		if !reflect.DeepEqual(answers[i].Parts, wants[i]) {
			t.Errorf("answer %d = %#v\nwant %#v", i, answers[i].Parts, wants[i])
		}
	}
	if got := a.Answer().Parts; !reflect.DeepEqual(got, done) {
		t.Errorf("final answer = %#v\nwant %#v", got, done)
	}
}

func TestAccumulatorUsage(t *testing.T) {
	var a openai.Accumulator
	a.Content("x")
	a.Usage(kompact.Usage{InputOther: 10, Output: 2, InputCacheRead: 5})
	a.Usage(kompact.Usage{InputOther: 11, Output: 3, InputCacheRead: 6})
	ans := a.Answer()
	if ans.Usage == nil || *ans.Usage != (kompact.Usage{InputOther: 11, Output: 3, InputCacheRead: 6}) {
		t.Errorf("usage = %+v", ans.Usage)
	}
}

func TestUsageFrom(t *testing.T) {
	tests := []struct {
		name             string
		prompt, complete int64
		top, details     *int64
		want             kompact.Usage
	}{
		{"top-level wins over details", 100, 7, i64p(30), i64p(50), kompact.Usage{InputOther: 70, Output: 7, InputCacheRead: 30}},
		{"top-level zero still wins", 100, 7, i64p(0), i64p(50), kompact.Usage{InputOther: 100, Output: 7, InputCacheRead: 0}},
		{"details when no top-level", 100, 7, nil, i64p(40), kompact.Usage{InputOther: 60, Output: 7, InputCacheRead: 40}},
		{"top-level only", 2048, 321, i64p(1024), nil, kompact.Usage{InputOther: 1024, Output: 321, InputCacheRead: 1024}},
		{"none", 2048, 321, nil, nil, kompact.Usage{InputOther: 2048, Output: 321, InputCacheRead: 0}},
		{"all zero", 0, 0, nil, nil, kompact.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := openai.UsageFrom(tt.prompt, tt.complete, tt.top, tt.details)
			if got != tt.want {
				t.Errorf("UsageFrom(%d, %d, ...) = %+v, want %+v", tt.prompt, tt.complete, got, tt.want)
			}
			if got.InputCacheCreation != 0 {
				t.Errorf("InputCacheCreation = %d", got.InputCacheCreation)
			}
			if got.Input() != tt.prompt {
				t.Errorf("Input() = %d, want prompt tokens %d", got.Input(), tt.prompt)
			}
		})
	}
}

func TestAccumulatorAnswerIsASnapshot(t *testing.T) {
	var a openai.Accumulator
	a.ToolCall(0, "c1", "f", `{"a"`)
	first := a.Answer()
	a.ToolCall(0, "", "", `:1}`)
	if got := *first.ToolCalls[0].Arguments; got != `{"a"` {
		t.Fatalf("an earlier answer changed with later deltas: %q", got)
	}
	if got := *a.Answer().ToolCalls[0].Arguments; got != `{"a":1}` {
		t.Fatalf("arguments %q", got)
	}
}

// TestRequestBodyIsTheStreamedBody: the slice RequestBody returns ends where
// the body does (no spare capacity a caller could append into) and is the
// body its streamed twin, WriteRequestBody, writes, whatever its size.
func TestRequestBodyIsTheStreamedBody(t *testing.T) {
	for _, n := range []int{0, 1, 100, 5000} {
		parts := make([]kompact.Part, 0, n+1)
		parts = append(parts, kompact.TextPart("first"))
		for i := range n {
			parts = append(parts, kompact.TextPart(string(rune('a'+i%26))+"\t\"é数\""))
		}
		msgs := []kompact.Message{{Role: kompact.RoleUser, Content: parts}}
		body, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: map[string]any{"temperature": 0.5}}, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if cap(body) != len(body) {
			t.Errorf("%d parts: body has capacity %d past its %d bytes", n, cap(body)-len(body), len(body))
		}
		var w bytes.Buffer
		if err := openai.WriteRequestBody(&w, kompact.RequestConfig{Model: "m", Fields: map[string]any{"temperature": 0.5}}, msgs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, w.Bytes()) {
			t.Errorf("%d parts: RequestBody and WriteRequestBody differ", n)
		}
		if !json.Valid(body) {
			t.Errorf("%d parts: body is not JSON", n)
		}
	}
}
