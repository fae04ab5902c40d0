package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"kompact"
)

// floodLLM reports n deltas of size bytes each as fast as it can, then
// answers with a summary; done is closed when it returned.
type floodLLM struct {
	n, size int
	done    chan struct{}
}

func (l floodLLM) Complete(ctx context.Context, _ kompact.RequestConfig, _ []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	defer close(l.done)
	delta := strings.Repeat("d", l.size)
	for i := 1; i <= l.n; i++ {
		if err := ctx.Err(); err != nil {
			return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "cancelled: %v", err)
		}
		progress(kompact.Progress{Chars: i * l.size, Delta: delta})
	}
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart("summary")}}, nil
}

// TestSSEClientThatNeverReads: a client that asks for events and never
// reads them is cut off once the progress it has not received passes the
// buffer; the action still runs to its end and is committed, and its slot
// is free again (issue 21, item 2).
func TestSSEClientThatNeverReads(t *testing.T) {
	llm := floodLLM{n: 400, size: 64 << 10, done: make(chan struct{})} // 25 MiB of progress text
	s, ts, store := newServerOnS(t, llm, Limits{MaxActions: 1})
	s.sseBuffer = 256 << 10
	s.heartbeat = time.Hour

	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A small receive window, so that the server's writes block soon.
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	_, err = io.WriteString(c, "POST /v1/sessions/s/actions/compact_conversation HTTP/1.1\r\nHost: "+ts.Listener.Addr().String()+
		"\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-llm.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the LLM's progress was held up by the client that does not read")
	}
	// The action committed, as it would have without the client.
	deadline := time.Now().Add(10 * time.Second)
	for {
		revs, err := store.ListRevisions(context.Background(), "s")
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no compaction committed: %d revisions", len(revs))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The handler returned: its slot is free for the next action.
	for i := 0; ; i++ {
		r, err := ts.Client().Post(ts.URL+"/v1/sessions/s/actions/compact_conversation", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusTooManyRequests {
			break
		}
		if i == 200 {
			t.Fatal("the slot of the cut-off stream is still taken")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
