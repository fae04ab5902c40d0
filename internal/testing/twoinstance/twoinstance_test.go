// Package twoinstance holds the two-instance test (issue 10 §3): two
// `kompact serve` processes over one PostgreSQL database, with a slow
// streaming fake LLM, appends, competing compactions, a preview made on one
// and applied on the other, and a kill -9 of one instance mid-commit; and
// the gateway's kill test (gateway_test.go, issue 22 §4 and §5).
package twoinstance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
)

// instance is a running `kompact serve`.
type instance struct {
	name string
	cmd  *exec.Cmd
	base string
	log  *bytes.Buffer
	mu   *sync.Mutex
	done chan struct{}
}

func (in *instance) logs() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.log.String()
}

// start runs bin serve on a free loopback port over db and waits until it
// listens.
func start(t *testing.T, name, bin, db, cfg string) *instance {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--config", cfg)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in := &instance{name: name, cmd: cmd, log: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "kompact serving http://"); ok {
				a, _, _ := strings.Cut(rest, " ")
				addr <- a
			}
			in.mu.Lock()
			in.log.WriteString(line + "\n")
			in.mu.Unlock()
		}
	}()
	go func() { _ = cmd.Wait(); close(in.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-in.done
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, in.logs())
		}
	})
	select {
	case a := <-addr:
		in.base = "http://" + a
	case <-in.done:
		t.Fatalf("%s ended before listening:\n%s", name, in.logs())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not listen within 30 s:\n%s", name, in.logs())
	}
	return in
}

var client = &http.Client{Timeout: 60 * time.Second}

// call sends a JSON request and returns the status and decoded body.
func (in *instance) call(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, in.base+path, rd)
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, map[string]any{"transport_error": err.Error()}
	}
	defer resp.Body.Close()
	var out map[string]any
	data, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(data, &out)
	return resp.StatusCode, out
}

func (in *instance) must(t *testing.T, want int, method, path string, body any) map[string]any {
	t.Helper()
	status, out := in.call(t, method, path, body)
	if status != want {
		t.Fatalf("%s %s %s: %d, want %d: %v", in.name, method, path, status, want, out)
	}
	return out
}

// slow is an answer that streams for about chunks × delay.
func slow(text string, chunks int, delay time.Duration) fakellm.Reply {
	items := make([]fakellm.Item, chunks)
	for i := range items {
		items[i] = fakellm.Text(fmt.Sprintf("%s %d ", text, i))
	}
	r := fakellm.Answer(items...)
	r.ChunkDelay = delay
	return r
}

// appendAll appends perClient messages through in for each of clients
// concurrent clients (ids c<k>-<i>, in order per client), and returns the
// ids each client had acknowledged (201).
func appendAll(t *testing.T, in *instance, sid, prefix string, clients, perClient int, pause time.Duration) [][]string {
	acked := make([][]string, clients)
	var wg sync.WaitGroup
	for k := range clients {
		wg.Go(func() {
			for i := range perClient {
				id := fmt.Sprintf("%sc%d-%d", prefix, k, i)
				status, _ := in.call(t, "POST", "/v1/sessions/"+sid+"/messages",
					map[string]any{"message": map[string]any{"id": id, "role": "user", "content": "from client " + id}})
				if status == http.StatusCreated {
					acked[k] = append(acked[k], id)
				}
				time.Sleep(pause)
			}
		})
	}
	wg.Wait()
	return acked
}

// ids returns the positions of the messages' ids, and fails on an id
// that appears twice.
func ids(t *testing.T, msgs []any) map[string]int {
	t.Helper()
	pos := map[string]int{}
	for i, m := range msgs {
		id, _ := m.(map[string]any)["id"].(string)
		if _, dup := pos[id]; dup {
			t.Errorf("message id %q appears twice", id)
		}
		pos[id] = i
	}
	return pos
}

// checkAppended checks that every acknowledged id is in msgs exactly once,
// each client's in its order, and that no id appears twice. An id that a
// committed compaction summarised is instead in summarised (the message
// list just before that compaction, which its revision keeps).
func checkAppended(t *testing.T, msgs []any, acked [][]string, summarised []any) {
	t.Helper()
	pos, before := ids(t, msgs), ids(t, summarised)
	for k, ids := range acked {
		last := -1
		for _, id := range ids {
			p, ok := pos[id]
			if !ok {
				if _, ok := before[id]; !ok {
					t.Errorf("acknowledged append %s is missing", id)
				}
				continue
			}
			if p <= last {
				t.Errorf("client %d's %s is out of order", k, id)
			}
			last = p
		}
	}
}

