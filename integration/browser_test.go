package integration

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/openapicheck"
	"kompact/internal/testing/testenv"
	"kompact/kimicli"
	"kompact/kimicode"
	"kompact/openai"
	"kompact/sqlite"
)

// The browser tests drive the embedded web page in a real Chromium: they
// import a session over the API, then click through the page as a person
// would and check what it shows and what the server stored.

// browserTimeout bounds each browser test, browser start included.
const browserTimeout = 60 * time.Second

// browserKeyEnv is the variable the test agent reads its API key from; the
// test's Getenv answers it and nothing else.
const browserKeyEnv = "KOMPACT_BROWSER_TEST_KEY"

const browserAgents = `default_agent: tester
agents:
  tester:
    system_prompt: You are the browser test agent.
    llm:
      base_url: %[1]s
      model: fake-chat
      api_key_env: ` + browserKeyEnv + `
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 2
  auto:
    llm:
      base_url: %[1]s
      model: fake-chat
      api_key_env: ` + browserKeyEnv + `
      max_context_size: 4000
    compaction:
      enabled: true
      type: kimi
      auto:
        enabled: true
        trigger_ratio: 0.5
        reserved_context_size: 1000
  tiny:
    llm:
      base_url: %[1]s
      model: fake-chat
      api_key_env: ` + browserKeyEnv + `
      max_context_size: 30000
    compaction:
      enabled: true
      type: kimi
    gateway: {enabled: true}
  faithful:
    llm:
      base_url: %[1]s
      model: fake-chat
      api_key_env: ` + browserKeyEnv + `
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 2
      fidelity: {min_recall: 0.9, appendix_tokens: 22}
  nokey:
    llm:
      base_url: %[1]s
      model: fake-chat
      api_key_env: MOONSHOT_API_KEY
`

// findChromium returns the browser to drive: $KOMPACT_CHROMIUM, else
// /usr/bin/chromium, else the first of chromium, chromium-browser and
// google-chrome on PATH. Without one the test is skipped, except in CI,
// which installs Debian's chromium and so must run it.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("KOMPACT_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("KOMPACT_CHROMIUM=%s: %v", p, err)
		}
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Require(t, false, "no Chromium found", "install Debian's chromium or set KOMPACT_CHROMIUM")
	return ""
}

type browserEnv struct {
	t   *testing.T
	llm *fakellm.Server
	srv *httptest.Server
	// token is the server's bearer token, "" for none.
	token string
	ctx   context.Context

	mu       sync.Mutex
	jsErrors []string
}

type browserOptions struct {
	token string
	// agents is the agents file for the fake LLM at llmURL; nil for
	// browserAgents. A test whose agents would change what the others
	// see (the agent list, the default agent) brings its own.
	agents func(llmURL string) string
	// timeout bounds the test, browser start included; 0 for
	// browserTimeout.
	timeout time.Duration
}

// newBrowserEnv starts a fake LLM, the API server on a fresh SQLite store,
// and a headless Chromium with one tab.
func newBrowserEnv(t *testing.T, opt browserOptions) *browserEnv {
	t.Helper()
	chromium := findChromium(t)
	llm := fakellm.New(t)
	doc := fmt.Sprintf(browserAgents, llm.URL())
	if opt.agents != nil {
		doc = opt.agents(llm.URL())
	}
	agents, err := config.Parse([]byte(doc), "browser-agents.yaml")
	if err != nil {
		t.Fatalf("agent configuration: %v", err)
	}
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "kompact.db"))
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { _ = store.Close() })
	srv := httpapi.New(httpapi.Config{
		Store:  store,
		Agents: agents,
		LLM: &openai.Client{Getenv: func(name string) string {
			if name == browserKeyEnv {
				return "fake-key-for-the-browser-test"
			}
			return ""
		}},
		Token:        opt.token,
		Version:      "browser-test",
		KimiContext:  kimicli.ImportContext,
		KimiCodeWire: kimicode.ReadSession,
		Upstream:     &openai.Upstream{Getenv: func(name string) string { return "fake-key-for-the-browser-test" }},
	})
	ts := httptest.NewServer(openapicheck.Handler(t, srv.Handler()))
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(opt.timeout, browserTimeout))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	e := &browserEnv{t: t, llm: llm, srv: ts, token: opt.token, ctx: tabCtx}
	// Cancelling the tab, then the allocator, closes the browser and waits
	// for it to exit.
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancel()
	})
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	e.watchErrors(tabCtx)
	return e
}

