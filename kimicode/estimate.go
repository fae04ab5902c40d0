package kimicode

// mediaTokens is what Kimi Code counts for an image, audio or video part.
const mediaTokens = 2000

// EstimateText is Kimi Code's token estimate of s: a quarter token per ASCII code point,
// rounded up, plus one per other code point.
func EstimateText(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r <= 127 {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+3)/4 + other
}

// EstimateMessage is Kimi Code's estimate of m: its role, its parts (text and thinking
// by their text, media 2000 each) and its tool calls' names and JSON arguments.
func EstimateMessage(m *Message) int {
	n := EstimateText(m.Role)
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			n += EstimateText(p.Text)
		case "think":
			n += EstimateText(p.Think)
		case "image_url", "audio_url", "video_url":
			n += mediaTokens
		}
	}
	for _, c := range m.ToolCalls {
		n += EstimateText(c.Name)
		// JSON.stringify of the arguments string Kimi Code keeps (no HTML escapes).
		n += EstimateText(jsonString(c.Arguments))
	}
	return n
}

// EstimateMessages sums EstimateMessage over ms.
func EstimateMessages(ms []Message) int {
	n := 0
	for i := range ms {
		n += EstimateMessage(&ms[i])
	}
	return n
}
