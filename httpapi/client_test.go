package httpapi_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
)

// TestClient runs the client against a real server: what it decodes is
// what the store holds.
func TestClient(t *testing.T) {
	e := newAPIEnv(t, apiOptions{token: "tok"})
	c := &httpapi.Client{BaseURL: e.base + "/", Token: "tok", HTTP: e.http}
	ctx := context.Background()

	list, err := c.ListSessions(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("empty list: %v %v", list, err)
	}
	doc := `{"id":"imp","agent":"off","compaction_model":"m2","messages":[{"id":"u1","role":"user","content":"hi"},` +
		`{"id":"a1","role":"assistant","content":[{"type":"think","think":"hmm"},{"type":"text","text":"hello"}]}]}`
	imp, err := c.ImportSession(ctx, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := e.store.GetSession(ctx, "imp")
	if err != nil {
		t.Fatal(err)
	}
	sameStored(t, "import", imp, stored)
	got, err := c.GetSession(ctx, "imp")
	if err != nil {
		t.Fatal(err)
	}
	sameStored(t, "get", got, stored)
	created, err := c.CreateSession(ctx, &kompact.Session{Messages: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("x")}}}})
	if err != nil || created.ID == "" || created.Agent != "fake" || len(created.Messages) != 1 || created.Messages[0].ID == "" {
		t.Fatalf("create: %+v %v", created, err)
	}
	list, err = c.ListSessions(ctx)
	if err != nil || len(list) != 2 || list[0].ID != created.ID || list[1].ID != "imp" || list[1].Messages != 2 || list[1].CompactionModel != "m2" {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := c.DeleteSession(ctx, "imp"); err != nil {
		t.Fatal(err)
	}

	// Error answers keep the server's code, message and fixes.
	_, err = c.GetSession(ctx, "imp")
	var ke *kompact.Error
	if !errors.As(err, &ke) || ke.Code != kompact.ENotFound || !strings.Contains(ke.Message, "imp") {
		t.Errorf("get after delete: %v", err)
	}
	_, err = c.ImportSession(ctx, []byte(`{"agent":"nobody","messages":[]}`))
	if !errors.As(err, &ke) || ke.Code != kompact.EInvalid || len(ke.Fixes) == 0 {
		t.Errorf("unknown agent: %#v", err)
	}
	bad := &httpapi.Client{BaseURL: e.base, HTTP: e.http}
	if _, err := bad.ListSessions(ctx); !errors.As(err, &ke) || ke.Code != httpapi.EUnauthorized {
		t.Errorf("no token: %v", err)
	}

	// A server that is not there, and one that is not a kompact server.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	if _, err := (&httpapi.Client{BaseURL: dead}).ListSessions(ctx); !errors.As(err, &ke) || ke.Code != httpapi.EUnreachable || !strings.Contains(ke.Message, dead) {
		t.Errorf("dead server: %v", err)
	}
	if _, err := (&httpapi.Client{BaseURL: e.base + "/no-api"}).ListSessions(ctx); !errors.As(err, &ke) || ke.Code != kompact.EInternal || !strings.Contains(ke.Message, "404") {
		t.Errorf("not a kompact server: %v", err)
	}
}

// sameStored fails unless got is want, timestamps included.
func sameStored(t *testing.T, name string, got, want *kompact.StoredSession) {
	t.Helper()
	if string(got.AppendJSON(nil)) != string(want.AppendJSON(nil)) || got.Version != want.Version ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Errorf("%s: %s v%d %v %v\nstore: %s v%d %v %v", name, got.AppendJSON(nil), got.Version, got.CreatedAt, got.UpdatedAt,
			want.AppendJSON(nil), want.Version, want.CreatedAt, want.UpdatedAt)
	}
}