// watchErrors records the page's uncaught exceptions, console errors and
// error log entries (such as Content Security Policy violations);
// checkNoJSErrors fails the test when there are any.
func (e *browserEnv) watchErrors(ctx context.Context) {
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	logs := chromedp.Events(ctx, cdplog.EntryAdded)
	go func() {
		for ev, err := range logs {
			if err != nil {
				return
			}
			// Network errors are the API's expected 4xx answers (a 401
			// before the token, a bad import); the others (a Content
			// Security Policy violation, an intervention) are the page's.
			if ev.Entry.Level != cdplog.EntryLevelError || ev.Entry.Source == cdplog.EntrySourceNetwork {
				continue
			}
			e.mu.Lock()
			e.jsErrors = append(e.jsErrors, "log ("+string(ev.Entry.Source)+"): "+ev.Entry.Text)
			e.mu.Unlock()
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
				msg += " " + ex.Description
			}
			e.mu.Lock()
			e.jsErrors = append(e.jsErrors, "exception: "+msg)
			e.mu.Unlock()
		}
	}()
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
				continue
			}
			var parts []string
			for _, a := range ev.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			e.mu.Lock()
			e.jsErrors = append(e.jsErrors, "console."+string(ev.Type)+": "+strings.Join(parts, " "))
			e.mu.Unlock()
		}
	}()
}

// checkNoJSErrors fails the test if the page threw or logged an error.
func (e *browserEnv) checkNoJSErrors() {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, msg := range e.jsErrors {
		e.t.Errorf("page error: %s", msg)
	}
}

// api calls the API directly, with the server's token.
func (e *browserEnv) api(method, path string, body string) (int, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &v); err != nil {
			e.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
		}
	}
	return resp.StatusCode, v
}

// storedMessages returns the messages of the stored session id, as the API
// shows them.
func (e *browserEnv) storedMessages(id string) []map[string]any {
	e.t.Helper()
	return e.apiList("/v1/sessions/"+id, "messages")
}

// apiList GETs path over the API, which must answer 200, and returns the
// objects of its list key.
func (e *browserEnv) apiList(path, key string) []map[string]any {
	e.t.Helper()
	status, body := e.api("GET", path, "")
	if status != http.StatusOK {
		e.t.Fatalf("GET %s: %d %v", path, status, body)
	}
	var out []map[string]any
	for _, v := range body[key].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

// do runs browser actions; what names the step in a failure.
func (e *browserEnv) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	e.t.Helper()
	if err := chromedp.Do(e.ctx, actions...); err != nil {
		e.fail(what, err)
	}
}

// fail ends the test with the page's text and a screenshot, which is most
// of what one needs to see why a step failed.
func (e *browserEnv) fail(what string, err error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 5*time.Second)
	defer cancel()
	text, terr := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if terr == nil {
		e.t.Logf("page text when %q failed:\n%s", what, text)
	}
	if shot, serr := chromedp.Run(ctx, chromedp.FullScreenshot(100)); serr == nil {
		path := filepath.Join(screenshotDir(e.t), "failure-"+safeName(e.t.Name())+".png")
		if os.WriteFile(path, shot, 0o644) == nil {
			e.t.Logf("screenshot of the failure: %s", path)
		}
	}
	e.checkNoJSErrors()
	e.t.Fatalf("%s: %v", what, err)
}

// waitFor waits until the JavaScript expression is truthy.
func (e *browserEnv) waitFor(what, expr string) {
	e.t.Helper()
	e.do("wait for "+what, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(25*time.Second)))
}

// evaluate evaluates a JavaScript expression that returns a T.
func evaluate[T any](e *browserEnv, expr string) T {
	e.t.Helper()
	v, err := chromedp.Run(e.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		e.fail("evaluate "+expr, err)
	}
	return v
}

// evalString evaluates a JavaScript expression that returns a string.
func (e *browserEnv) evalString(expr string) string {
	e.t.Helper()
	return evaluate[string](e, expr)
}

// evalInt evaluates a JavaScript expression that returns a number.
func (e *browserEnv) evalInt(expr string) int {
	e.t.Helper()
	return evaluate[int](e, expr)
}

// eval evaluates a JavaScript expression that returns a JSON string and
// decodes it into v.
func (e *browserEnv) eval(expr string, v any) {
	e.t.Helper()
	s := evaluate[string](e, expr)
	if err := json.Unmarshal([]byte(s), v); err != nil {
		e.t.Fatalf("evaluate %s: %v (%s)", expr, err, s)
	}
}

