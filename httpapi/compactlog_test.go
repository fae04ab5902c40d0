package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// TestCompactionLogLines: the server logs each compaction's start and
// outcome, automatic and manual, and the breaker's pause and resume, as
// text lines and as JSON lines (serve's --log-format).
func TestCompactionLogLines(t *testing.T) {
	for _, jsonLogs := range []bool{false, true} {
		t.Run(fmt.Sprint("json=", jsonLogs), func(t *testing.T) {
			e := newAPIEnv(t, apiOptions{agents: autoAgents, jsonLogs: jsonLogs})
			e.must(201, "POST", "/v1/sessions", autoSession("s", "auto"))
			scriptLLM(e, fakellm.Fail(400, "the compaction model is broken"))
			for range kompact.AutoCompactionFailureLimit {
				e.do("POST", "/v1/sessions/s/continue", map[string]any{"content": strings.Repeat("q", 1000)})
			}
			scriptLLM(e, summaryAnswer(20))
			e.must(200, "POST", "/v1/sessions/s/actions/compact_conversation", map[string]any{})
			logs := e.logs.String()
			for _, want := range []struct {
				msg   string
				attrs map[string]string
				n     int
			}{
				{"compaction started", map[string]string{"trigger": "auto", "session": "s"}, kompact.AutoCompactionFailureLimit},
				{"compaction failed", map[string]string{"trigger": "auto", "session": "s", "code": "llm_error"}, kompact.AutoCompactionFailureLimit},
				{"automatic compaction paused", map[string]string{"session": "s", "auto_failures": "3"}, 1},
				{"compaction started", map[string]string{"trigger": "manual", "session": "s"}, 1},
				{"compaction committed", map[string]string{"trigger": "manual", "session": "s", "revision": "1", "compacted_messages": "2", "replaced_messages": "2", "recall": "1"}, 1},
				{"automatic compaction resumed", map[string]string{"session": "s"}, 1},
			} {
				if n := countLogLines(t, logs, jsonLogs, want.msg, want.attrs); n != want.n {
					t.Errorf("%d lines %q %v, want %d:\n%s", n, want.msg, want.attrs, want.n, logs)
				}
			}
		})
	}
}

// countLogLines counts the lines of logs with message msg and attrs.
func countLogLines(t *testing.T, logs string, jsonLogs bool, msg string, attrs map[string]string) int {
	return len(logLines(t, logs, jsonLogs, msg, attrs))
}

// logLines returns the attributes of each line of logs with message msg
// and attrs.
func logLines(t *testing.T, logs string, jsonLogs bool, msg string, attrs map[string]string) []map[string]string {
	var out []map[string]string
	for _, line := range strings.Split(logs, "\n") {
		if line == "" {
			continue
		}
		got := map[string]string{}
		if jsonLogs {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			for k, v := range m {
				got[k] = fmt.Sprint(v)
			}
		} else {
			got = textLogAttrs(t, line)
		}
		ok := got["msg"] == msg
		for k, v := range attrs {
			ok = ok && got[k] == v
		}
		if ok {
			out = append(out, got)
		}
	}
	return out
}

// textLogAttrs parses a line of slog's text handler: key=value pairs, a
// value quoted when it holds a space, a quote or an equals sign.
func textLogAttrs(t *testing.T, line string) map[string]string {
	got := map[string]string{}
	for rest := line; rest != ""; rest = strings.TrimPrefix(rest, " ") {
		k, v, ok := strings.Cut(rest, "=")
		if !ok {
			t.Fatalf("log line %q: no key=value at %q", line, rest)
		}
		if strings.HasPrefix(v, `"`) {
			q, err := strconv.QuotedPrefix(v)
			if err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			rest = v[len(q):]
			v, _ = strconv.Unquote(q)
		} else {
			v, rest, _ = strings.Cut(v, " ")
		}
		got[k] = v
	}
	return got
}
