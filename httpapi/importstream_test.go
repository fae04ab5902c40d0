package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
)

// longDoc is a session document of n messages, about 300 bytes each.
func longDoc(id string, n int, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":%q,"messages":[`, id)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"role":"user","content":[{"type":"text","text":"message %d é 🚀 %s"}]}`, i, strings.Repeat("x", 250))
	}
	return b.String() + "]" + extra + "}"
}

// TestImportStreamed: a session longer than the import's batches is stored
// whole, exactly as sent; an error anywhere in it (even after many batches)
// stores nothing and is worded as for a whole-body decode.
func TestImportStreamed(t *testing.T) {
	e := newAPIEnv(t, apiOptions{maxBody: 32 << 20})
	const n = 8000 // about 2.4 MB: several batches
	doc := longDoc("long", n, "")
	got := e.must(201, "POST", "/v1/sessions/import", doc)
	want, err := kompact.DecodeSession([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	msgs := got["messages"].([]any)
	if len(msgs) != n || got["id"] != "long" {
		t.Fatalf("imported %v with %d messages", got["id"], len(msgs))
	}
	last := msgs[n-1].(map[string]any)
	if text := last["content"].([]any)[0].(map[string]any)["text"]; text != want.Messages[n-1].Content[0].Text || last["id"] != fmt.Sprintf("m_%d", n) {
		t.Fatalf("last message %v", last)
	}

	bad := strings.Replace(longDoc("bad", n, ""), `"message 7000 `, `"message 7000 `+"\xff", 1)
	wantError(t, e.do("POST", "/v1/sessions/import", bad), 400, "invalid_request",
		fmt.Sprintf("not valid UTF-8 (at byte %d, in messages[7000])", strings.Index(bad, "\xff")))
	robot := longDoc("bad", n, "")
	at := strings.LastIndex(robot, `"role":"user"`)
	robot = robot[:at] + `"role":"robot"` + robot[at+len(`"role":"user"`):]
	wantError(t, e.do("POST", "/v1/sessions/import", robot), 400, "invalid_request", "messages[7999].role")
	wantError(t, e.do("POST", "/v1/sessions/import", longDoc("bad", n, `,"colour":1`)), 400, "invalid_request", `unknown field "colour"`)
	// A field after the messages that would change the session.
	wantError(t, e.do("POST", "/v1/sessions/import", longDoc("bad", 3, `,"agent":"off"`)), 400, "invalid_request", `"agent" comes after "messages"`)
	e.must(201, "POST", "/v1/sessions/import?agent=off", longDoc("late", 3, `,"agent":"off"`))
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 2 {
		t.Errorf("%d sessions, want 2 (the refused imports store nothing)", n)
	}
}

// TestImportStreamedTooLarge: the import's body limit holds for a
// streamed import, after some batches were stored too.
func TestImportStreamedTooLarge(t *testing.T) {
	e := newAPIEnv(t, apiOptions{maxImport: 3 << 20})
	wantError(t, e.do("POST", "/v1/sessions/import", longDoc("big", 12000, "")), 413, "too_large", "limit of 3 MiB (--max-import-body)")
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 0 {
		t.Errorf("%d sessions after a refused import", n)
	}
}

// TestImportSlowClientHoldsNoWrite: while a client is still sending an
// import's body, a write to another session is answered: the body is kept
// in a temporary file before the store's write begins. The file is gone
// afterwards, whether the import succeeded or was refused.
func TestImportSlowClientHoldsNoWrite(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e := newAPIEnv(t, apiOptions{maxBody: 32 << 20, limits: httpapi.Limits{MaxRequestMessages: 20_000}})
	e.must(201, "POST", "/v1/sessions", `{"id":"other","messages":[{"role":"user","content":"hi"}]}`)
	doc := longDoc("slow", 12000, "") // 3.6 MB: the first half is more than a batch
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", e.base+"/v1/sessions/import", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	done := make(chan int, 1)
	go func() {
		resp, err := e.http.Do(req)
		if err != nil {
			done <- 0
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		done <- resp.StatusCode
	}()
	// Half the body is sent (the server has read it: the pipe does not
	// buffer); the client pauses.
	if _, err := io.WriteString(pw, doc[:len(doc)/2]); err != nil {
		t.Fatal(err)
	}
	e.must(201, "POST", "/v1/sessions/other/messages", `{"message":{"role":"assistant","content":"still answered"}}`)
	select {
	case code := <-done:
		t.Fatalf("the import ended (%d) before its body was sent", code)
	default:
	}
	if _, err := io.WriteString(pw, doc[len(doc)/2:]); err != nil {
		t.Fatal(err)
	}
	_ = pw.Close()
	if code := <-done; code != 201 {
		t.Fatalf("import: status %d, want 201", code)
	}
	wantError(t, e.do("POST", "/v1/sessions/import", `{"messages":[{"role":"robot"}]}`), 400, "invalid_request", "role")
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d temporary files left: %v", len(left), left)
	}
}

// TestImportStoreFailsMidway: the store refusing a batch far into the
// document (an id given twice) ends the import at once, though the next
// batches are being read ahead of the store; nothing is stored.
func TestImportStoreFailsMidway(t *testing.T) {
	e := newAPIEnv(t, apiOptions{maxBody: 32 << 20})
	const n = 12000 // about 3.6 MB: several batches
	doc := longDoc("dup", n, "")
	first := strings.Index(doc, `{"role"`)
	doc = doc[:first+1] + `"id":"twice",` + doc[first+1:]
	at := strings.Index(doc, `{"role":"user","content":[{"type":"text","text":"message 5000 `)
	doc = doc[:at+1] + `"id":"twice",` + doc[at+1:]
	wantError(t, e.do("POST", "/v1/sessions/import", doc), 400, "invalid_request", `messages[5000].id: "twice" is already the id of messages[0]`)
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 0 {
		t.Errorf("%d sessions after a refused import", n)
	}
}

// TestImportInvalidUTF8Where (issue 40 §1): an import that is not UTF-8
// says where the bad byte sits: the message of a session document, the
// line of a kimi-cli file. Nothing is stored.
func TestImportInvalidUTF8Where(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	doc := "{\"messages\":[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"caf\xe9\"}]}"
	wantError(t, e.do("POST", "/v1/sessions/import", doc), 400, "invalid_request",
		fmt.Sprintf("not valid UTF-8 (at byte %d, in messages[1])", strings.Index(doc, "\xe9")))
	kimi := "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"user\",\"content\":\"caf\xe9\"}\n"
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi", kimi), 400, "invalid_request",
		fmt.Sprintf("not valid UTF-8 (at byte %d, in line 2)", strings.Index(kimi, "\xe9")))
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 0 {
		t.Errorf("%d sessions stored", n)
	}
}
