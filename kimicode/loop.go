package kimicode

import (
	"encoding/json"
	"fmt"
	"slices"
)

// loopEvent is a context.append_loop_event's event.
type loopEvent struct {
	Type       string          `json:"type"`
	UUID       string          `json:"uuid"`
	StepUUID   string          `json:"stepUuid"`
	Part       json.RawMessage `json:"part"`
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Args       json.RawMessage `json:"args"`
	Result     struct {
		Output     json.RawMessage `json:"output"`
		Note       string          `json:"note"`
		IsError    bool            `json:"isError"`
		DurationMs *float64        `json:"durationMs"`
	} `json:"result"`
}

// event folds one loop event: a step opens an assistant message, its parts and tool calls
// fill it, tool results wait, and the step's end puts the results after it in the order
// of the calls.
func (f *fold) event(raw json.RawMessage) error {
	var e loopEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return err
	}
	w := f.w
	switch e.Type {
	case "step.begin":
		f.steps[e.UUID] = len(w.Context)
		w.Context = append(w.Context, Message{Role: "assistant"})
		return f.checkMessages()
	case "content.part":
		i, ok := f.steps[e.StepUUID]
		if !ok {
			return fmt.Errorf("a content part of step %s, which is not open", e.StepUUID)
		}
		p, err := decodePart(e.Part)
		if err != nil {
			return err
		}
		w.Context[i].Parts = append(w.Context[i].Parts, p)
	case "tool.call":
		i, ok := f.steps[e.StepUUID]
		if !ok {
			return fmt.Errorf("a tool call of step %s, which is not open", e.StepUUID)
		}
		args := string(e.Args)
		if len(e.Args) == 0 {
			args = "{}"
		}
		w.Context[i].ToolCalls = append(w.Context[i].ToolCalls, ToolCall{ID: e.ToolCallID, Name: e.Name, Arguments: args})
	case "tool.result":
		f.results[e.ToolCallID] = toolMessage(e)
		return f.checkMessages()
	case "step.end":
		f.flush(e.UUID)
	}
	return nil
}

// toolMessage is the result of e: its output (one text, or content parts), note, error
// flag and duration (kept for the tools whose wall time Kimi Code shows, see flush).
func toolMessage(e loopEvent) Message {
	m := Message{Role: "tool", ToolCallID: e.ToolCallID, Note: e.Result.Note, Failed: e.Result.IsError,
		WallTimeMs: e.Result.DurationMs}
	var out string
	var parts []json.RawMessage
	switch {
	case json.Unmarshal(e.Result.Output, &out) == nil:
		m.Parts = []Part{textPart(out)}
	case json.Unmarshal(e.Result.Output, &parts) == nil:
		for _, raw := range parts {
			if p, err := decodePart(raw); err == nil {
				m.Parts = append(m.Parts, p)
			}
		}
	default:
		m.Parts = []Part{textPart(string(e.Result.Output))}
	}
	return m
}

// flush closes step uuid: an empty assistant message goes (swept out later: indexes
// do not move), the results of its calls follow it.
func (f *fold) flush(uuid string) {
	i, ok := f.steps[uuid]
	if !ok {
		return
	}
	delete(f.steps, uuid)
	f.ops += 1 + len(f.w.Context[i].ToolCalls)
	w := f.w
	a := w.Context[i]
	if len(a.Parts) == 0 && len(a.ToolCalls) == 0 {
		f.dead[i] = true
		return
	}
	for _, c := range a.ToolCalls {
		if m, ok := f.results[c.ID]; ok {
			if !rendersWallTime(c.Name) {
				m.WallTimeMs = nil
			}
			w.Context = append(w.Context, m)
			delete(f.results, c.ID)
		}
	}
}

// flushAll closes every open step, the newest first.
func (f *fold) flushAll() {
	f.ops += len(f.steps)
	open := make([]string, 0, len(f.steps))
	for k := range f.steps {
		open = append(open, k)
	}
	slices.SortFunc(open, func(a, b string) int { return f.steps[b] - f.steps[a] })
	for _, k := range open {
		f.flush(k)
	}
}
