package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/storetest"
	"kompact/internal/testing/testserver"
)

// compactedSession stores session id of msgs, commits a compaction of its
// first half (revision 1) and restores it (revision 2).
func compactedSession(t *testing.T, store kompact.Store, id string, msgs []kompact.Message) {
	t.Helper()
	ctx := context.Background()
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: id, Agent: "kimi", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	cur, err := store.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := kompact.Commit{Base: cur.Messages, End: len(msgs) / 2, Version: cur.Version, TokenCount: 1000, Note: "compacted <2> & more",
		Replacement: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(summaryText)}}}}
	if _, _, err := store.CommitCompaction(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.RestoreRevision(ctx, id, 1); err != nil {
		t.Fatal(err)
	}
}

// GET /v1/sessions/{id}/revisions/{rev} streams the revision's list from
// the store (issue 29), and its answer is byte for byte what it was when
// the handler built the revision in memory: json.Marshal of the revision's
// kompact.Revision (storetest.Revision reads it whole) (which escapes <, >, & and U+2028 in strings), then a
// newline. An unknown revision is still a 404 error answer.
func TestRevisionAnswerAsBuilt(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	arg := `{"path":"a<b>&c"}`
	msgs := []kompact.Message{
		{Role: kompact.RoleSystem, ID: "sys", Content: []kompact.Part{kompact.TextPart("rules: <b> & \"quotes\"\n\ttabs")}},
		{Role: kompact.RoleUser, ID: "u1", Content: []kompact.Part{kompact.TextPart("line\u2028sep\u2029 é 数据 → <script>&amp;")}},
		{Role: kompact.RoleAssistant, ID: "a1", Content: []kompact.Part{kompact.ThinkPart("hmm <think>"), kompact.TextPart("call")},
			ToolCalls: []kompact.ToolCall{{ID: "c1", Name: "read", Arguments: &arg}}},
		{Role: kompact.RoleTool, ID: "t1", ToolCallID: "c1", Content: []kompact.Part{kompact.TextPart("file <body> & done")}},
		{Role: kompact.RoleUser, ID: "u2", Content: []kompact.Part{kompact.TextPart("next")}},
		{Role: kompact.RoleAssistant, ID: "a2", Content: []kompact.Part{kompact.TextPart("ok")}},
	}
	compactedSession(t, e.store, "r", msgs)
	for _, rev := range []int64{1, 2} {
		built, err := storetest.Revision(t.Context(), e.store, "r", rev)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(built)
		if err != nil {
			t.Fatal(err)
		}
		r := e.do("GET", fmt.Sprintf("/v1/sessions/r/revisions/%d", rev), nil)
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("revision %d: status %d, headers %v: %.300s", rev, r.status, r.header, r.body)
		}
		if string(r.body) != string(want)+"\n" {
			t.Fatalf("revision %d is\n%s\nwant\n%s", rev, r.body, want)
		}
	}
	if r := e.do("GET", "/v1/sessions/r/revisions/9", nil); r.status != http.StatusNotFound || r.json(t)["code"] != "not_found" {
		t.Fatalf("an unknown revision: %d %s", r.status, r.body)
	}
}

// heapWhenRead records the live heap (after a collection) at the moment a
// revision's list has been read whole: when StreamRevision hands over
// its last message.
type heapWhenRead struct {
	kompact.Store
	heap *uint64
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func (s heapWhenRead) StreamRevision(ctx context.Context, id string, rev int64, head func(*kompact.RevisionInfo) error, body func([]byte) error) error {
	n, total := 0, 0
	return s.Store.StreamRevision(ctx, id, rev, func(info *kompact.RevisionInfo) error {
		total = info.Messages
		return head(info)
	}, func(b []byte) error {
		if n++; n == total {
			*s.heap = liveHeap()
		}
		return body(b)
	})
}

// discardWriter is a ResponseWriter that keeps nothing of the body.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// TestRevisionGetHoldsNoRevision: a revision GET never holds the
// revision's messages: when the whole list has been read, the live heap
// has grown by under a quarter of its text (issue 29: 1.18 GB for one GET
// of a 100k-message revision, when the handler built it in memory; the
// text alone was held then).
func TestRevisionGetHoldsNoRevision(t *testing.T) {
	store := testserver.SQLite(t)
	msgs, size := benchMessages(2000)
	compactedSession(t, store, "mem", msgs)
	msgs = nil
	var atRead uint64
	h := httpapi.New(httpapi.Config{Store: heapWhenRead{store, &atRead}, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
	base := liveHeap()
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/sessions/mem/revisions/1", nil))
	if w.code != http.StatusOK || w.n < int(size) || atRead == 0 {
		t.Fatalf("status %d, %d bytes for %d of text; heap measured: %v", w.code, w.n, size, atRead != 0)
	}
	grew := int64(atRead) - int64(base)
	t.Logf("the live heap grew by %d bytes when the revision's %d bytes of text were read", grew, size)
	if grew >= size/4 {
		t.Errorf("the live heap grew by %d bytes (%.2f× the revision's %d bytes of text) when its list was read; want under a quarter", grew, float64(grew)/float64(size), size)
	}
}
