package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
)

// TestGatewayLongClientConversationName: a client's own name of its
// conversation (here opencode's X-Session-Affinity) longer than a session
// id may be goes into the conversation key as its SHA-256, so that the
// key stays short whatever the header holds: the same name still finds
// its conversation (after opencode compacted on its side too), two names
// that differ only in their last byte are two conversations, and the
// sessions get ids of their own.
func TestGatewayLongClientConversationName(t *testing.T) {
	store := testserver.SQLite(t)
	srv := newGatewayServer(t, store, apitest.NewFakeUpstream(t), 0)
	long := strings.Repeat("x", 64<<10)
	a, b := long+"a", long+"b"
	sys, u1 := msgJSON("system", "You are a coding agent."), msgJSON("user", "hi")
	first := ocBody(chatTools, sys, u1)
	sa := postChat(t, srv.URL, opencodeHeaders(a), first)
	sb := postChat(t, srv.URL, opencodeHeaders(b), first)
	if sa == "" || sb == "" || sa == sb {
		t.Fatalf("two long opencode session names went to sessions %q and %q, want two sessions", sa, sb)
	}
	// opencode compacted session a on its own side: its key still finds it.
	after := postChat(t, srv.URL, opencodeHeaders(a), ocBody(chatTools, sys, msgJSON("user", "What was done so far?"), msgJSON("assistant", "We said hi."), msgJSON("user", "next")))
	if listed := listSessions(t, srv.URL, ""); listed[after].ContinuedFrom != sa {
		t.Errorf("after opencode's compaction the turn went to %q (%+v), want a session that continues %s", after, listed[after], sa)
	}
	var gs kompact.GatewayStore = store
	for _, id := range []string{sa, sb, after} {
		rec, err := gs.GetGatewayRecord(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Key) > 2*kompact.MaxSessionIDLen || len(id) > kompact.MaxSessionIDLen {
			t.Errorf("session %.40q… is kept under a key of %d bytes, want at most %d", id, len(rec.Key), 2*kompact.MaxSessionIDLen)
		}
	}
}

// TestServerRefusesLargeHeader: a request whose header is larger than
// httpapi.MaxHeaderBytes is refused with 431 before any handler runs; one
// just within it is answered.
func TestServerRefusesLargeHeader(t *testing.T) {
	srv := httpapi.New(httpapi.Config{Store: testserver.SQLite(t)})
	addr, stop := serveLoopback(t, srv)
	defer stop()
	for _, tc := range []struct {
		size int
		want int
	}{{httpapi.MaxHeaderBytes / 2, http.StatusOK}, {httpapi.MaxHeaderBytes + 4096, http.StatusRequestHeaderFieldsTooLarge}} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+addr+"/v1/health", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Padding", strings.Repeat("p", tc.size))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("a %d-byte header: %d, want %d", tc.size, resp.StatusCode, tc.want)
		}
	}
}
