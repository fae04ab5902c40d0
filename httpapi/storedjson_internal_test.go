package httpapi

import (
	"bytes"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/golden"
)

// TestStoredJSONGolden pins, byte for byte, the JSON form of stored
// sessions that appendStored writes whole and streamStored writes in three
// pieces (head, message bodies, tail): ids that need escaping, fields left
// out when empty, no messages, one, several.
func TestStoredJSONGolden(t *testing.T) {
	at := time.Date(2001, 2, 3, 4, 5, 6, 7000, time.FixedZone("x", 3600))
	msg := func(id, text string) kompact.Message {
		return kompact.Message{ID: id, Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}}
	}
	cases := []*kompact.StoredSession{
		{Session: kompact.Session{ID: "plain", Agent: "kimi"}, Version: 1, CreatedAt: at, UpdatedAt: at},
		{Session: kompact.Session{ID: "s", Agent: "a", CompactionModel: "m", Messages: []kompact.Message{msg("u1", "hi")}}, Version: 2, CreatedAt: at, UpdatedAt: at.Add(time.Second)},
		{Session: kompact.Session{ID: "q\"<>&\u2028\\", Messages: []kompact.Message{msg("u1", "a"), msg("u2", "b\n\"c\"")}}, Version: 30, CreatedAt: at.UTC(), UpdatedAt: at},
		{Session: kompact.Session{CompactionModel: "only-model"}, Version: 0},
	}
	var out bytes.Buffer
	for _, s := range cases {
		whole := appendStored(nil, s)
		out.Write(whole)
		out.WriteString("\n---\n")
		// The streamed form: the head (after a "before" prefix), each
		// message's stored body, the tail.
		before := []byte(`{"revision":{"rev":1},"session":`)
		streamed := appendStoredHead(bytes.Clone(before), s)
		for i := range s.Messages {
			streamed = appendMessageSep(streamed, i)
			streamed = s.Messages[i].AppendJSON(streamed)
		}
		streamed = appendStoredTail(streamed, s, len(s.Messages))
		if !bytes.Equal(streamed[len(before):], whole) {
			t.Errorf("streamed %s\nwhole    %s", streamed[len(before):], whole)
		}
		out.Write(appendStoredHead(nil, s))
		out.WriteString("\n===\n")
	}
	golden.Check(t, "stored_json_forms", out.Bytes())
}
