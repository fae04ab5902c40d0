package kimicode_test

import (
	"encoding/json"
	"testing"

	"kompact/kimicode"
)

// TestToolContent: the tool results no recording holds, rendered as Kimi Code 2.1.0's
// renderToolResultForModel and its Chat Completions lowering do (issue 39 §3; the recorded
// ones are in the vectors tools_default_auto and shell_manual): a failure without output,
// a blank failure of parts, output parts with an image, a note after parts, a wall time
// before a media part, fractions of a millisecond.
func TestToolContent(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	text := func(s string) kimicode.Part { return kimicode.Part{Type: "text", Text: s} }
	media := func(kind, url string) kimicode.Part {
		raw, _ := json.Marshal(map[string]any{"type": kind, kind: map[string]string{"url": url}})
		return kimicode.Part{Type: kind, Raw: raw}
	}
	for _, tc := range []struct {
		name string
		m    kimicode.Message
		want string
	}{
		{"failure without output", kimicode.Message{Parts: []kimicode.Part{text("")}, Failed: true},
			"<system>ERROR: Tool execution failed. Tool output is empty.</system>"},
		{"blank output", kimicode.Message{Parts: []kimicode.Part{text(" \n\t")}}, "<system>Tool output is empty.</system>"},
		{"the empty text", kimicode.Message{Parts: []kimicode.Part{text(" Tool output is empty.\n")}}, "<system>Tool output is empty.</system>"},
		{"blank parts that failed", kimicode.Message{Parts: []kimicode.Part{text(" "), text("\n")}, Failed: true},
			"<system>ERROR: Tool execution failed. Tool output is empty.</system>"},
		{"no parts, timed", kimicode.Message{WallTimeMs: ms(1500)}, "Wall time: 1.500 seconds\n<system>Tool output is empty.</system>"},
		{"parts that failed, with a note", kimicode.Message{Parts: []kimicode.Part{text("a"), text("b")}, Failed: true, Note: "<system>n</system>"},
			"<system>ERROR: Tool execution failed.</system>ab<system>n</system>"},
		{"an image and text", kimicode.Message{Parts: []kimicode.Part{text("see"), media("image_url", "data:image/png;base64,AA")}}, "see"},
		{"only an image", kimicode.Message{Parts: []kimicode.Part{media("image_url", "https://x/y.png")}}, "(see attached media)"},
		{"an image, timed", kimicode.Message{Parts: []kimicode.Part{media("image_url", "https://x/y.png")}, WallTimeMs: ms(7)},
			"Wall time: 0.007 seconds"},
		{"audio and inline video", kimicode.Message{Parts: []kimicode.Part{media("audio_url", "data:audio/wav;base64,AA"), media("video_url", "data:video/mp4;base64,AA")}},
			"(audio omitted: not supported by this provider)\n(video omitted: not supported by this provider)"},
		{"a fraction of a millisecond", kimicode.Message{Parts: []kimicode.Part{text("x")}, WallTimeMs: ms(12345.6)}, "Wall time: 12.346 seconds\nx"},
		{"a whole minute", kimicode.Message{Parts: []kimicode.Part{text("x")}, WallTimeMs: ms(60000)}, "Wall time: 60.000 seconds\nx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.m.Role = "tool"
			if got := tc.m.ToolContent(); got != tc.want {
				t.Errorf("ToolContent = %q, want %q", got, tc.want)
			}
		})
	}
}
