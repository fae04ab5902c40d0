package httpapi

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestActionCap: with --max-actions 1, a second action while one runs is
// 429 busy with Retry-After; once the first is done, actions run again
// (issue 9, item 2); a dry run still answers.
func TestActionCap(t *testing.T) {
	s, ts, llm := newGatedServer(t, Limits{MaxActions: 1})
	s.heartbeat = time.Hour
	resp := compactStream(t, ts, "text/event-stream", "")
	// The first progress event: the action holds its slot.
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "event: progress\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	for path, body := range map[string]string{"/v1/sessions/s/actions/compact_conversation": `{}`, "/v1/sessions/s/continue": `{"content":"x"}`} {
		r, err := ts.Client().Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), `"code":"busy"`) {
			t.Fatalf("%s while an action runs: %d Retry-After %q %s", path, r.StatusCode, r.Header.Get("Retry-After"), body)
		}
	}
	// A dry run makes no LLM call and takes no slot (issue 21, item 3).
	if r, err := ts.Client().Post(ts.URL+"/v1/sessions/s/actions/compact_conversation", "application/json", strings.NewReader(`{"dry_run":true}`)); err != nil || r.StatusCode != 200 {
		t.Fatalf("dry run while an action runs: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	// Reads are not actions.
	if r, err := ts.Client().Get(ts.URL + "/v1/sessions/s"); err != nil || r.StatusCode != 200 {
		t.Fatalf("GET while an action runs: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	close(llm.gate)
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// The slot is free again (the handler returns right after the body
	// ends; poll briefly for it).
	for i := 0; ; i++ {
		r, err := ts.Client().Post(ts.URL+"/v1/sessions/s/actions/compact_conversation", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode == 200 {
			break
		}
		if i == 100 {
			t.Fatalf("status %d after the first action ended", r.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := cap(newGuard(Limits{}).actions); got != DefaultMaxActions() || got < 2 {
		t.Errorf("default cap %d, want %d", got, DefaultMaxActions())
	}
}

// TestSlowBodyIsCutOff: a client that sends headers and then trickles
// (or never sends) its body is answered and its connection freed once the
// body deadline passes (issue 9, item 2).
func TestSlowBodyIsCutOff(t *testing.T) {
	s, ts, _ := newGatedServer(t, Limits{})
	s.guard.bodyTimeout = 200 * time.Millisecond
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				errs <- err.Error()
				return
			}
			defer c.Close()
			_, _ = io.WriteString(c, "POST /v1/sessions HTTP/1.1\r\nHost: "+ts.Listener.Addr().String()+
				"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"id\":")
			// Far longer than the deadline: without one, the server waits
			// for the body forever and this read times out.
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			got, err := io.ReadAll(c)
			if err != nil {
				errs <- "no answer: " + err.Error()
				return
			}
			if !strings.HasPrefix(string(got), "HTTP/1.1 400") || !strings.Contains(string(got), "did not arrive within 200ms") {
				errs <- "answer: " + string(got)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestEventsOutliveTheBodyDeadline: the body deadline ends with the body;
// a Server-Sent Events stream that lasts far longer keeps its heartbeats
// and ends with its outcome (issue 9, item 2).
func TestEventsOutliveTheBodyDeadline(t *testing.T) {
	s, ts, llm := newGatedServer(t, Limits{})
	s.guard.bodyTimeout = 50 * time.Millisecond
	s.heartbeat = 10 * time.Millisecond
	resp := compactStream(t, ts, "text/event-stream", `{"instructions":"keep it short","accept_warnings":true}`)
	start := time.Now()
	// Heartbeats for well past the body deadline.
	got := readThenRelease(t, resp.Body, llm, func(string) bool { return time.Since(start) >= 400*time.Millisecond })
	if !strings.Contains(got, "event: outcome\ndata: {\"status\":\"compacted\"") {
		t.Fatalf("no compacted outcome:\n%s", got)
	}
}

// TestSessionLocationIsEncoded: Location paths are percent-encoded.
func TestSessionLocationIsEncoded(t *testing.T) {
	for id, want := range map[string]string{
		"s1":        "/v1/sessions/s1",
		"a:b.c":     "/v1/sessions/a:b.c",
		"a b/c?d#e": "/v1/sessions/a%20b%2Fc%3Fd%23e",
		"..":        "/v1/sessions/..",
		"\r\nX: y":  "/v1/sessions/%0D%0AX:%20y",
	} {
		if got := sessionLocation(id); got != want {
			t.Errorf("sessionLocation(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestDeclaredBodyTooLarge: a Content-Length above --max-body is refused
// with 413 at once, without waiting for the body (issue 21, item 8).
func TestDeclaredBodyTooLarge(t *testing.T) {
	s, ts, _ := newGatedServer(t, Limits{})
	s.maxBody = 1 << 10
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "POST /v1/sessions HTTP/1.1\r\nHost: "+ts.Listener.Addr().String()+
		"\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{\"id\":")
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 413") {
		t.Fatalf("answer %q, %v; want 413 before the body", line, err)
	}
}
