package kimicode

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"kompact"
	"kompact/internal/kcworkspace"
)

// Exported is a kompact session written as a Kimi Code 2.1.0 session folder: its
// state.json and agents/main/wire.jsonl.
type Exported struct {
	// ID is the Kimi Code session id (session_<uuid>).
	ID          string
	State, Wire []byte
}

// Export writes s as the session folder dir of a Kimi Code session whose working folder is
// cwd, the way Kimi Code writes a session it imports (its migration of kimi-cli sessions):
// one turn.prompt per turn a user message opens, each message a context.append_message,
// turn.ended after a turn with an assistant message. A system message after the first becomes a user message with the origin of an injection. Tool results are written
// as they are in the session (an imported one holds Kimi Code's note and error line).
// The agent's profile (profile.bind) is Kimi Code's default agent with model, thinking
// off and the session's leading system message as its system prompt.
func Export(s *kompact.Session, dir, cwd, model string, now time.Time, texts *Texts) *Exported {
	return ExportAs(s, ExportID(s.ID), dir, cwd, model, now, texts)
}

// ExportAs is Export as the Kimi Code session id (ExportIDIn's, say).
func ExportAs(s *kompact.Session, id, dir, cwd, model string, now time.Time, texts *Texts) *Exported {
	ms, system := s.Messages, ""
	if len(ms) > 0 && ms[0].Role == kompact.RoleSystem {
		system = kompactText(&ms[0])
		ms = ms[1:]
	}
	ctx := FromKompact(ms, texts)
	for i := range ms {
		if ms[i].Role == kompact.RoleSystem {
			ctx[i].Role, ctx[i].Origin = "user", Origin{Kind: "injection"}
		}
	}
	t := int(now.UnixMilli())
	var w bytes.Buffer
	line := func(o object) { o.write(&w); w.WriteByte('\n') }
	line(object{{"type", "metadata"}, {"protocol_version", "1.5"}, {"created_at", t}})
	line(object{{"type", "profile.bind"}, {"agentId", "main"}, {"modelAlias", model}, {"profileName", "agent"},
		{"thinkingEffort", "off"}, {"systemPrompt", system}, {"environmentDisclosure", object{{"cwd", cwd}}},
		{"disallowedTools", []object{}}, {"time", t}})
	turn, hasAssistant := -1, false
	end := func() {
		if turn >= 0 && hasAssistant {
			line(object{{"type", "turn.ended"}, {"agentId", "main"}, {"turnId", turn}, {"reason", "completed"}, {"time", t}})
		}
	}
	for i := range ctx {
		m := &ctx[i]
		if m.Role == "user" || turn < 0 {
			end()
			turn, hasAssistant = turn+1, false
			input, origin := []object{}, object{{"kind", "system_trigger"}, {"name", "imported_orphan"}}
			if m.Role == "user" {
				input, origin = partObjects(m.Parts), object{{"kind", "user"}}
			}
			line(object{{"type", "turn.prompt"}, {"agentId", "main"}, {"input", input}, {"origin", origin}, {"time", t}})
		}
		hasAssistant = hasAssistant || m.Role == "assistant"
		line(object{{"type", "context.append_message"}, {"agentId", "main"}, {"message", messageObject(m)}, {"time", t}})
	}
	end()
	state := object{{"id", id}, {"version", 2}, {"cwd", cwd}, {"archived", false},
		{"agents", object{{"main", object{{"homedir", filepath.Join(dir, "agents", "main")}, {"type", "main"}}}}},
		{"custom", object{{"exported_from_kompact", true}, {"kompact_session_id", s.ID}}},
		{"createdAt", t}, {"updatedAt", t}, {"isCustomTitle", false}}
	return &Exported{ID: id, State: state.bytes(), Wire: w.Bytes()}
}

// messageObject is m as a context.append_message record holds it.
func messageObject(m *Message) object {
	o := object{{"role", m.Role}, {"content", partObjects(m.Parts)}}
	calls := make([]object, 0, len(m.ToolCalls))
	for _, c := range m.ToolCalls {
		calls = append(calls, object{{"type", "function"}, {"id", c.ID}, {"name", c.Name}, {"arguments", c.Arguments}})
	}
	o = append(o, field{"toolCalls", calls})
	if m.ToolCallID != "" {
		o = append(o, field{"toolCallId", m.ToolCallID})
	}
	if m.Role == "user" {
		o = append(o, field{"origin", object{{"kind", m.Origin.Kind}}})
	}
	return o
}

func partObjects(ps []Part) []object {
	out := make([]object, 0, len(ps))
	for _, p := range ps {
		switch p.Type {
		case "text":
			out = append(out, object{{"type", "text"}, {"text", p.Text}})
		case "think":
			out = append(out, object{{"type", "think"}, {"think", p.Think}})
		}
	}
	return out
}

var sessionID = regexp.MustCompile(`^session_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// ExportID is the Kimi Code session id of kompact session id: the id itself when it is
// one (session_<uuid>, as an imported session's is), else a UUID made of the SHA-256 of
// the id, so that exporting a session again names the same folder.
func ExportID(id string) string {
	if sessionID.MatchString(id) {
		return id
	}
	return uuidID("kompact session " + id)
}

// ExportIDIn is the Kimi Code session id of kompact session id exported into workspace (a
// Kimi Code workspace folder, WorkspaceID) when the home already holds ExportID(id) in
// another workspace: made of both, so that exporting it there again names the same folder.
func ExportIDIn(id, workspace string) string {
	return uuidID("kompact session " + id + " in workspace " + workspace)
}

// uuidID is a Kimi Code session id made of the SHA-256 of seed.
func uuidID(seed string) string {
	h := sha256.Sum256([]byte(seed))
	x := hex.EncodeToString(h[:16])
	// A version-4, variant-1 UUID.
	x = x[:12] + "4" + x[13:16] + string("89ab"[h[8]&3]) + x[17:]
	return fmt.Sprintf("session_%s-%s-%s-%s-%s", x[:8], x[8:12], x[12:16], x[16:20], x[20:32])
}

// WorkspaceID is Kimi Code's folder name for the sessions of workDir (its
// encodeWorkDirKey): see internal/kcworkspace.
func WorkspaceID(workDir string) string { return kcworkspace.ID(workDir) }
