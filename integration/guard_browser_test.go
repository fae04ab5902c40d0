package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// crossSitePage is another site's page (served on another port, under the
// name localhost while the API is at 127.0.0.1) that tries to read and
// change the sessions the way issue 9 did: fetches that read, "simple"
// no-cors POSTs with text/plain bodies (which need no CORS preflight), a
// DELETE, a JSON POST, and a text/plain HTML form whose body is valid
// JSON. %[1]s is the API's origin.
const crossSitePage = `<!doctype html>
<html><head><meta charset="utf-8"><title>not kompact</title></head><body>
<iframe name="sink"></iframe>
<form id="f" method="POST" action="%[1]s/v1/sessions" enctype="text/plain" target="sink"><input name='{"agent":"","id":"evil' value='"}'></form>
<script>
const API = %[1]q;
window.results = {};
async function attempt(name, fn) {
  try { window.results[name] = "done: " + await fn(); }
  catch (e) { window.results[name] = "blocked: " + e.name; }
}
function simplePost(path, body) {
  return fetch(API + path, { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body })
    .then(r => r.type);
}
(async () => {
  await attempt("list", async () => (await fetch(API + "/v1/sessions")).text());
  await attempt("get", async () => (await fetch(API + "/v1/sessions/s")).text());
  await attempt("page", async () => (await fetch(API + "/")).text());
  await attempt("append", () => simplePost("/v1/sessions/s/messages", JSON.stringify({ message: { role: "user", content: "pwned" } })));
  await attempt("create", () => simplePost("/v1/sessions", JSON.stringify({ id: "evil2", messages: [] })));
  await attempt("compact", () => simplePost("/v1/sessions/s/actions/compact_conversation", "{}"));
  await attempt("restore", () => simplePost("/v1/sessions/s/revisions/1/restore", ""));
  await attempt("delete", async () => (await fetch(API + "/v1/sessions/s", { method: "DELETE" })).status);
  await attempt("json", async () => (await fetch(API + "/v1/sessions/s/messages", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message: { role: "user", content: "pwned" } }) })).status);
  const sink = document.querySelector("iframe");
  sink.addEventListener("load", () => { window.formDone = true; });
  setTimeout(() => { window.formDone = true; }, 3000);
  document.getElementById("f").submit();
  window.attacksDone = true;
})();
</script></body></html>`

// TestBrowserCrossSitePageCannotReadOrChange: a page on another origin
// can neither read the sessions nor change them, whichever request it
// tries (issue 9, item 1). The server's own page keeps working (the other
// browser tests).
func TestBrowserCrossSitePageCannotReadOrChange(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(browserSession(t, "s"))
	before := e.storedMessages("s")

	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, crossSitePage, e.srv.URL)
	}))
	t.Cleanup(evil.Close)
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1) + "/"
	e.do("open the other site's page", chromedp.Navigate(evilURL))
	e.waitFor("the attacks", `window.attacksDone === true && window.formDone === true`)

	var results map[string]string
	e.eval(`JSON.stringify(window.results)`, &results)
	t.Logf("cross-site attempts: %v", results)
	for _, name := range []string{"list", "get", "page", "delete", "json"} {
		if !strings.HasPrefix(results[name], "blocked") {
			t.Errorf("%s from another site: %q, want blocked", name, results[name])
		}
	}
	for name, r := range results {
		if strings.Contains(r, `"messages"`) || strings.Contains(r, `"sessions"`) || strings.Contains(r, "kompact") {
			t.Errorf("%s read the server's answer: %.200s", name, r)
		}
	}

	after := e.storedMessages("s")
	if len(after) != len(before) {
		t.Errorf("session s has %d messages after the attacks, had %d", len(after), len(before))
	}
	status, list := e.api("GET", "/v1/sessions", "")
	if status != http.StatusOK {
		t.Fatalf("list: %d %v", status, list)
	}
	sessions, _ := list["sessions"].([]any)
	if len(sessions) != 1 {
		t.Errorf("sessions after the attacks: %v, want only s", sessions)
	}
	if status, s := e.api("GET", "/v1/sessions/s", ""); status != http.StatusOK || s["version"] != float64(1) {
		t.Errorf("session s after the attacks: %d, version %v, want 200 and version 1", status, s["version"])
	}
	if n := len(e.llm.Requests()); n != 0 {
		t.Errorf("the LLM got %d requests from the other site's page", n)
	}
}
