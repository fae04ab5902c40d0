package twoinstance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
)

// The gateway's kill test (issue 22 §4 and §5): two `kompact serve`
// processes over one PostgreSQL serve one gateway conversation, and
// instances are killed with SIGKILL mid-compaction, between turns and while
// relaying a stream. The client re-sends its history after every failure,
// as chat-completions clients do; the session must hold every message it
// sent, once, and carry on.

// The gateway's agents file (testserver.GatewayAgents) has no precompute
// and compactions bounded by compactionTimeout, so that a dead instance's
// lease (leaseFor: the timeout and 5 s) runs out quickly.
const (
	compactionTimeout = 3 * time.Second
	leaseFor          = compactionTimeout + 5*time.Second
)

// summaryMark is in the fake's summary, so that the forwarded summary can
// be found.
const summaryMark = "summary-of-the-killed-conversation"

// gatewayFake is the upstream: chat requests are answered "reply N" with
// usage (len(body)/4 prompt tokens), slowly streamed when slow is set;
// compaction requests (compact-model) with a summary that names the
// request. With hold set, the next compaction request is announced on held
// and its answer waits until release is closed; afterAnswer, when set, is
// called once, a moment after the next compaction answer went out.
type gatewayFake struct {
	llm         *fakellm.Server
	mu          sync.Mutex
	hold        bool
	slow        bool
	afterAnswer func()
	held        chan struct{}
	release     chan struct{}
}

func newGatewayFake(t *testing.T) *gatewayFake {
	f := &gatewayFake{llm: fakellm.New(t), held: make(chan struct{}, 1), release: make(chan struct{})}
	f.llm.SetFunc(f.reply)
	return f
}

func (f *gatewayFake) reply(req fakellm.Request) fakellm.Reply {
	usage := fakellm.Usage{PromptTokens: int64(len(req.Body) / 4), CompletionTokens: 5}
	f.mu.Lock()
	hold, slow, after := f.hold, f.slow, f.afterAnswer
	if req.Model() == "compact-model" {
		f.hold, f.afterAnswer = false, nil
	}
	f.mu.Unlock()
	if req.Model() == "compact-model" {
		if hold {
			f.held <- struct{}{}
			<-f.release
		}
		if after != nil {
			time.AfterFunc(afterAnswerDelay, after)
		}
		return fakellm.Answer(fakellm.Text(fmt.Sprintf("<current_focus>the kill test</current_focus>\n<environment>two instances</environment>\n<completed_tasks>the old turns</completed_tasks>\n"+
			"<active_issues>none</active_issues>\n<code_state>none</code_state>\n<important_context>%s %d</important_context>", summaryMark, req.Seq))).WithUsage(usage)
	}
	text := fmt.Sprintf("reply %d", req.Seq)
	if !slow {
		return fakellm.Answer(fakellm.Text(text)).WithUsage(usage)
	}
	r := slow20(text)
	return r.WithUsage(usage)
}

// slow20 streams text as 20 chunks, 100 ms apart.
func slow20(text string) fakellm.Reply {
	items := []fakellm.Item{fakellm.Text(text)}
	for range 19 {
		items = append(items, fakellm.Text("."))
	}
	r := fakellm.Answer(items...)
	r.ChunkDelay = 100 * time.Millisecond
	return r
}

func (f *gatewayFake) set(hold, slow bool) {
	f.mu.Lock()
	f.hold, f.slow = hold, slow
	f.mu.Unlock()
}

// compactions counts the compaction requests so far.
func (f *gatewayFake) compactions() int {
	n := 0
	for _, r := range f.llm.Requests() {
		if r.Model() == "compact-model" {
			n++
		}
	}
	return n
}

// lastChat returns the messages of the last chat request, raw.
func (f *gatewayFake) lastChat(t *testing.T) []json.RawMessage {
	t.Helper()
	reqs := f.llm.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Model() == "chat-model" {
			var body struct {
				Messages []json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(reqs[i].Body, &body); err != nil {
				t.Fatal(err)
			}
			return body.Messages
		}
	}
	t.Fatal("no chat request")
	return nil
}

// wireMessage is a message as the client sends it.
type wireMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// killConversation is the client: its history, re-sent whole every turn.
type killConversation struct {
	msgs []wireMessage
}

