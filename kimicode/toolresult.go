package kimicode

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The status lines Kimi Code 2.1.0 renders into a tool result (its toolResultRender):
// a failure, an empty output, an empty failure.
const (
	toolErrorStatus      = "<system>ERROR: Tool execution failed.</system>"
	toolEmptyStatus      = "<system>Tool output is empty.</system>"
	toolEmptyErrorStatus = "<system>ERROR: Tool execution failed. Tool output is empty.</system>"
	// toolOutputEmptyText is an output Kimi Code takes for an empty one.
	toolOutputEmptyText = "Tool output is empty."
	// toolMediaPlaceholder is the content of a tool result that holds only images.
	toolMediaPlaceholder = "(see attached media)"
	// The lines that stand for audio and inline video, which Chat Completions tool
	// messages cannot carry.
	toolAudioPlaceholder = "(audio omitted: not supported by this provider)"
	toolVideoPlaceholder = "(video omitted: not supported by this provider)"
)

// wallTimeTools are the tools whose results Kimi Code heads with their wall time (and
// every MCP tool, named mcp__…).
var wallTimeTools = map[string]bool{"Agent": true, "AgentSwarm": true, "Bash": true, "FetchURL": true,
	"Glob": true, "Grep": true, "WebSearch": true}

// rendersWallTime says whether Kimi Code shows the wall time of tool name's results.
func rendersWallTime(name string) bool {
	return wallTimeTools[name] || strings.HasPrefix(name, "mcp__")
}

// ToolContent is the tool result m as Kimi Code 2.1.0 sends it in a Chat Completions
// request: its status (a failure, an empty output), the output, the wall time before
// them for the tools that show it, the note after them, as one string.
func (m *Message) ToolContent() string {
	parts := renderToolResult(m)
	// Blank text parts go (Kimi Code's cleanContent), then the parts are lowered to text.
	var texts []string
	media := false
	var audio, video bool
	for _, p := range parts {
		switch {
		case p.Type == "text":
			if jsTrim(p.Text) != "" {
				texts = append(texts, p.Text)
			}
		case p.Type == "think":
		default:
			media = true
			audio = audio || p.Type == "audio_url"
			video = video || p.Type == "video_url" && strings.HasPrefix(partURL(p, "video_url"), "data:")
		}
	}
	text := strings.Join(texts, "")
	if !media {
		return text
	}
	var lines []string
	if text != "" {
		lines = append(lines, text)
	}
	if audio {
		lines = append(lines, toolAudioPlaceholder)
	}
	if video {
		lines = append(lines, toolVideoPlaceholder)
	}
	if len(lines) == 0 {
		return toolMediaPlaceholder
	}
	return strings.Join(lines, "\n")
}

// renderToolResult is Kimi Code's renderToolResultForModel of m: the status, the wall
// time, the note.
func renderToolResult(m *Message) []Part {
	out := renderToolStatus(m)
	if m.WallTimeMs != nil {
		header := "Wall time: " + formatSeconds(*m.WallTimeMs) + " seconds"
		if len(out) > 0 && out[0].Type == "text" {
			out[0] = textPart(header + "\n" + out[0].Text)
		} else {
			out = append([]Part{textPart(header)}, out...)
		}
	}
	if m.Note == "" {
		return out
	}
	if len(out) == 1 && out[0].Type == "text" {
		return []Part{textPart(out[0].Text + "\n" + m.Note)}
	}
	return append(out, textPart(m.Note))
}

// renderToolStatus is the output with its status: one text when the output is one
// text, else the parts (after the failure line when it failed).
func renderToolStatus(m *Message) []Part {
	if len(m.Parts) == 1 && m.Parts[0].Type == "text" {
		single := m.Parts[0].Text
		switch {
		case m.Failed && single == "":
			return []Part{textPart(toolEmptyErrorStatus)}
		case m.Failed:
			return []Part{textPart(toolErrorStatus + "\n" + single)}
		case jsTrim(single) == "" || jsTrim(single) == toolOutputEmptyText:
			return []Part{textPart(toolEmptyStatus)}
		}
		return []Part{textPart(single)}
	}
	blank := true
	for _, p := range m.Parts {
		if p.Type != "text" || jsTrim(p.Text) != "" {
			blank = false
		}
	}
	switch {
	case blank && m.Failed:
		return []Part{textPart(toolEmptyErrorStatus)}
	case blank:
		return []Part{textPart(toolEmptyStatus)}
	case m.Failed:
		return append([]Part{textPart(toolErrorStatus)}, m.Parts...)
	}
	return append([]Part(nil), m.Parts...)
}

func textPart(s string) Part { return Part{Type: "text", Text: s} }

// formatSeconds is JavaScript's (ms / 1e3).toFixed(3). A whole number of milliseconds
// (what Kimi Code records) is written exactly; another goes through strconv.
func formatSeconds(ms float64) string {
	if ms == math.Trunc(ms) && math.Abs(ms) < 1<<53 {
		n := int64(ms)
		sign := ""
		if n < 0 {
			sign, n = "-", -n
		}
		return fmt.Sprintf("%s%d.%03d", sign, n/1000, n%1000)
	}
	return strconv.FormatFloat(ms/1e3, 'f', 3, 64)
}
