package httpapi_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testserver"
	"kompact/service"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// The gateway's compactions in the server's log (issue 28 §5): the
// compaction before a turn and the precompute log their start and their
// outcome, and the breaker's pause, as text and as JSON lines.

// logGateway serves the gateway (gw's settings) over a fresh store,
// logging at Info, as JSON lines when jsonLogs, into the returned buffer.
func logGateway(t *testing.T, up *apitest.FakeUpstream, gw testserver.Gateway, jsonLogs bool) (*httptest.Server, *testserver.Buffer) {
	t.Helper()
	logs := &testserver.Buffer{}
	var h slog.Handler = slog.NewTextHandler(logs, nil)
	if jsonLogs {
		h = slog.NewJSONHandler(logs, nil)
	}
	return newGatewayServerLogger(t, testserver.SQLite(t), up, gw, httpapi.Limits{}, slog.New(h)), logs
}

// turnsUntilCompacted sends turns of a conversation as session id until
// the gateway forwards one compacted; it returns the session's revision of
// that compaction. After a turn that started a precompute it waits for the
// precompute's call upstream (up), so that the precompute has read the
// session before the next turn, however loaded the machine.
func turnsUntilCompacted(t *testing.T, srv *httptest.Server, up *apitest.FakeUpstream, id string) kompact.RevisionInfo {
	t.Helper()
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", id))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("You are a careful agent.")}}
	for i := 1; i <= 20; i++ {
		if cv.Turn(t, c, i, false).Get(httpapi.HeaderForwarded) != "compacted" {
			// A precompute the turn started reads the session before the next turn.
			apitest.PrecomputeCalling(t, up, srv.URL, id)
			continue
		}
		var revs struct {
			Revisions []kompact.RevisionInfo `json:"revisions"`
		}
		apitest.GetJSON(t, srv.URL, "/v1/sessions/"+id+"/revisions", &revs)
		if len(revs.Revisions) != 1 || revs.Revisions[0].Fidelity == nil {
			t.Fatalf("revisions after the compaction: %+v", revs.Revisions)
		}
		return revs.Revisions[0]
	}
	t.Fatal("the conversation never compacted")
	return kompact.RevisionInfo{}
}

// logWant is a log line a test expects n times.
type logWant struct {
	msg   string
	attrs map[string]string
	n     int
}

// checkLogLines fails t unless logs holds each of wants as often as it says.
func checkLogLines(t *testing.T, logs string, jsonLogs bool, wants []logWant) {
	t.Helper()
	for _, w := range wants {
		if n := countLogLines(t, logs, jsonLogs, w.msg, w.attrs); n != w.n {
			t.Errorf("%d lines %q %v, want %d:\n%s", n, w.msg, w.attrs, w.n, logs)
		}
	}
}

// committedAttrs is what a commit's line of revision rev says besides its
// counts (checkCounts).
func committedAttrs(rev kompact.RevisionInfo, trigger string) map[string]string {
	return map[string]string{"trigger": trigger, "revision": fmt.Sprint(rev.Rev), "recall": fmt.Sprint(rev.Fidelity.Recall)}
}

// checkCounts fails t unless line's counts are those of a compaction that
// read the first read messages of the session: the compacted ones (the
// leading system message with them) and the preserved ones are all of
// them, the replaced ones are the compacted ones but that system message
// (the count a revision's note gives), and the line has an estimate.
func checkCounts(t *testing.T, line map[string]string, read int) {
	t.Helper()
	compacted, _ := strconv.Atoi(line["compacted_messages"])
	replaced, _ := strconv.Atoi(line["replaced_messages"])
	preserved, _ := strconv.Atoi(line["preserved_messages"])
	tokens, _ := strconv.Atoi(line["estimated_token_count"])
	if compacted == 0 || preserved == 0 || compacted+preserved != read || replaced != compacted-1 || tokens <= 0 {
		t.Errorf("line %v: counts not those of a compaction of %d messages", line, read)
	}
}

// TestGatewayCompactionLogLines: the gateway's compaction before a turn
// logs its start and its commit (trigger "gateway", the counts, revision
// and recall); a precompute logs its start and the preview it keeps
// (trigger "precompute", with the counts and recall), and the turn that
// applies it the commit naming that preview; failing compactions log
// their error code, and the third the breaker's pause.
func TestGatewayCompactionLogLines(t *testing.T) {
	for _, jsonLogs := range []bool{false, true} {
		t.Run(fmt.Sprint("json=", jsonLogs), func(t *testing.T) {
			t.Run("gateway", func(t *testing.T) { testGatewayLogCompaction(t, jsonLogs) })
			t.Run("precompute", func(t *testing.T) { testGatewayLogPrecompute(t, jsonLogs) })
			t.Run("failing", func(t *testing.T) { testGatewayLogFailing(t, jsonLogs, 0) })
			t.Run("failing_precompute", func(t *testing.T) { testGatewayLogFailing(t, jsonLogs, 0.8) })
		})
	}
}

