package httpapi_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/testserver"
)

// heapAfterSessionRead records the live heap (after a collection) once a
// session has been read whole, by GetSession or StreamSession, while what
// the caller kept of it is still held.
type heapAfterSessionRead struct {
	kompact.Store
	heap *uint64
}

func (s heapAfterSessionRead) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	st, err := s.Store.GetSession(ctx, id)
	*s.heap = liveHeap()
	return st, err
}

func (s heapAfterSessionRead) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	err := s.Store.StreamSession(ctx, id, head, body)
	*s.heap = liveHeap()
	return err
}

// TestDryRunHoldsNoText: a dry run holds the session's outline, not its
// messages: once the session is read, the live heap has grown by under a
// quarter of its text (issue 29: 343 MB for one dry run on 100k messages,
// 2.18 GB for eight at once, when it read the session whole).
func TestDryRunHoldsNoText(t *testing.T) {
	store := testserver.SQLite(t)
	msgs, size := benchMessages(2000)
	if _, err := store.CreateSession(t.Context(), &kompact.Session{ID: "mem", Agent: "kimi", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	msgs = nil
	var atRead uint64
	h := httpapi.New(httpapi.Config{Store: heapAfterSessionRead{store, &atRead}, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
	base := liveHeap()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/sessions/mem/actions/compact_conversation", strings.NewReader(`{"dry_run":true}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"replaced_messages":1998`) || atRead == 0 {
		t.Fatalf("status %d: %.300s (heap measured: %v)", rec.Code, rec.Body, atRead != 0)
	}
	grew := int64(atRead) - int64(base)
	t.Logf("the live heap grew by %d bytes when the session's %d bytes of text were read", grew, size)
	if grew >= size/4 {
		t.Errorf("the live heap grew by %d bytes (%.2f× the session's %d bytes of text) once the dry run read it; want under a quarter", grew, float64(grew)/float64(size), size)
	}
}
