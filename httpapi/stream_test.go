package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// midwayFailingStore streams a session's head and first message, then
// fails.
type midwayFailingStore struct{ kompact.Store }

func (s midwayFailingStore) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	n := 0
	err := s.Store.StreamSession(ctx, id, head, func(b []byte) error {
		if n++; n > 1 {
			return errors.New("disk gone midway")
		}
		return body(b)
	})
	return err
}

// GET /v1/sessions/{id} streams the stored bodies: the answer is the
// stored session's JSON byte for byte (TestStoredSessionJSON pins it), and
// a read that fails after the answer began aborts the connection, so a
// client never takes a cut answer for a whole one.
func TestGetSessionStreams(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 40))
	r := e.do("GET", "/v1/sessions/s", nil)
	var doc struct {
		Messages []kompact.Message `json:"messages"`
		Version  int64             `json:"version"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || len(doc.Messages) != 81 || doc.Version != 1 || r.header.Get("Content-Length") != "" {
		t.Fatalf("GET: %v, %d messages, version %d, Content-Length %q", err, len(doc.Messages), doc.Version, r.header.Get("Content-Length"))
	}

	failing := newAPIEnv(t, apiOptions{store: func(s kompact.Store) kompact.Store { return midwayFailingStore{s} }})
	data, _ := json.Marshal(apiSession("s", 40))
	sess, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := failing.store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", failing.base+"/v1/sessions/s", nil)
	// The answer fits the stream's buffer: the abort leaves the client
	// without one (a larger answer would be cut in its body).
	if resp, err := failing.http.Do(req); err == nil {
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			t.Fatalf("a stream that failed midway ended cleanly: %d %q", resp.StatusCode, body)
		}
	}
	if logs := failing.logs.String(); !strings.Contains(logs, "disk gone midway") {
		t.Errorf("the failure is not logged:\n%s", logs)
	}
}

// The answers of an import, a restore and an undo hold the whole session:
// they stream it from the store as GET does (no Content-Length, the
// stored session byte for byte; the session is large enough that net/http
// would not set the length itself), so none is built in memory (issue 10).
func TestSessionAnswersStream(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	streamed := func(r apiResponse, status int, key string) {
		t.Helper()
		if r.status != status || r.header.Get("Content-Length") != "" {
			t.Fatalf("status %d, Content-Length %q: %.300s", r.status, r.header.Get("Content-Length"), r.body)
		}
		got := r.body
		if key != "" {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(r.body, &obj); err != nil {
				t.Fatal(err)
			}
			got = append(obj[key], '\n')
		}
		if want := e.do("GET", "/v1/sessions/s", nil).body; string(got) != string(want) {
			t.Fatalf("the answer's session is not the stored one:\n%.300s\nwant\n%.300s", got, want)
		}
	}
	streamed(e.do("POST", "/v1/sessions/import", apiSession("s", 40)), 201, "")
	e.llm.SetDefault(fakellm.Answer(fakellm.Text(summaryText)))
	e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	streamed(e.do("POST", "/v1/sessions/s/revisions/1/undo", nil), 200, "session")
	streamed(e.do("POST", "/v1/sessions/s/revisions/1/restore", nil), 200, "session")
}