func testGatewayLogCompaction(t *testing.T, jsonLogs bool) {
	up := apitest.NewFakeUpstream(t)
	srv, logs := logGateway(t, up, testserver.Gateway{Auto: true}, jsonLogs)
	rev := turnsUntilCompacted(t, srv, up, "logs")
	committed := committedAttrs(rev, "gateway")
	committed["session"] = "logs"
	checkLogLines(t, logs.String(), jsonLogs, []logWant{
		{"compaction started", map[string]string{"trigger": "gateway", "session": "logs"}, 1},
		{"compaction committed", committed, 1},
		{"compaction started", map[string]string{"trigger": "precompute"}, 0},
	})
	for _, line := range logLines(t, logs.String(), jsonLogs, "compaction committed", committed) {
		checkCounts(t, line, rev.Messages)
	}
}

func testGatewayLogPrecompute(t *testing.T, jsonLogs bool) {
	up := apitest.NewFakeUpstream(t)
	srv, logs := logGateway(t, up, testserver.Gateway{Auto: true, Precompute: 0.8}, jsonLogs)
	rev := turnsUntilCompacted(t, srv, up, "pre")
	kept := committedAttrs(rev, "precompute")
	delete(kept, "revision")
	kept["session"] = "pre"
	lines := logLines(t, logs.String(), jsonLogs, "compaction kept as a preview", kept)
	if len(lines) != 1 || lines[0]["preview"] == "" {
		t.Fatalf("%d lines %q %v with a preview, want 1:\n%s", len(lines), "compaction kept as a preview", kept, logs)
	}
	// The precompute read the session before the turns that came since,
	// which the commit keeps after the summary (Rebase).
	read, _ := strconv.Atoi(lines[0]["compacted_messages"])
	p, _ := strconv.Atoi(lines[0]["preserved_messages"])
	if read += p; read >= rev.Messages {
		t.Errorf("the precompute read %d messages, the session had %d when it applied", read, rev.Messages)
	}
	checkCounts(t, lines[0], read)
	committed := committedAttrs(rev, "gateway")
	committed["preview"] = lines[0]["preview"]
	checkLogLines(t, logs.String(), jsonLogs, []logWant{
		{"compaction started", map[string]string{"trigger": "precompute", "session": "pre"}, 1},
		{"compaction committed", committed, 1},
		// The turn applied the precomputed summary: it compacted nothing itself.
		{"compaction started", map[string]string{"trigger": "gateway"}, 0},
	})
	for _, line := range logLines(t, logs.String(), jsonLogs, "compaction committed", committed) {
		checkCounts(t, line, read)
	}
}

// testGatewayLogFailing: every compaction fails upstream (500); the
// precompute's first (at precompute ratio p, when not 0) or the trigger's.
func testGatewayLogFailing(t *testing.T, jsonLogs bool, p float64) {
	up := apitest.NewFakeUpstream(t)
	failCompactions(t, up)
	srv, logs := logGateway(t, up, testserver.Gateway{Auto: true, Precompute: p}, jsonLogs)
	c := apitest.NewGatewayClient(srv.URL, option.WithHeader("X-Kompact-Session", "failing"))
	cv := &apitest.Conversation{Msgs: []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage("sys")}}
	paused := map[string]string{"session": "failing", "auto_failures": fmt.Sprint(kompact.AutoCompactionFailureLimit)}
	for i := 1; i <= 20 && countLogLines(t, logs.String(), jsonLogs, "automatic compaction paused", paused) == 0; i++ {
		cv.Turn(t, c, i, false)
	}
	for deadline := time.Now().Add(10 * time.Second); countLogLines(t, logs.String(), jsonLogs, "automatic compaction paused", paused) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("no pause after 20 turns:\n%s", logs)
		}
		time.Sleep(20 * time.Millisecond) // a precompute's failure is logged after its turn
	}
	cv.Turn(t, c, 21, false) // paused: no compaction starts
	n := kompact.AutoCompactionFailureLimit
	failed := map[string]string{"session": "failing", "status": string(service.AutoFailed), "code": string(kompact.ELLM)}
	all := logLines(t, logs.String(), jsonLogs, "compaction failed", failed)
	first := "gateway"
	if p > 0 {
		first = "precompute"
	}
	if len(all) == 0 || all[0]["trigger"] != first {
		t.Errorf("the first failure's trigger is not %q:\n%s", first, logs)
	}
	checkLogLines(t, logs.String(), jsonLogs, []logWant{
		{"compaction started", map[string]string{"session": "failing"}, n},
		{"compaction failed", failed, n},
		{"compaction failed", map[string]string{}, n},
		{"automatic compaction paused", paused, 1},
		{"compaction committed", map[string]string{}, 0},
	})
}