func (e *browserEnv) click(sel string) {
	e.t.Helper()
	e.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// check ticks the checkbox sel with a click, as a person does, and clicks
// again until it is ticked (clickUntil).
func (e *browserEnv) check(sel string) {
	e.t.Helper()
	e.clickUntil(sel, `!!document.querySelector('`+sel+`')?.checked`, "ticked")
}

// clickUntil clicks sel, as a person does, until done (a script) holds, at
// most five times: a page still settling (its latest message kept in view;
// at 400 px the compact panel sits below the conversation) can move the
// element between the click's aim and the click, which then lands beside
// it. what says, for the failure, what the clicks were for.
func (e *browserEnv) clickUntil(sel, done, what string) {
	e.t.Helper()
	for try := 0; !e.evalBool(done); try++ {
		if try == 5 {
			e.t.Fatalf("%s: not %s after %d clicks", sel, what, try)
		}
		e.click(sel)
		time.Sleep(time.Duration(try) * 100 * time.Millisecond)
	}
}

// menuItem opens the menu of message id and picks the item testid.
func (e *browserEnv) menuItem(id, testid string) {
	e.t.Helper()
	e.click(`[data-testid="message"][data-id="` + id + `"] [data-testid="message-menu"]`)
	e.click(`[data-testid="message"][data-id="` + id + `"] [data-testid="` + testid + `"]`)
}

func (e *browserEnv) open(path string) {
	e.t.Helper()
	e.do("open "+path, chromedp.Navigate(e.srv.URL+path))
}

// screenshot saves a full-page screenshot and logs where.
func (e *browserEnv) screenshot(name string) string {
	e.t.Helper()
	// From the top, so that the sticky side panels sit where a person
	// sees them first.
	e.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	return e.saveShot(name, chromedp.FullScreenshot(100))
}

// saveShot takes a screenshot with capture, saves it as name in
// screenshotDir and logs where.
func (e *browserEnv) saveShot(name string, capture chromedp.Action[[]byte]) string {
	e.t.Helper()
	shot, err := chromedp.Run(e.ctx, capture)
	if err != nil {
		e.fail("screenshot", err)
	}
	path := filepath.Join(screenshotDir(e.t), name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.t.Logf("screenshot: %s", path)
	return path
}

// screenshotDir is $KOMPACT_SCREENSHOT_DIR, else the test's artifact
// folder: under the output directory with go test -artifacts, a temporary
// one otherwise.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("KOMPACT_SCREENSHOT_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err == nil {
			return d
		}
	}
	return t.ArtifactDir()
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// pageMessage is what the page shows of one message.
type pageMessage struct {
	ID         string `json:"id"`
	Role       string `json:"role"`
	Kind       string `json:"kind"`
	Badge      string `json:"badge"`
	BadgeColor string `json:"badgeColor"`
	Text       string `json:"text"`
}