func TestTwoInstancesOneDatabase(t *testing.T) {
	db := testenv.PostgresSchema(t)
	dir := t.TempDir()
	bin := kompactBinary(t)
	llm := fakellm.New(t)
	cfg := filepath.Join(dir, "agents.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, testserver.Agents, llm.URL(), llm.URL()), 0o600); err != nil {
		t.Fatal(err)
	}
	a := start(t, "A", bin, db, cfg)
	b := start(t, "B", bin, db, cfg)
	a.must(t, 201, "POST", "/v1/sessions/import", testserver.Session("s", 20))

	// A compaction runs on A; a second one starts on B while it runs; 10
	// clients append 100 messages through B meanwhile.
	requests := func() int { return len(llm.Requests()) }
	llm.Enqueue(slow("summary from A", 20, 100*time.Millisecond), slow("summary from B", 20, 100*time.Millisecond))
	outcomes := make(chan [2]any, 2)
	compact := func(in *instance) {
		status, out := in.call(t, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"accept_warnings": true})
		outcomes <- [2]any{in.name, [2]any{status, out}}
	}
	waitRequests := func(n int) {
		for i := 0; requests() < n; i++ {
			if i > 300 {
				t.Fatalf("the LLM has %d requests, want %d", requests(), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	go compact(a)
	waitRequests(1)
	var acked [][]string
	appended := make(chan struct{})
	go func() {
		acked = appendAll(t, b, "s", "p1", 10, 10, 0)
		close(appended)
	}()
	go compact(b)
	waitRequests(2)
	<-appended
	committed, conflicted := 0, 0
	for range 2 {
		o := <-outcomes
		res := o[1].([2]any)
		status, out := res[0].(int), res[1].(map[string]any)
		switch {
		case status == 200 && out["status"] == "compacted":
			committed++
		case status == 409 && out["error"].(map[string]any)["code"] == "conflict":
			conflicted++
		default:
			t.Errorf("compaction on %s: %d %v", o[0], status, out)
		}
	}
	if committed != 1 || conflicted != 1 {
		t.Fatalf("%d compactions committed and %d conflicted, want 1 and 1", committed, conflicted)
	}
	n := 0
	for _, ids := range acked {
		n += len(ids)
	}
	if n != 100 {
		t.Fatalf("%d appends acknowledged, want 100", n)
	}
	got := b.must(t, 200, "GET", "/v1/sessions/s", nil)
	checkAppended(t, got["messages"].([]any), acked, nil)
	if t.Failed() {
		t.FailNow()
	}

	// A preview made on A is applied on B.
	llm.Enqueue(fakellm.Answer(fakellm.Text("previewed on A")))
	pv := a.must(t, 200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"preview": true})
	applied := b.must(t, 200, "POST", "/v1/sessions/s/previews/"+pv["preview_id"].(string)+"/apply", map[string]any{})
	if applied["status"] != "compacted" || !strings.Contains(applied["result"].(map[string]any)["summary"].(string), "previewed on A") {
		t.Fatalf("the preview applied on B: %v", applied)
	}
	got = b.must(t, 200, "GET", "/v1/sessions/s", nil)
	checkAppended(t, got["messages"].([]any), acked, b.must(t, 200, "GET", "/v1/sessions/s/revisions/2", nil)["before"].([]any))

	// kill -9 A mid-commit: A's LLM answer ends, and A is killed about
	// when it commits, while clients append through B.
	// First a few turns, so that A has more than the earlier summary to
	// compact (a range of just a summary is a no-op, with no LLM call).
	for i := range 6 {
		role := map[bool]string{true: "user", false: "assistant"}[i%2 == 0]
		b.must(t, 201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{"id": fmt.Sprint("turn", i), "role": role, "content": "turn " + fmt.Sprint(i)}})
	}
	revsBefore := len(b.must(t, 200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any))
	llm.SetFunc(func(fakellm.Request) fakellm.Reply {
		go func() {
			time.Sleep(5*20*time.Millisecond + 2*time.Millisecond)
			_ = a.cmd.Process.Kill()
		}()
		return slow("summary before the kill", 5, 20*time.Millisecond)
	})
	go func() {
		status, out := a.call(t, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{"accept_warnings": true})
		outcomes <- [2]any{"A", [2]any{status, out}}
	}()
	acked2 := appendAll(t, b, "s", "p3", 10, 10, 10*time.Millisecond)
	// A's compaction ends (without an answer when A died before sending
	// one; the kill may also land just after), and A's process ends.
	select {
	case <-outcomes:
	case <-time.After(60 * time.Second):
		t.Fatal("A's compaction did not end within 60 s")
	}
	select {
	case <-a.done:
	case <-time.After(60 * time.Second):
		t.Fatal("A was not killed within 60 s")
	}
	got = b.must(t, 200, "GET", "/v1/sessions/s", nil)
	msgs := got["messages"].([]any)
	revs := b.must(t, 200, "GET", "/v1/sessions/s/revisions", nil)["revisions"].([]any)
	summarised := strings.Contains(fmt.Sprint(msgs), "summary before the kill")
	var before []any
	if summarised {
		before = b.must(t, 200, "GET", fmt.Sprintf("/v1/sessions/s/revisions/%d", len(revs)), nil)["before"].([]any)
	}
	checkAppended(t, msgs, acked2, before)
	if want := revsBefore + map[bool]int{true: 1, false: 0}[summarised]; len(revs) != want {
		t.Errorf("%d revisions after the kill (summary committed: %v), want %d", len(revs), summarised, want)
	}
	for _, r := range revs {
		rev := r.(map[string]any)
		b.must(t, 200, "GET", fmt.Sprintf("/v1/sessions/s/revisions/%v", rev["rev"]), nil)
	}
	if info := b.must(t, 200, "GET", "/v1/sessions", nil); !strings.Contains(fmt.Sprint(info), fmt.Sprintf("version:%v", got["version"])) {
		t.Errorf("the listing's version differs from the session's %v: %v", got["version"], info)
	}
	// B goes on: an append after the kill works.
	b.must(t, 201, "POST", "/v1/sessions/s/messages", map[string]any{"message": map[string]any{"id": "after-kill", "role": "user", "content": "still here"}})
	t.Logf("after the kill: %d messages, version %v, summary committed: %v", len(msgs), got["version"], summarised)
}
