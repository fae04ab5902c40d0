package httpapi_test

import (
	"bytes"
	"testing"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
)

// TestGatewayNotStoredHeader: a conversation holding a message the
// gateway cannot read (the legacy role "function") is forwarded as sent
// and not stored, and its answer says so in X-Kompact-Not-Stored
// (issue 29); so does a named session's edited history ("diverged"). A
// stored request has the header not.
func TestGatewayNotStoredHeader(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{})
	const legacy = `{"model":"chat-model","messages":[{"role":"user","content":"hi"},` +
		`{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}},{"role":"function","name":"f","content":"42"}]}`
	r := sendChat(t, srv.URL, legacy)
	h := r.header
	if r.status != 200 || h.Get("X-Kompact-Not-Stored") != "unreadable-message" || h.Get("X-Kompact-Session") != "" {
		t.Fatalf("a function message: %d, X-Kompact-Not-Stored %q, X-Kompact-Session %q; want 200, unreadable-message, none",
			r.status, h.Get("X-Kompact-Not-Stored"), h.Get("X-Kompact-Session"))
	}
	if chats, _ := up.Chats(); len(chats) != 1 || !bytes.Equal(chats[0].Body, []byte(legacy)) {
		t.Fatalf("the function message's request was not forwarded as sent")
	}
	named := withHeader("X-Kompact-Session", "named")
	if r := sendChat(t, srv.URL, chatBody(2), named); r.header.Get("X-Kompact-Not-Stored") != "" || r.status != 200 || r.header.Get("X-Kompact-Session") != "named" {
		t.Fatalf("a stored request: %d, X-Kompact-Session %q, X-Kompact-Not-Stored %q", r.status, r.header.Get("X-Kompact-Session"), r.header.Get("X-Kompact-Not-Stored"))
	}
	edited := `{"model":"chat-model","messages":[{"role":"user","content":"edited"},{"role":"user","content":"message 1"}]}`
	if r := sendChat(t, srv.URL, edited, named); r.status != 200 || r.header.Get("X-Kompact-Not-Stored") != "diverged" {
		t.Fatalf("an edited history: %d, X-Kompact-Not-Stored %q; want diverged", r.status, r.header.Get("X-Kompact-Not-Stored"))
	}
}
