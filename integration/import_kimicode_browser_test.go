package integration

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kompact/internal/testing/apitest"
	"kompact/kimicode"
)

// TestBrowserImportKimiCodeWire (issue 31 §2): the page's Import session… takes a Kimi Code
// 2.1.0 session's agents/main/wire.jsonl (a recorded vector with two compactions), tells it
// by content, says so, and sends it with format=kimi-code: the session it stores has the
// agent and id chosen in the form and the very messages kompact sessions import --kimi-code
// makes of the file (kimicode.ImportWire's session document, imported as the CLI imports it).
func TestBrowserImportKimiCodeWire(t *testing.T) {
	wire, texts := apitest.KimiCodeWire(t)
	e := newBrowserEnv(t, browserOptions{})
	file := filepath.Join(t.TempDir(), "wire.jsonl")
	if err := os.WriteFile(file, wire, 0o644); err != nil {
		t.Fatal(err)
	}
	e.open("/")
	e.waitFor("the page", `document.querySelector('[data-testid="import-session"]')`)
	e.do("pick the wire.jsonl", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{file}))
	e.waitFor("the import form", `(document.querySelector('[data-testid="import-format"]') || {dataset: {}}).dataset.format === "kimi-code" &&
		!!document.querySelector('[data-testid="import-agent-note"]')`)
	if got := e.evalString(`document.querySelector('[data-testid="import-format"]').textContent + " " + document.querySelector('[data-testid="import-agent-note"]').textContent`); got != "Read as a Kimi Code wire.jsonl. A Kimi Code file names no agent: the server's default agent is chosen." {
		t.Errorf("the import form says %q", got)
	}
	e.do("choose the agent and id",
		chromedp.SetValue(chromedp.CSS(`[data-testid="import-agent"]`), "nokey"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="import-id"]`), "from-kimi-code"))
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the imported session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "from-kimi-code"`)

	doc, _, err := kimicode.ImportWire(wire, texts)
	if err != nil {
		t.Fatal(err)
	}
	doc.ID, doc.Agent = "from-cli", "nokey"
	if status, _ := e.api("POST", "/v1/sessions/import", string(doc.AppendJSON(nil))); status != http.StatusCreated {
		t.Fatalf("the CLI's import: %d", status)
	}
	_, got := e.api("GET", "/v1/sessions/from-kimi-code", "")
	_, want := e.api("GET", "/v1/sessions/from-cli", "")
	if got["agent"] != "nokey" {
		t.Errorf("imported agent %v", got["agent"])
	}
	if g, w := apitest.WithoutIDs(t, got), apitest.WithoutIDs(t, want); g != w {
		t.Fatalf("the page's import:\n%s\nwant (the CLI's):\n%s", g, w)
	}
	n := len(got["messages"].([]any))
	if done := e.evalString(`document.querySelector('[data-testid="import-done"]').textContent`); !strings.Contains(done, "Imported wire.jsonl as session from-kimi-code (") || n < 3 {
		t.Errorf("import note %q (%d messages)", done, n)
	}
	e.checkNoJSErrors()
}