// add appends turn i's user message, about 2000 characters.
func (cv *killConversation) add(i int) {
	cv.msgs = append(cv.msgs, wireMessage{"user", fmt.Sprintf("turn %d: %s", i, strings.Repeat(fmt.Sprintf("word-%02d ", i), 250))})
}

func (cv *killConversation) body(stream bool) []byte {
	b, _ := json.Marshal(map[string]any{"model": "chat-model", "messages": cv.msgs, "stream": stream})
	return b
}

// gatewayAnswer is what the client got for one request.
type gatewayAnswer struct {
	status int
	header http.Header
	text   string
	err    error
}

var gatewayClient = &http.Client{Timeout: 30 * time.Second}

// chat posts body to in's gateway as conversation kill-conv and reads the
// answer; a stream is read to its [DONE], and firstEvent, when not nil, is
// called once its first content has come.
func chat(in *instance, body []byte, firstEvent func()) gatewayAnswer {
	req, err := http.NewRequest("POST", in.base+"/gateway/gw/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return gatewayAnswer{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Kompact-Session", "kill-conv")
	resp, err := gatewayClient.Do(req)
	if err != nil {
		return gatewayAnswer{err: err}
	}
	defer resp.Body.Close()
	a := gatewayAnswer{status: resp.StatusCode, header: resp.Header}
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		a.text, a.err = readStream(resp.Body, firstEvent)
		return a
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		a.err = err
		return a
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) != 1 {
		a.err = fmt.Errorf("answer %d %s", resp.StatusCode, data)
		return a
	}
	a.text = out.Choices[0].Message.Content
	return a
}

// readStream reads a chat-completions stream's content up to [DONE].
func readStream(r io.Reader, firstEvent func()) (string, error) {
	br := bufio.NewReader(r)
	var text strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return text.String(), fmt.Errorf("the stream broke off: %w", err)
		}
		data, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			return text.String(), nil
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return text.String(), err
		}
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
		}
		if firstEvent != nil && text.Len() > 0 {
			firstEvent()
			firstEvent = nil
		}
	}
}

// kill kills in with SIGKILL and waits until it is gone.
func kill(t *testing.T, in *instance) {
	t.Helper()
	_ = in.cmd.Process.Kill()
	select {
	case <-in.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s was not killed within 10 s", in.name)
	}
}

// gatewayCluster is the two instances, one of which may be being
// restarted.
type gatewayCluster struct {
	t            *testing.T
	bin, db, cfg string
	in           [2]*instance
	restarts     int
}

// restart starts instance k again after it was killed.
func (c *gatewayCluster) restart(k int) {
	c.restarts++
	c.in[k] = start(c.t, fmt.Sprintf("%s%d", c.in[k].name[:1], c.restarts), c.bin, c.db, c.cfg)
}

// must sends the conversation to instance k and fails unless the answer
// came whole for session kill-conv; it adds the answer to the history.
func (c *gatewayCluster) must(cv *killConversation, k int, stream bool) gatewayAnswer {
	c.t.Helper()
	a := chat(c.in[k], cv.body(stream), nil)
	c.answered(cv, k, a)
	return a
}

// answered checks that a is a whole answer of session kill-conv and adds
// it to the history.
func (c *gatewayCluster) answered(cv *killConversation, k int, a gatewayAnswer) {
	c.t.Helper()
	if a.err != nil || a.status != 200 || !strings.HasPrefix(a.text, "reply ") {
		c.t.Fatalf("turn %d on %s: %d %q %v", len(cv.msgs), c.in[k].name, a.status, a.text, a.err)
	}
	if got := a.header.Get("X-Kompact-Session"); got != "kill-conv" {
		c.t.Fatalf("turn %d on %s: session %q, want kill-conv", len(cv.msgs), c.in[k].name, got)
	}
	cv.msgs = append(cv.msgs, wireMessage{"assistant", a.text})
}

