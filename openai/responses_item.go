package openai

// This file reads one input item of a Responses request into kompact's
// form, one message per item, for the gateway's session: what the page
// shows and what kompact's own compaction reads. The forwarded body never
// goes through it.

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"kompact"
	"kompact/internal/jsonscan"
)

// wireItem is the fields of an input item that kompact's form keeps.
type wireItem struct {
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        json.RawMessage `json:"arguments"`
	Output           json.RawMessage `json:"output"`
	EncryptedContent string          `json:"encrypted_content"`
	Meta             *struct {
		Kinds []string `json:"content_item_kinds"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

// wirePart is a content part of a message or of a tool's output.
type wirePart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

// responsesRoles maps a message's role to kompact's.
var responsesRoles = map[string]kompact.Role{
	"developer": kompact.RoleSystem, "system": kompact.RoleSystem, "user": kompact.RoleUser, "assistant": kompact.RoleAssistant,
}

// Message reads input item i into kompact's form (with no ID). The rules:
//
//   - a message: the role developer or system is system, user is user (but
//     Codex's injected context, Context, is system: it is neither the
//     user's words nor a title), assistant is assistant; any other role is
//     an error. A string content is one text part; a list is read part by
//     part: input_text and output_text are text parts, a refusal is a data
//     part of its JSON as is every other part (an image, a file).
//   - function_call: an assistant message with one tool call, its id the
//     call_id, its arguments the string sent (other JSON as its text).
//   - function_call_output: a tool message answering call_id, its output
//     (a string, or a list read as a message's content) as its content.
//   - reasoning: an assistant message holding the item's JSON as a data
//     part, opaque: kompact's own compaction reads text parts only, so the
//     model's reasoning never reaches kompact's LLM.
//   - compaction: the summary it stands for, when its encrypted_content is
//     a kompact handle (CompactionHandle) that WithSummaries' function
//     (by default EmbeddedSummary) resolves: a user message of that text; otherwise (another
//     provider's compaction) a user message holding the item's JSON as a
//     data part.
//   - compaction_trigger and every other item: a data part of its JSON, in
//     a user message for the trigger, a tool message (answering call_id)
//     for a type ending in "_output", an assistant message otherwise.
//
// Errors are EInvalid and name the item as input[i]. Strings are decoded
// as encoding/json decodes them (invalid UTF-8 becomes U+FFFD), and data
// parts keep the item's JSON without white space, its invalid UTF-8
// replaced likewise. It shares no memory with the body.
func (r *ResponsesRequest) Message(i int) (kompact.Message, error) {
	if r.textInput {
		return kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(r.inputText)}}, nil
	}
	var w wireItem
	if err := json.Unmarshal(r.Raw(i), &w); err != nil {
		return kompact.Message{}, itemError(i, "does not read as a Responses item: %v", err)
	}
	switch r.items[i].kind {
	case ItemMessage:
		return r.messageItem(i, &w)
	case ItemFunctionCall:
		args := string(w.Arguments)
		if len(w.Arguments) > 0 && w.Arguments[0] == '"' {
			_ = json.Unmarshal(w.Arguments, &args)
		} else if len(w.Arguments) > 0 {
			args = string(jsonscan.AppendCompact(nil, w.Arguments))
		}
		call := kompact.ToolCall{ID: w.CallID, Name: w.Name}
		if len(w.Arguments) > 0 && string(w.Arguments) != "null" {
			call.Arguments = &args
		}
		return kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{}, ToolCalls: []kompact.ToolCall{call}}, nil
	case ItemFunctionCallOutput:
		parts, err := contentParts(i, w.Output)
		return kompact.Message{Role: kompact.RoleTool, Content: parts, ToolCallID: w.CallID, HasToolCallID: true}, err
	case ItemCompaction:
		summaries := r.summaries
		if summaries == nil {
			summaries = EmbeddedSummary
		}
		if h, ok := ParseCompactionHandle(w.EncryptedContent); ok {
			if text, ok := summaries(h); ok {
				return kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}}, nil
			}
		}
		return r.opaque(i, kompact.RoleUser), nil
	case ItemCompactionTrigger:
		return r.opaque(i, kompact.RoleUser), nil
	case ItemOther:
		if len(w.Type) > len("_output") && w.Type[len(w.Type)-len("_output"):] == "_output" {
			m := r.opaque(i, kompact.RoleTool)
			m.ToolCallID, m.HasToolCallID = w.CallID, true
			return m, nil
		}
	}
	return r.opaque(i, kompact.RoleAssistant), nil
}

// messageItem reads a message item (see Message).
func (r *ResponsesRequest) messageItem(i int, w *wireItem) (kompact.Message, error) {
	role, ok := responsesRoles[w.Role]
	if !ok {
		return kompact.Message{}, itemError(i, "the gateway does not read the role %q; a message's role is developer, system, user or assistant", w.Role)
	}
	parts, err := contentParts(i, w.Content)
	m := kompact.Message{Role: role, Content: parts}
	if role == kompact.RoleUser && codexContext(w, parts) {
		m.Role = kompact.RoleSystem
	}
	return m, err
}

// contentParts reads a content (or a tool's output): a string is one text
// part, null or absent none, a list part by part (see Message).
func contentParts(i int, raw json.RawMessage) ([]kompact.Part, error) {
	parts := []kompact.Part{}
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return parts, nil
	case raw[0] == '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return append(parts, kompact.TextPart(s)), nil
	case raw[0] != '[':
		return nil, itemError(i, "the content is neither a string nor a list of parts")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, itemError(i, "the content is neither a string nor a list of parts")
	}
	for _, pr := range list {
		var p wirePart
		if json.Unmarshal(pr, &p) != nil {
			return nil, itemError(i, "a content part is not an object")
		}
		switch p.Type {
		case "input_text", "output_text", "text":
			parts = append(parts, kompact.TextPart(p.Text))
		default:
			parts = append(parts, kompact.Part{Type: kompact.PartData, Data: validCompact(pr)})
		}
	}
	return parts, nil
}

// opaque is item i as one data part of its JSON, in a message of role.
func (r *ResponsesRequest) opaque(i int, role kompact.Role) kompact.Message {
	return kompact.Message{Role: role, Content: []kompact.Part{{Type: kompact.PartData, Data: validCompact(r.Raw(i))}}}
}

// validCompact is raw without white space, in memory of its own, its
// invalid UTF-8 replaced by U+FFFD.
func validCompact(raw []byte) []byte {
	b := jsonscan.AppendCompact(nil, raw)
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return b
}

// itemError is the EInvalid error of input item i.
func itemError(i int, format string, args ...any) error {
	return kompact.Errorf(kompact.EInvalid, "input[%d]: "+format, append([]any{i}, args...)...).
		WithFixes(`Send each item in the Responses form, e.g. {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "..."}]}.`)
}