func (e *browserEnv) messages() []pageMessage {
	e.t.Helper()
	var out []pageMessage
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="message"]')].map(m => {
		const b = m.querySelector('[data-testid="message-role"]');
		return {id: m.dataset.id, role: m.dataset.role, kind: m.dataset.kind || "",
			badge: b.textContent, badgeColor: getComputedStyle(b).backgroundColor,
			text: m.querySelector('.msg-body').innerText};
	}))`, &out)
	return out
}

func messageIDs(msgs []pageMessage) string {
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
		if m.Kind == "summary" {
			ids[i] = "<summary>"
		}
	}
	return strings.Join(ids, ",")
}

// pngDataURL returns a small PNG image as a data URL.
func pngDataURL(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 96, 64))
	for y := range 64 {
		for x := range 96 {
			img.Set(x, y, color.RGBA{uint8(40 + x*2), uint8(90 + y*2), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// browserSession is an 8-message session document: system, user and
// assistant turns, a tool call and its result with a data part, thinking,
// an image and an audio part, and text that looks like HTML.
func browserSession(t *testing.T, id string) string {
	doc := map[string]any{
		"id":    id,
		"agent": "tester",
		"messages": []any{
			map[string]any{"id": "m1", "role": "system", "content": "You are a coding agent working in a Go repository."},
			map[string]any{"id": "m2", "role": "user", "content": `The tests fail with "undefined: Prepare". <img src=x onerror="window.__kompactXSS=1"> <b>not bold</b>`},
			map[string]any{"id": "m3", "role": "assistant",
				"content": []any{
					map[string]any{"type": "think", "think": "Look for the function first."},
					map[string]any{"type": "text", "text": "Let me search for Prepare."},
				},
				"tool_calls": []any{map[string]any{"type": "function", "id": "call_1",
					"function": map[string]any{"name": "Grep", "arguments": `{"pattern": "func Prepare", "path": "."}`}}},
			},
			map[string]any{"id": "m4", "role": "tool", "tool_call_id": "call_1",
				"content": []any{
					map[string]any{"type": "text", "text": "no matches"},
					map[string]any{"type": "data", "data": map[string]any{"matches": 0, "asset_ref": "grep-run-17"}},
				},
			},
			map[string]any{"id": "m5", "role": "assistant", "content": "Prepare does not exist yet. I added it to prepare.go; the tests pass now."},
			map[string]any{"id": "m6", "role": "user",
				"content": []any{
					map[string]any{"type": "text", "text": "Here is the coverage chart, and my voice note:"},
					map[string]any{"type": "image_url", "image_url": map[string]any{"url": pngDataURL(t), "id": "chart-1"}},
					map[string]any{"type": "audio_url", "audio_url": map[string]any{"url": "https://example.invalid/note.mp3"}},
				},
			},
			map[string]any{"id": "m7", "role": "assistant", "content": "Coverage went up.\nprepare.go: 92%\nsummary.go: 88%"},
			map[string]any{"id": "m8", "role": "user", "content": "Great. Now add a benchmark for 100k messages."},
		},
	}
	return apitest.JSONText(t, doc)
}

func (e *browserEnv) importSession(doc string) {
	e.t.Helper()
	if status, body := e.api("POST", "/v1/sessions/import", doc); status != http.StatusCreated {
		e.t.Fatalf("import: %d %v", status, body)
	}
}

// isCompaction reports whether a fake-LLM request is a compaction request
// (rather than a "continue" one).
func isCompaction(req fakellm.Request) bool {
	msgs := req.Messages()
	return len(msgs) > 0 && msgs[0]["content"] == "You are a helpful assistant that compacts conversation context."
}

// partialSummary lacks active_issues and important_context.
var partialSummary = []string{
	"<current_focus>\nMake the failing Prepare test pass.\n</current_focus>\n",
	"<environment>\nGo 1.26 module; tests run with go test ./...\n</environment>\n",
	"<completed_tasks>\n- Searched for Prepare: no matches.\n",
	"- Added Prepare to prepare.go.\n</completed_tasks>\n",
	"<code_state>\nprepare.go: new func Prepare.\n",
	"</code_state>",
}

const continueReply = "The benchmark is in bench_test.go: 100k messages take 41 ms."

func TestBrowserCompactUndoContinue(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	items := make([]fakellm.Item, len(partialSummary))
	for i, s := range partialSummary {
		items[i] = fakellm.Text(s)
	}
	e.llm.SetFunc(func(req fakellm.Request) fakellm.Reply {
		if isCompaction(req) {
			r := fakellm.Answer(items...).WithUsage(fakellm.Usage{PromptTokens: 420, CompletionTokens: 64})
			r.ChunkDelay = 250 * time.Millisecond
			return r
		}
		return fakellm.Answer(fakellm.Text(continueReply))
	})
	e.importSession(browserSession(t, "browser-demo"))

	// Open the page and the session.
	e.open("/")
	item := `[data-testid="session-item"][data-session-id="browser-demo"]`
	e.waitFor("the session in the list", `document.querySelector('`+item+`')`)
	e.click(item)
	e.waitFor("8 messages", `document.querySelectorAll('[data-testid="message"]').length === 8`)
	if got := e.messages(); messageIDs(got) != "m1,m2,m3,m4,m5,m6,m7,m8" {
		t.Fatalf("messages %s", messageIDs(got))
	}

	// Roles: each has its badge, in its own colour.
	msgs := e.messages()
	colours := map[string]string{}
	for _, m := range msgs {
		if m.Badge != m.Role {
			t.Errorf("message %s: badge %q, role %q", m.ID, m.Badge, m.Role)
		}
		if c, ok := colours[m.Role]; ok && c != m.BadgeColor {
			t.Errorf("role %s has two colours: %s, %s", m.Role, c, m.BadgeColor)
		}
		colours[m.Role] = m.BadgeColor
	}
	seen := map[string]string{}
	for role, c := range colours {
		if other, dup := seen[c]; dup {
			t.Errorf("roles %s and %s share the colour %s", role, other, c)
		}
		seen[c] = role
	}
	if len(colours) != 4 {
		t.Errorf("roles shown: %v", colours)
	}

	// Untrusted text is text: the HTML in m2 is shown, not run.
	var xss struct {
		Ran    bool   `json:"ran"`
		Images int    `json:"images"`
		Bold   int    `json:"bold"`
		Text   string `json:"text"`
	}
	e.eval(`JSON.stringify((() => {
		const m = document.querySelector('[data-id="m2"] .msg-body');
		return {ran: window.__kompactXSS === 1, images: m.querySelectorAll('img').length,
			bold: m.querySelectorAll('b').length, text: m.innerText};
	})())`, &xss)
	if xss.Ran || xss.Images != 0 || xss.Bold != 0 || !strings.Contains(xss.Text, `<img src=x onerror="window.__kompactXSS=1"> <b>not bold</b>`) {
		t.Errorf("m2 is not shown as plain text: %+v", xss)
	}

	// The tool call (monospace, collapsible), its result with the call id
	// and the data part, the collapsed thinking, the media.
	var parts struct {
		CallName     string `json:"callName"`
		CallArgs     string `json:"callArgs"`
		CallFont     string `json:"callFont"`
		CallClosed   bool   `json:"callClosed"`
		ResultCallID string `json:"resultCallID"`
		Data         string `json:"data"`
		ThinkOpen    bool   `json:"thinkOpen"`
		ThinkLabel   string `json:"thinkLabel"`
		ThinkStyle   string `json:"thinkStyle"`
		ThinkShown   bool   `json:"thinkShown"`
		ImageSrc     string `json:"imageSrc"`
		ImageWidth   int    `json:"imageWidth"`
		AudioSrc     string `json:"audioSrc"`
		Lines        string `json:"lines"`
	}
	e.waitFor("the image to load", `(() => { const i = document.querySelector('[data-id="m6"] img[data-testid="media-image"]'); return i && i.complete && i.naturalWidth > 0; })()`)
	e.click(`[data-id="m3"] [data-testid="tool-call"] summary`) // collapse it
	e.click(`[data-id="m6"] [data-testid="media-load"]`)        // remote audio loads on a click (issue 21)
	e.eval(`JSON.stringify((() => {
		const q = (s) => document.querySelector(s);
		const call = q('[data-id="m3"] [data-testid="tool-call"]');
		const think = q('[data-id="m3"] [data-testid="think"]');
		const img = q('[data-id="m6"] img[data-testid="media-image"]');
		return {
			callName: call.querySelector('[data-testid="tool-call-name"]').textContent,
			callArgs: call.querySelector('[data-testid="tool-call-args"]').textContent,
			callFont: getComputedStyle(call.querySelector('[data-testid="tool-call-args"]')).fontFamily,
			callClosed: !call.open,
			resultCallID: q('[data-id="m4"] [data-testid="tool-call-id"]').textContent,
			data: q('[data-id="m4"] [data-testid="data-part"] pre').textContent,
			thinkOpen: think.open,
			thinkLabel: think.querySelector('summary').textContent,
			thinkStyle: getComputedStyle(think).fontStyle,
			thinkShown: think.querySelector('.think-text').checkVisibility(),
			imageSrc: img.getAttribute('src'),
			imageWidth: img.naturalWidth,
			audioSrc: (q('[data-id="m6"] audio[data-testid="media-audio"]') || {}).src || "",
			lines: q('[data-id="m7"] [data-testid="text-part"]').innerText,
		};
	})())`, &parts)
	if parts.CallName != "Grep" || !strings.Contains(parts.CallArgs, "{\n  \"pattern\": \"func Prepare\",\n  \"path\": \".\"\n}") {
		t.Errorf("tool call: %q %q", parts.CallName, parts.CallArgs)
	}
	if !strings.Contains(parts.CallFont, "monospace") {
		t.Errorf("tool call arguments are in %q, not monospace", parts.CallFont)
	}
	if !parts.CallClosed {
		t.Errorf("the tool call did not collapse on a click")
	}
	if parts.ResultCallID != "call_1" || !strings.Contains(parts.Data, "\"asset_ref\": \"grep-run-17\"") {
		t.Errorf("tool result: call id %q, data %q", parts.ResultCallID, parts.Data)
	}
	if parts.ThinkOpen || parts.ThinkShown || parts.ThinkStyle != "italic" || !strings.Contains(parts.ThinkLabel, "thinking") {
		t.Errorf("think part: open %v, shown %v, style %q, label %q", parts.ThinkOpen, parts.ThinkShown, parts.ThinkStyle, parts.ThinkLabel)
	}
	if !strings.HasPrefix(parts.ImageSrc, "data:image/png;base64,") || parts.ImageWidth != 96 {
		t.Errorf("image: %.40q, width %d", parts.ImageSrc, parts.ImageWidth)
	}
	if parts.AudioSrc != "https://example.invalid/note.mp3" {
		t.Errorf("audio: %q", parts.AudioSrc)
	}
	if parts.Lines != "Coverage went up.\nprepare.go: 92%\nsummary.go: 88%" {
		t.Errorf("line breaks lost: %q", parts.Lines)
	}

	// Compact up to m5, watching the progress as the summary streams in.
	e.menuItem("m5", "compact-up-to-here")
	e.waitFor("live progress", `/Receiving summary… \d[\d,.]* characters/.test(document.querySelector('[data-testid="progress"]').textContent)`)
	if live, _ := chromedp.Run(e.ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="progress"]').getAttribute('aria-live')`)); live != "polite" {
		t.Errorf("the progress region has aria-live=%q", live)
	}
	// The summary is longer than the four messages it replaces
	// (tokens_not_reduced): the server keeps it as a preview to confirm.
	e.waitFor("the warning preview", `document.querySelector('[data-testid="outcome"]').dataset.status === "preview"`)
	e.screenshot("browser-warning-preview.png")
	e.click(`#preview-apply`)
	e.waitFor("the outcome", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted"`)
	e.waitFor("the compacted session", `document.querySelectorAll('[data-testid="message"]').length === 5`)
	msgs = e.messages()
	if messageIDs(msgs) != "m1,<summary>,m6,m7,m8" {
		t.Fatalf("after compaction: %s", messageIDs(msgs))
	}
	if msgs[1].Badge != "summary" || msgs[1].Role != "user" {
		t.Errorf("summary message: badge %q role %q", msgs[1].Badge, msgs[1].Role)
	}
	var card struct {
		Missing  []string `json:"missing"`
		Sections []string `json:"sections"`
		Focus    string   `json:"focus"`
		Progress string   `json:"progress"`
		Outcome  string   `json:"outcome"`
	}
	e.eval(`JSON.stringify((() => {
		const c = document.querySelector('[data-testid="message"][data-kind="summary"] [data-testid="summary-card"]');
		return {
			missing: [...c.querySelectorAll('[data-testid="missing-section"]')].map(b => b.dataset.section),
			sections: [...c.querySelectorAll('[data-testid="summary-section"]')].map(s => s.dataset.section),
			focus: c.querySelector('[data-section="current_focus"] .md').textContent,
			progress: document.querySelector('[data-testid="progress"]').textContent,
			outcome: document.querySelector('[data-testid="outcome"]').innerText,
		};
	})())`, &card)
	if !slices.Equal(card.Missing, []string{"active_issues", "important_context"}) {
		t.Errorf("missing sections flagged: %v", card.Missing)
	}
	if len(card.Sections) != 6 || card.Focus != "Make the failing Prepare test pass." {
		t.Errorf("summary card: sections %v, current_focus %q", card.Sections, card.Focus)
	}
	if !strings.Contains(card.Progress, "applied") || !strings.Contains(card.Outcome, "Applied: compacted") || !strings.Contains(card.Outcome, "active_issues, important_context") {
		t.Errorf("progress %q, outcome %q", card.Progress, card.Outcome)
	}
	stored := e.storedMessages("browser-demo")
	if len(stored) != 5 {
		t.Fatalf("stored %d messages after compaction", len(stored))
	}
	e.screenshot("browser-compacted.png")

	// Undo: restore the revision the compaction recorded.
	e.waitFor("one revision", `document.querySelectorAll('[data-testid="revision-item"]').length === 1`)
	e.click(`[data-testid="revision-item"][data-kind="compaction"] [data-testid="restore"]`)
	e.waitFor("the restore's question", `document.querySelector('[data-testid="restore-confirm"]')`)
	e.click(`[data-testid="restore-confirm-ok"]`)
	e.waitFor("the restore", `document.querySelector('[data-testid="outcome"]').dataset.status === "restored"`)
	e.waitFor("the original messages", `document.querySelectorAll('[data-testid="message"]').length === 8`)
	if got := messageIDs(e.messages()); got != "m1,m2,m3,m4,m5,m6,m7,m8" {
		t.Fatalf("after restore: %s", got)
	}
	e.waitFor("two revisions", `document.querySelectorAll('[data-testid="revision-item"]').length === 2`)
	if kind, _ := chromedp.Run(e.ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="revision-item"]').dataset.kind`)); kind != "restore" {
		t.Errorf("newest revision is a %q, want restore", kind)
	}

	// Continue the conversation.
	e.do("type a message",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="continue-input"]`), "How fast is it?"),
	)
	e.click(`[data-testid="continue-send"]`)
	e.waitFor("the reply", `(() => { const m = [...document.querySelectorAll('[data-testid="message"]')]; return m.length === 10 && m[9].dataset.role === "assistant"; })()`)
	msgs = e.messages()
	if msgs[8].Role != "user" || msgs[8].Text != "How fast is it?" || msgs[9].Text != continueReply {
		t.Errorf("continue: %+v / %+v", msgs[8], msgs[9])
	}
	if v, _ := chromedp.Run(e.ctx, chromedp.Value(chromedp.CSS(`[data-testid="continue-input"]`))); v != "" {
		t.Errorf("the continue box still holds %q", v)
	}
	var compactions, continues int
	for _, r := range e.llm.Requests() {
		if isCompaction(r) {
			compactions++
			if !strings.Contains(r.Text(), "## Message 5\nRole: assistant") || strings.Contains(r.Text(), "## Message 6") {
				t.Errorf("the compaction request does not cover m1-m5 exactly")
			}
		} else {
			continues++
			if !strings.Contains(r.Text(), "You are the browser test agent.") || !strings.Contains(r.Text(), "How fast is it?") {
				t.Errorf("continue request: %s", r.Text())
			}
		}
	}
	if compactions != 1 || continues != 1 {
		t.Errorf("LLM calls: %d compactions, %d continues", compactions, continues)
	}
	e.screenshot("browser-final.png")
	e.checkNoJSErrors()
}

func TestBrowserPreviewEditApply(t *testing.T) {
	e := newBrowserEnv(t, browserOptions{})
	var full strings.Builder
	for _, name := range kompact.SectionNames {
		fmt.Fprintf(&full, "<%s>\nfrom the model\n</%s>\n", name, name)
	}
	e.llm.SetDefault(fakellm.Answer(fakellm.Text(full.String())))
	e.importSession(browserSession(t, "browser-preview"))

	// The address names the session directly.
	e.open("/#/s/browser-preview")
	e.waitFor("8 messages", `document.querySelectorAll('[data-testid="message"]').length === 8`)
	e.waitFor("the compact panel", `!document.querySelector('[data-testid="compact-panel"]').hidden`)

	// Mark the range m2..m5 on the messages; the selects follow.
	e.menuItem("m2", "mark-start")
	e.menuItem("m5", "mark-end")
	var rng struct {
		Start   string   `json:"start"`
		End     string   `json:"end"`
		InRange []string `json:"inRange"`
	}
	e.eval(`JSON.stringify({
		start: document.querySelector('[data-testid="range-start"]').value,
		end: document.querySelector('[data-testid="range-end"]').value,
		inRange: [...document.querySelectorAll('[data-testid="message"].in-range')].map(m => m.dataset.id),
	})`, &rng)
	if rng.Start != "m2" || rng.End != "m5" || strings.Join(rng.InRange, ",") != "m2,m3,m4,m5" {
		t.Errorf("range: %+v", rng)
	}

	// Preview with instructions, then discard: nothing changes.
	e.do("instructions", chromedp.SendKeys(chromedp.CSS(`[data-testid="instructions"]`), "Keep the API decisions."))
	e.check(`[data-testid="preview-toggle"]`)
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden`)
	e.click(`[data-testid="preview-discard"]`)
	e.waitFor("the discard", `document.querySelector('[data-testid="outcome"]').dataset.status === "discarded"`)
	if n := len(e.storedMessages("browser-preview")); n != 8 {
		t.Fatalf("a discarded preview changed the session: %d messages", n)
	}

	// Preview again, edit the summary, apply.
	e.click(`[data-testid="compact-conversation"]`)
	e.waitFor("the preview", `!document.querySelector('[data-testid="preview"]').hidden && document.querySelector('[data-testid="preview-summary"]').value.includes("from the model")`)
	if n := len(e.storedMessages("browser-preview")); n != 8 {
		t.Fatalf("a preview changed the session: %d messages", n)
	}
	edited := "<current_focus>\nEdited by a person: ship the benchmark.\n</current_focus>"
	e.do("edit the summary",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="preview-summary"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="preview-summary"]`), edited),
	)
	// The rendered summary and the estimate follow the edit.
	e.waitFor("the rendered edit", `(document.querySelector('[data-testid="preview-rendered"] [data-section="current_focus"] .md') || {}).textContent === "Edited by a person: ship the benchmark."`)
	var pv struct {
		Stats   string `json:"stats"`
		Missing int    `json:"missing"`
	}
	e.eval(`JSON.stringify({stats: document.querySelector('[data-testid="preview-stats"]').textContent,
		missing: document.querySelectorAll('[data-testid="preview-rendered"] [data-testid="missing-section"]').length})`, &pv)
	// 72 code points: 18 tokens.
	if !strings.HasPrefix(pv.Stats, "Summary ~18 tokens · session after applying ~") || !strings.HasSuffix(pv.Stats, "1 of 6 sections") || pv.Missing != 5 {
		t.Errorf("preview stats %q, %d sections flagged", pv.Stats, pv.Missing)
	}
	e.screenshot("browser-preview.png")
	e.click(`[data-testid="preview-apply"]`)
	e.waitFor("the outcome", `document.querySelector('[data-testid="outcome"]').dataset.status === "compacted"`)
	afterTokens := strings.TrimSuffix(strings.Fields(strings.SplitN(pv.Stats, "after applying ~", 2)[1])[0], "")
	if out, _ := chromedp.Run(e.ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="outcome"]').innerText + document.querySelector('[data-testid="progress"]').innerText`)); !strings.Contains(out, "→ "+afterTokens+".") || !strings.Contains(out, "Applied") || !strings.Contains(out, "applied") {
		t.Errorf("after Apply, the page says %q; the preview estimated ~%s tokens", out, afterTokens)
	}
	e.waitFor("the compacted session", `document.querySelectorAll('[data-testid="message"]').length === 5`)
	msgs := e.messages()
	if messageIDs(msgs) != "m1,<summary>,m6,m7,m8" {
		t.Fatalf("after apply: %s", messageIDs(msgs))
	}
	var missing []string
	e.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="summary-card"] [data-testid="missing-section"]')].map(b => b.dataset.section))`, &missing)
	if len(missing) != 5 || !strings.Contains(msgs[1].Text, "Edited by a person: ship the benchmark.") {
		t.Errorf("summary card: missing %v, text %q", missing, msgs[1].Text)
	}
	stored := e.storedMessages("browser-preview")
	content := stored[1]["content"].([]any)[0].(map[string]any)["text"]
	if content != kompact.SummaryPrefix+"\n"+edited {
		t.Errorf("stored summary %q", content)
	}
	reqs := e.llm.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Text(), "Keep the API decisions.") || !strings.Contains(reqs[1].Text(), "## Message 4\nRole: assistant") || strings.Contains(reqs[1].Text(), "## Message 5") {
		t.Errorf("%d LLM requests; the last: %s", len(reqs), reqs[len(reqs)-1].Text())
	}
	e.checkNoJSErrors()
}

