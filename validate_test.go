package kompact_test

import (
	"strings"
	"testing"

	"kompact"
)

// TestValidateSession: the one rule for a session to be stored: its id
// (when set) follows SessionIDRule, its messages have a known form, valid
// UTF-8 and unique ids. Every error is EInvalid and names what is at
// fault.
func TestValidateSession(t *testing.T) {
	ok := []kompact.Message{msg("user", "u1", "hi"), msg("assistant", "", "hello")}
	for _, s := range []*kompact.Session{{Messages: ok}, {ID: "s_1:a.b-c", Messages: ok}, {ID: "x"}} {
		if err := kompact.ValidateSession(s); err != nil {
			t.Errorf("ValidateSession(%q): %v", s.ID, err)
		}
	}
	callWith := func(extras string) kompact.Message {
		m := msg("assistant", "", "x")
		m.ToolCalls = []kompact.ToolCall{{ID: "c", Name: "f", Extras: []byte(extras)}}
		return m
	}
	for _, tc := range []struct {
		name string
		s    *kompact.Session
		want string
	}{
		{"no session", nil, "no session given"},
		{"id ..", &kompact.Session{ID: "..", Messages: ok}, `the session id ".." is reserved`},
		{"id with a slash", &kompact.Session{ID: "a/b"}, "the session id has '/' (byte 0x2f) at offset 1"},
		{"long id", &kompact.Session{ID: strings.Repeat("a", 129)}, "the session id is 129 bytes long"},
		{"unknown role", &kompact.Session{Messages: []kompact.Message{msg("robot", "", "x")}}, `messages[0].role: unknown role "robot"; use one of system, user, assistant, tool`},
		{"unknown part type", &kompact.Session{Messages: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{{Type: "gif"}}}}},
			`messages[0].content[0].type: unknown part type "gif"; use one of text, think, image_url, audio_url, video_url, data`},
		{"text not UTF-8", &kompact.Session{Messages: []kompact.Message{msg("user", "", "ok"), msg("user", "", "\xc3")}}, "messages[1].content[0].text is not valid UTF-8"},
		{"id not UTF-8", &kompact.Session{Messages: []kompact.Message{msg("user", "\xff", "ok")}}, "messages[0].id is not valid UTF-8"},
		{"duplicate id", &kompact.Session{Messages: []kompact.Message{msg("user", "a", "x"), msg("user", "b", "y"), msg("user", "a", "z")}}, `messages[2].id: "a" is already the id of messages[0]`},
		{"extras not an object", &kompact.Session{Messages: []kompact.Message{callWith("[1]")}}, "messages[0].tool_calls[0].extras: must be a JSON object"},
		{"extras not JSON", &kompact.Session{Messages: []kompact.Message{callWith("{")}}, "messages[0].tool_calls[0].extras: must be a JSON object"},
	} {
		err := kompact.ValidateSession(tc.s)
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EInvalid %q", tc.name, err, tc.want)
		}
	}
	for _, extras := range []string{"", "null", " {\"a\": 1} "} {
		if err := kompact.ValidateSession(&kompact.Session{Messages: []kompact.Message{callWith(extras)}}); err != nil {
			t.Errorf("extras %q: %v", extras, err)
		}
	}
}

// TestMessageCheckInParts: a list checked in parts counts its indexes and
// its ids across them, under its own name, and with CopyIDs keeps the ids
// of a part whose memory changes afterwards.
func TestMessageCheckInParts(t *testing.T) {
	c := kompact.MessageCheck{Field: "replacement", Rules: kompact.AllMessageRules, CopyIDs: true}
	buf := []byte("ab")
	first := []kompact.Message{msg("user", string(buf[:1]), "x"), msg("user", "", "y")}
	if err := c.Check(first); err != nil {
		t.Fatal(err)
	}
	buf[0] = 'z' // a reused buffer: the id "a" must be remembered as it was
	err := c.Check([]kompact.Message{msg("user", "b", "x"), msg("user", "a", "y")})
	if want := `replacement[3].id: "a" is already the id of replacement[0]`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, want %q", err, want)
	}
	only := kompact.MessageCheck{Rules: kompact.RuleUniqueIDs}
	if err := only.Check([]kompact.Message{{ID: "x"}, {ID: "y"}}); err != nil {
		t.Errorf("RuleUniqueIDs alone checks no form: %v", err)
	}
	var none kompact.MessageCheck
	if err := none.Check([]kompact.Message{{ID: "x", Role: "robot"}, {ID: "x"}}); err != nil {
		t.Errorf("the zero MessageCheck applies no rule: %v", err)
	}
	if err := kompact.ValidateMessages([]kompact.Message{msg("user", "", "\xff")}); err != nil {
		t.Errorf("ValidateMessages checks no UTF-8 (the decoders' input is checked apart): %v", err)
	}
}

// TestRoles: one list of roles and one of part types, which Valid and the
// errors use.
func TestRoles(t *testing.T) {
	roles := kompact.Roles()
	if len(roles) != 4 || roles[0] != kompact.RoleSystem || roles[1] != kompact.RoleUser || roles[2] != kompact.RoleAssistant || roles[3] != kompact.RoleTool {
		t.Fatalf("Roles() = %v", roles)
	}
	roles[0] = "robot" // a copy
	for _, r := range kompact.Roles() {
		if !r.Valid() {
			t.Errorf("%s is not valid", r)
		}
	}
	if kompact.Role("robot").Valid() || kompact.Role("").Valid() || kompact.Role("User").Valid() {
		t.Error("an unknown role is valid")
	}
	types := kompact.PartTypes()
	if len(types) != 6 || types[0] != kompact.PartText || types[5] != kompact.PartData {
		t.Fatalf("PartTypes() = %v", types)
	}
	for _, p := range types {
		if !p.Valid() {
			t.Errorf("%s is not valid", p)
		}
	}
	if kompact.PartType("file").Valid() {
		t.Error("an unknown part type is valid")
	}
	_, err := kompact.DecodeMessage([]byte(`{"role": "robot", "content": "x"}`), 0)
	if err == nil || !strings.Contains(err.Error(), "use one of system, user, assistant, tool") {
		t.Errorf("the decoder's error: %v", err)
	}
}

func TestValidateMessages(t *testing.T) {
	ok := []kompact.Message{msg("user", "a", "x"), msg("assistant", "", "y"), msg("user", "", "z")}
	if err := kompact.ValidateMessages(ok); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		msgs []kompact.Message
		want string
	}{
		{[]kompact.Message{msg("user", "a", "x"), msg("user", "a", "y")}, `messages[1].id: "a" is already the id of messages[0]`},
		{[]kompact.Message{msg("robot", "", "x")}, `messages[0].role: unknown role "robot"`},
		{[]kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{{Type: "gif"}}}}, `messages[0].content[0].type: unknown part type "gif"`},
		{[]kompact.Message{{Role: kompact.RoleTool, Content: []kompact.Part{{Type: kompact.PartData, Data: []byte("{")}}}}, `messages[0].content[0].data: not valid JSON`},
	}
	for _, tc := range bad {
		err := kompact.ValidateMessages(tc.msgs)
		if kompact.ErrorCodeOf(err) != kompact.EInvalid || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}
