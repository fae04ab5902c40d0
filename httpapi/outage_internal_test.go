package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/storeutil"
	"kompact/internal/testing/testserver"
)

// downStore is a store whose writes fail as a full disk's do while down
// is set.
type downStore struct {
	kompact.Store
	down atomic.Bool
}

func (s *downStore) outage() error {
	return storeutil.Unavailable("test store", "append", "the disk is full", io.ErrShortWrite, nil)
}

func (s *downStore) AppendMessages(ctx context.Context, id string, msgs []kompact.Message) (*kompact.Appended, error) {
	if s.down.Load() {
		return nil, s.outage()
	}
	return s.Store.AppendMessages(ctx, id, msgs)
}

func (s *downStore) CheckWrite(context.Context) error {
	if s.down.Load() {
		return s.outage()
	}
	return nil
}

// TestStoreOutage: a write the store cannot make for an outage answers
// 503 unavailable with Retry-After, not 500 internal; GET /v1/health
// reports the failing writes with 503 until the store takes writes again
// (issue 21, item 7).
func TestStoreOutage(t *testing.T) {
	store := &downStore{Store: testserver.SQLite(t)}
	if _, err := store.CreateSession(context.Background(), &kompact.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(New(Config{Store: store, Agents: config.Default()}).Handler())
	t.Cleanup(ts.Close)
	get := func(path string) (*http.Response, string) {
		r, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r, string(b)
	}
	appendMsg := func() (*http.Response, string) {
		r, err := ts.Client().Post(ts.URL+"/v1/sessions/s/messages", "application/json",
			strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r, string(b)
	}
	if r, body := get("/v1/health"); r.StatusCode != 200 {
		t.Fatalf("health before: %d %s", r.StatusCode, body)
	}
	store.down.Store(true)
	r, body := appendMsg()
	var e kompact.ErrorBody
	_ = json.Unmarshal([]byte(body), &e)
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || e.Code != kompact.EUnavailable ||
		!strings.Contains(e.Message, "the disk is full") || strings.Contains(body, "test store") {
		t.Fatalf("append during the outage: %d Retry-After %q %s", r.StatusCode, r.Header.Get("Retry-After"), body)
	}
	if r, body := get("/v1/health"); r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"store":"failing writes"`) ||
		r.Header.Get("Retry-After") == "" {
		t.Fatalf("health during the outage: %d %s", r.StatusCode, body)
	}
	store.down.Store(false)
	if r, body := get("/v1/health"); r.StatusCode != 200 {
		t.Fatalf("health once the store takes writes: %d %s", r.StatusCode, body)
	}
	if r, body := appendMsg(); r.StatusCode != http.StatusCreated {
		t.Fatalf("append after the outage: %d %s", r.StatusCode, body)
	}
}