func TestBrowserTokenImportAndErrors(t *testing.T) {
	const token = "browser-test-token"
	e := newBrowserEnv(t, browserOptions{token: token})
	e.importSession(browserSession(t, "browser-auth"))

	// Without a token the page asks for one.
	e.open("/")
	e.waitFor("the token form", `!document.querySelector('[data-testid="token-form"]').hidden`)
	e.do("enter the token",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), token),
		chromedp.Click(chromedp.CSS(`[data-testid="token-save"]`)),
	)
	e.waitFor("the sessions", `document.querySelector('[data-testid="session-item"][data-session-id="browser-auth"]')`)

	// ?token= works in a fresh tab, and leaves the address bar.
	tab, cancel := chromedp.NewContext(e.ctx)
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate(e.srv.URL+"/?token="+token+"#/s/browser-auth"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('[data-testid="message"]').length === 8`, chromedp.WithPollingTimeout(20*time.Second)),
	); err != nil {
		t.Fatalf("?token=: %v", err)
	}
	if loc, _ := chromedp.Run(tab, chromedp.Location()); strings.Contains(loc, token) {
		t.Errorf("the token stays in the address: %s", loc)
	}
	cancel()

	// A file that is not a session: the API's error, inline.
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"messages": [{"role": "robot", "content": "hi"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e.do("pick a bad file", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{bad}))
	e.waitFor("the import form", `(document.querySelector('[data-testid="import-format"]') || {dataset: {}}).dataset.format === "session"`)
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the import error", `document.querySelector('[data-testid="import-error"]')`)
	var importErr struct {
		Code string `json:"code"`
		Text string `json:"text"`
	}
	e.eval(`JSON.stringify({code: document.querySelector('[data-testid="import-error"]').dataset.code, text: document.querySelector('[data-testid="import-error"]').innerText})`, &importErr)
	if importErr.Code != "invalid_request" || !strings.Contains(importErr.Text, `unknown role "robot"`) {
		t.Errorf("import error: %+v", importErr)
	}

	// The file picker imports a session and opens it.
	good := filepath.Join(dir, "picked.json")
	if err := os.WriteFile(good, []byte(browserSession(t, "browser-picked")), 0o644); err != nil {
		t.Fatal(err)
	}
	e.do("pick a session file", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-input"]`), []string{good}))
	e.click(`[data-testid="import-confirm-ok"]`)
	e.waitFor("the imported session", `(document.querySelector('[data-testid="session-id"]') || {}).textContent === "browser-picked" && document.querySelectorAll('[data-testid="message"]').length === 8`)

	// A new session for an agent without compaction and without its key:
	// no compaction buttons, and the continue error says how to fix it.
	e.do("choose the agent", chromedp.SetValue(chromedp.CSS(`[data-testid="new-session-agent"]`), "nokey"))
	e.click(`[data-testid="new-session"]`)
	e.waitFor("the new session", `document.querySelector('[data-testid="messages-empty"]') && !document.querySelector('[data-testid="compact-off"]').hidden`)
	if n, _ := chromedp.Run(e.ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="compact-up-to-here"], [data-testid="message-menu"], [data-testid="compact-panel"]:not([hidden])').length`)); n != 0 {
		t.Errorf("%d compaction controls for an agent without compaction", n)
	}
	e.do("type a message", chromedp.SendKeys(chromedp.CSS(`[data-testid="continue-input"]`), "hello"))
	e.click(`[data-testid="continue-send"]`)
	e.waitFor("the continue error", `document.querySelector('[data-testid="continue-error"]')`)
	var contErr struct {
		Text     string `json:"text"`
		Messages int    `json:"messages"`
		Input    string `json:"input"`
	}
	e.waitFor("the kept message and an empty box", `document.querySelectorAll('[data-testid="message"]').length === 1 && document.querySelector('[data-testid="continue-input"]').value === ""`)
	e.eval(`JSON.stringify({text: document.querySelector('[data-testid="continue-error"]').innerText,
		messages: document.querySelectorAll('[data-testid="message"]').length,
		input: document.querySelector('[data-testid="continue-input"]').value})`, &contErr)
	if !strings.Contains(contErr.Text, "MOONSHOT_API_KEY is not set") || !strings.Contains(contErr.Text, "export MOONSHOT_API_KEY=<your key>") {
		t.Errorf("continue error: %q", contErr.Text)
	}
	if contErr.Messages != 1 || contErr.Input != "" {
		t.Errorf("after the failed continue: %d messages, input %q", contErr.Messages, contErr.Input)
	}
	e.screenshot("browser-errors.png")
	e.checkNoJSErrors()
}
