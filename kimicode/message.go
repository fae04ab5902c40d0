package kimicode

import "encoding/json"

// Message is one message of a Kimi Code agent's context, as its wire.jsonl records it.
type Message struct {
	Role       string
	Parts      []Part
	ToolCalls  []ToolCall
	ToolCallID string
	Origin     Origin
	// Note, Failed and WallTimeMs are a tool result's note, error flag and duration in
	// milliseconds (nil: not shown, as for every tool but those Kimi Code times): Kimi
	// Code renders them into the result it sends (ToolContent) but does not count them
	// in its estimate.
	Note       string
	Failed     bool
	WallTimeMs *float64
}

// Part is one content part: text, thinking, or another kind kept as recorded (Raw).
type Part struct {
	Type  string
	Text  string
	Think string
	Raw   json.RawMessage
}

// ToolCall is one call of an assistant message; Arguments is the JSON text sent.
type ToolCall struct {
	ID, Name, Arguments string
}

// Origin says where a user message came from (kind "" is a message without one).
type Origin struct {
	Kind    string `json:"kind"`
	Variant string `json:"variant,omitempty"`
	Trigger string `json:"trigger,omitempty"`
}

// Todo is one item of the agent's TODO list.
type Todo struct {
	Title  string `json:"title"`
	Status string `json:"status"`
}

// Text is the concatenation of m's text parts.
func (m *Message) Text() string {
	s := ""
	for _, p := range m.Parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s
}

// userText is a user message of one text part.
func userText(text string, origin Origin) Message {
	return Message{Role: "user", Parts: []Part{{Type: "text", Text: text}}, Origin: origin}
}

// partURL is the url of a media part of kind (image_url, audio_url, video_url).
func partURL(p Part, kind string) string {
	var v map[string]struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(p.Raw, &v)
	if u, ok := v[kind]; ok {
		return u.URL
	}
	// Kimi Code's own part form: videoUrl, imageUrl, audioUrl.
	camel := map[string]string{"image_url": "imageUrl", "audio_url": "audioUrl", "video_url": "videoUrl"}[kind]
	return v[camel].URL
}
