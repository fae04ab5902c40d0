package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserImportInvalidUTF8 (issue 40 §1): the page's Import session…
// sends the file's bytes as they are, so that the server judges them: a
// file with a byte that is not UTF-8 is refused with its offset and the
// message it sits in, and nothing is stored (the page used to read the
// file as text, bad bytes replaced by U+FFFD, and import it). A UTF-8
// file's text comes through intact.
func TestBrowserImportInvalidUTF8(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	dir := t.TempDir()
	bad := "{\"id\":\"bad\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"},{\"role\":\"assistant\",\"content\":\"caf\xe9 \"}]}"
	good := `{"id":"good","messages":[{"role":"user","content":"café 🚀 ok"}]}`
	for name, doc := range map[string]string{"bad.json": bad, "good.json": good} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.open("/")
	e.waitFor("the page", `document.querySelector('[data-testid="import-session"]')`)
	e.do("pick bad.json", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{filepath.Join(dir, "bad.json")}))
	e.waitFor("the import form", `!!document.querySelector('[data-testid="import-confirm-ok"]')`)
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the refusal", `!!document.querySelector('[data-testid="import-error"]')`)
	want := fmt.Sprintf("not valid UTF-8 (at byte %d, in messages[1])", strings.Index(bad, "\xe9"))
	if got := e.evalString(`document.querySelector('[data-testid="import-error"]').textContent`); !strings.Contains(got, want) {
		t.Errorf("the page says %q, want %q", got, want)
	}
	if _, list := e.api("GET", "/v1/sessions", ""); len(list["sessions"].([]any)) != 0 {
		t.Fatalf("stored %v", list["sessions"])
	}

	e.do("pick good.json", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{filepath.Join(dir, "good.json")}))
	e.waitFor("the import form", `!!document.querySelector('[data-testid="import-confirm-ok"]')`)
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the imported session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "good"`)
	_, got := e.api("GET", "/v1/sessions/good", "")
	msg := got["messages"].([]any)[0].(map[string]any)
	if text := msg["content"].([]any)[0].(map[string]any)["text"]; text != "café 🚀 ok" {
		t.Errorf("imported text %q", text)
	}
}