// checkStored checks, on instance k, that session kill-conv is the only
// session and holds the client's messages [0:n]: each g_i, with the
// client's text, once in the session or in the message list a revision
// kept, in order, none twice in one list and none beyond n. It returns the
// session's revisions.
func (c *gatewayCluster) checkStored(cv *killConversation, k, n int) []map[string]any {
	t := c.t
	t.Helper()
	in := c.in[k]
	if list := in.must(t, 200, "GET", "/v1/sessions", nil)["sessions"].([]any); len(list) != 1 ||
		list[0].(map[string]any)["id"] != "kill-conv" || list[0].(map[string]any)["gateway"] != true {
		t.Fatalf("sessions: %v", list)
	}
	lists := [][]any{in.must(t, 200, "GET", "/v1/sessions/kill-conv", nil)["messages"].([]any)}
	var revs []map[string]any
	for _, r := range in.must(t, 200, "GET", "/v1/sessions/kill-conv/revisions", nil)["revisions"].([]any) {
		rev := in.must(t, 200, "GET", fmt.Sprintf("/v1/sessions/kill-conv/revisions/%v", r.(map[string]any)["rev"]), nil)
		revs = append(revs, rev)
		lists = append(lists, rev["before"].([]any))
	}
	seen := make([]bool, n)
	for l, msgs := range lists {
		last := -1
		for _, m := range msgs {
			id, _ := m.(map[string]any)["id"].(string)
			var i int
			if _, err := fmt.Sscanf(id, "g_%d", &i); err != nil {
				continue // the summary
			}
			switch {
			case i >= n:
				t.Errorf("list %d holds %s, beyond the client's %d messages", l, id, n)
				continue
			case i <= last:
				t.Errorf("list %d holds %s after g_%d", l, id, last)
			}
			last, seen[i] = i, true
			data, _ := json.Marshal(m)
			if !strings.Contains(string(data), cv.msgs[i].Content) {
				t.Errorf("%s is not the client's message %d: %s", id, i, data)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("the client's message %d (g_%d) is lost", i, i)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return revs
}

// autoCompactions counts the auto_compaction revisions.
func autoCompactions(revs []map[string]any) int {
	n := 0
	for _, r := range revs {
		if r["kind"] == "auto_compaction" {
			n++
		}
	}
	return n
}

// summaryPrefix returns the forwarded messages up to the summary's, raw;
// nil when there is no summary.
func summaryPrefix(msgs []json.RawMessage) []byte {
	for i, m := range msgs {
		if bytes.Contains(m, []byte(summaryMark)) {
			b, _ := json.Marshal(msgs[:i+1])
			return b
		}
	}
	return nil
}

// TestGatewayKill: a kill -9 of an instance at any moment of a gateway
// turn loses nothing the client has not got again (issue 22 §4), and two
// instances serve one conversation (§5).
func TestGatewayKill(t *testing.T) {
	db := testenv.PostgresSchema(t)
	dir := t.TempDir()
	f := newGatewayFake(t)
	cfg := filepath.Join(dir, "agents.yaml")
	if err := os.WriteFile(cfg, []byte(testserver.GatewayAgents(f.llm.URL(), testserver.Gateway{Auto: true, Timeout: compactionTimeout})), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &gatewayCluster{t: t, bin: kompactBinary(t), db: db, cfg: cfg}
	c.in = [2]*instance{start(t, "A", c.bin, db, cfg), start(t, "B", c.bin, db, cfg)}
	cv := &killConversation{msgs: []wireMessage{{"system", "You are the kill test's agent."}}}

	k, killedAt := c.killMidCompaction(cv, f)
	prefix := c.compactAfterLease(cv, f, k, killedAt)
	c.killAfterAnswer(cv, k)
	c.killMidStream(cv, f, 1-k)
	c.killAtCommit(cv, f, k, prefix)
	if revs := c.checkStored(cv, 0, len(cv.msgs)-1); autoCompactions(revs) != 2 {
		t.Errorf("%d auto_compaction revisions at the end, want 2", autoCompactions(revs))
	}
}

// killMidCompaction drives turns, alternating the instances, until one
// compacts; it is killed while the compaction's LLM call runs. The client
// re-sends to the other instance, which answers within the wait for the
// dead instance's lease. It returns the surviving instance and when the
// compaction's LLM call came (after its lease was taken).
func (c *gatewayCluster) killMidCompaction(cv *killConversation, f *gatewayFake) (int, time.Time) {
	t := c.t
	f.set(true, false)
	for i := 1; i <= 20; i++ {
		cv.add(i)
		k := i % 2
		got := make(chan gatewayAnswer, 1)
		body := cv.body(false)
		go func() { got <- chat(c.in[k], body, nil) }()
		select {
		case a := <-got:
			c.answered(cv, k, a)
			continue
		case <-f.held:
		}
		heldAt := time.Now()
		kill(t, c.in[k])
		close(f.release)
		if a := <-got; a.err == nil {
			t.Fatalf("turn %d: %s answered %d %q after it was killed", i, c.in[k].name, a.status, a.text)
		}
		c.checkStored(cv, 1-k, len(cv.msgs)) // the killed turn's user message was stored
		start := time.Now()
		a := c.must(cv, 1-k, false)
		waited := time.Since(start)
		if waited > compactionTimeout+2*time.Second {
			t.Errorf("the re-sent turn %d waited %s, more than compaction.timeout", i, waited)
		}
		t.Logf("turn %d: %s killed mid-compaction; re-sent to %s: %s after %s", i, c.in[k].name, c.in[1-k].name, a.header.Get("X-Kompact-Forwarded"), waited)
		c.checkStored(cv, 1-k, len(cv.msgs)-1)
		c.restart(k)
		return 1 - k, heldAt
	}
	t.Fatal("no compaction within 20 turns")
	return 0, time.Time{}
}

// compactAfterLease waits until the dead instance's lease has run out,
// then drives turns on both instances: the first compacts (one
// auto_compaction revision, one more compaction call), and every turn
// forwards the same summary prefix, byte for byte. It returns the prefix.
func (c *gatewayCluster) compactAfterLease(cv *killConversation, f *gatewayFake, k int, heldAt time.Time) []byte {
	t := c.t
	time.Sleep(time.Until(heldAt.Add(leaseFor + 200*time.Millisecond)))
	calls := f.compactions()
	var prefix []byte
	for j := range 4 {
		cv.add(100 + j)
		on := (k + j) % 2
		a := c.must(cv, on, j%2 == 1)
		if got := a.header.Get("X-Kompact-Forwarded"); got != "compacted" {
			t.Fatalf("turn %d on %s after the lease: forwarded %q, want compacted", len(cv.msgs)-1, c.in[on].name, got)
		}
		fwd := f.lastChat(t)
		p := summaryPrefix(fwd)
		switch {
		case p == nil:
			t.Fatalf("turn %d: no summary forwarded", len(cv.msgs)-1)
		case prefix == nil:
			prefix = p
			if len(fwd) >= len(cv.msgs)-1 {
				t.Errorf("the compacted turn forwarded %d messages of the client's %d", len(fwd), len(cv.msgs)-1)
			}
		case !bytes.Equal(p, prefix):
			t.Fatalf("turn %d on %s: the forwarded prefix changed:\n%s\nwas\n%s", len(cv.msgs)-1, c.in[on].name, p, prefix)
		}
	}
	if n := f.compactions() - calls; n != 1 {
		t.Errorf("%d compaction calls after the lease ran out, want 1", n)
	}
	if revs := c.checkStored(cv, 0, len(cv.msgs)-1); autoCompactions(revs) != 1 {
		t.Errorf("%d auto_compaction revisions, want 1", autoCompactions(revs))
	}
	return prefix
}

// killAfterAnswer kills instance k as soon as the client has its answer;
// the client re-sends the same request to the other instance (nothing is
// stored twice), then goes on there.
func (c *gatewayCluster) killAfterAnswer(cv *killConversation, k int) {
	cv.add(200)
	body := cv.body(false)
	c.must(cv, k, false)
	kill(c.t, c.in[k])
	again := chat(c.in[1-k], body, nil)
	cv.msgs = cv.msgs[:len(cv.msgs)-1]
	c.answered(cv, 1-k, again)
	c.checkStored(cv, 1-k, len(cv.msgs)-1)
	cv.add(201)
	c.must(cv, 1-k, false)
	c.checkStored(cv, 1-k, len(cv.msgs)-1)
	c.restart(k)
}

// killMidStream kills instance k while it relays a slow stream; the client
// re-sends to the other instance, which answers in full and continues the
// session.
func (c *gatewayCluster) killMidStream(cv *killConversation, f *gatewayFake, k int) {
	t := c.t
	cv.add(300)
	f.set(false, true)
	a := chat(c.in[k], cv.body(true), func() { kill(t, c.in[k]) })
	f.set(false, false)
	if a.err == nil || !errors.Is(a.err, io.ErrUnexpectedEOF) && !strings.Contains(a.err.Error(), "broke off") {
		t.Fatalf("the stream of a killed %s: %d %q %v", c.in[k].name, a.status, a.text, a.err)
	}
	if a.header.Get("X-Kompact-Session") != "kill-conv" || !strings.HasPrefix(a.text, "reply ") {
		t.Fatalf("the stream before the kill: %v %q", a.header, a.text)
	}
	c.checkStored(cv, 1-k, len(cv.msgs))
	c.must(cv, 1-k, true)
	c.restart(k)
	cv.add(301)
	c.must(cv, k, true)
	c.checkStored(cv, k, len(cv.msgs)-1)
}

// afterAnswerDelay is how long after its compaction answer went out
// killAtCommit kills an instance: about when it commits the compaction.
const afterAnswerDelay = 5 * time.Millisecond

// killAtCommit drives turns, alternating from instance k, until the
// session is due again; the instance compacting is killed just after its
// compaction answer went out, about when it commits. Whether the commit
// landed or not (or the answer even came before the kill), the client
// re-sends to the other instance, nothing is lost, and the session gets
// exactly one more compaction, whose prefix (not old's) every turn
// forwards from then on.
func (c *gatewayCluster) killAtCommit(cv *killConversation, f *gatewayFake, k int, old []byte) {
	t := c.t
	revs := autoCompactions(c.checkStored(cv, k, len(cv.msgs)-1))
	calls := f.compactions()
	var serving atomic.Pointer[instance]
	f.mu.Lock()
	f.afterAnswer = func() { _ = serving.Load().cmd.Process.Kill() }
	f.mu.Unlock()
	for i := range 20 {
		cv.add(400 + i)
		on := (k + i) % 2
		serving.Store(c.in[on])
		began := time.Now()
		a := chat(c.in[on], cv.body(false), nil)
		if f.compactions() == calls {
			c.answered(cv, on, a)
			continue
		}
		kill(t, c.in[on])
		outcome := "answered before the kill"
		if a.err == nil {
			c.answered(cv, on, a)
		} else {
			outcome = "re-sent: " + c.must(cv, 1-on, false).header.Get("X-Kompact-Forwarded")
		}
		committed := autoCompactions(c.checkStored(cv, 1-on, len(cv.msgs)-1)) - revs
		t.Logf("turn %d: %s killed about its commit: %s; committed: %d", len(cv.msgs)-2, c.in[on].name, outcome, committed)
		if committed == 0 {
			time.Sleep(time.Until(began.Add(leaseFor + 500*time.Millisecond)))
		}
		c.restart(on)
		c.compactedFrom(cv, f, 1-on, old)
		want := calls + 2 - committed
		if got := f.compactions(); got != want {
			t.Errorf("%d compaction calls, want %d", got, want)
		}
		return
	}
	t.Fatal("no second compaction within 20 turns")
}

// compactedFrom drives three turns, alternating from instance k: each is
// forwarded compacted with one prefix, not old.
func (c *gatewayCluster) compactedFrom(cv *killConversation, f *gatewayFake, k int, old []byte) {
	t := c.t
	var prefix []byte
	for j := range 3 {
		cv.add(500 + j)
		on := (k + j) % 2
		a := c.must(cv, on, j == 1)
		p := summaryPrefix(f.lastChat(t))
		switch {
		case a.header.Get("X-Kompact-Forwarded") != "compacted" || p == nil:
			t.Fatalf("turn %d on %s: forwarded %q", len(cv.msgs)-2, c.in[on].name, a.header.Get("X-Kompact-Forwarded"))
		case bytes.Equal(p, old):
			t.Fatalf("turn %d on %s: the first compaction's prefix is still forwarded", len(cv.msgs)-2, c.in[on].name)
		case prefix == nil:
			prefix = p
		case !bytes.Equal(p, prefix):
			t.Fatalf("turn %d on %s: the forwarded prefix changed", len(cv.msgs)-2, c.in[on].name)
		}
	}
}

// kompactBinary builds the kompact command once for the package's tests.
func kompactBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kompact-twoinstance-")
		if err != nil {
			buildErr = err
			return
		}
		buildDir = dir
		bin := filepath.Join(dir, "kompact")
		if out, err := exec.Command("go", "build", "-o", bin, "kompact/cmd/kompact").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		buildBin = bin
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}
