// Package codexcli runs a real Codex CLI 0.171.0 headless for tests
// (codex exec --json, exec resume), with a CODEX_HOME whose config.toml
// the test writes (a custom Responses provider), and reads Codex's own
// texts (its checkpoint prompt, its summary prefix) from the installed
// binary, checked by SHA-256, so that no Codex prose is kept in the
// project. The binary is $CODEX_BIN (bash .ci/codex.sh installs it);
// without it the tests skip, and fail under CI=true (testenv).
package codexcli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kompact/internal/testing/testenv"
)

// Version is the Codex CLI version the tests pin.
const Version = "0.171.0"

// Bin returns $CODEX_BIN, checked to be Codex CLI Version.
func Bin(tb testing.TB) string {
	tb.Helper()
	bin := testenv.Var(tb, "CODEX_BIN", "install Codex CLI 0.171.0 (bash .ci/codex.sh) and set CODEX_BIN to the codex it prints")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), Version) {
		tb.Fatalf("CODEX_BIN=%s: %q, %v; want Codex CLI %s (bash .ci/codex.sh installs it)", bin, out, err, Version)
	}
	return bin
}

// A Text is one of Codex's texts as kompact knows it: how it begins, its
// length in bytes and its SHA-256 (as ../shared/codex/README.md gives
// them), and what Codex sends after the text as the binary holds it.
type Text struct {
	Opening string
	Len     int
	SHA256  string
	// Suffix is appended to the binary's bytes (the summary prefix goes
	// out with a newline the literal lacks).
	Suffix string
}

// CheckpointPrompt is the prompt of Codex's local compaction (the last
// user message of its summarisation turn).
var CheckpointPrompt = Text{Opening: "You are performing a CONTEXT CHECKPOINT COMPACTION.", Len: 426,
	SHA256: "ab0c334d4faca17e3afbb9b16967c1b2fdcc7242a9a0880af57949fa236d6d07"}

// SummaryPrefix is what Codex puts before a local compaction's summary.
var SummaryPrefix = Text{Opening: "Another language model started to solve this problem", Len: 400,
	SHA256: "371aca20f23d546135443e5c289f62b304aea1a9ce21cfa0e80e17d4c6020fd0", Suffix: "\n"}

// Read returns the text, read from the binary at $CODEX_BIN: the Len bytes
// (Suffix included) from its Opening, which must hash to SHA256.
func (x Text) Read(tb testing.TB) string {
	tb.Helper()
	bin := Bin(tb)
	f, err := os.Open(bin)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	n := x.Len - len(x.Suffix)
	got, err := find(bufio.NewReaderSize(f, 1<<20), []byte(x.Opening), n)
	if err != nil {
		tb.Fatalf("%s: %v", bin, err)
	}
	text := string(got) + x.Suffix
	sum := sha256.Sum256([]byte(text))
	if hex.EncodeToString(sum[:]) != x.SHA256 {
		tb.Fatalf("%s: the %d bytes from %q hash to %x, not %s: is it Codex CLI %s?", bin, x.Len, x.Opening, sum, x.SHA256, Version)
	}
	return text
}

// find returns the n bytes from the first occurrence of opening in r.
func find(r io.Reader, opening []byte, n int) ([]byte, error) {
	const chunk = 4 << 20
	buf := make([]byte, 0, chunk+n)
	tmp := make([]byte, chunk)
	for {
		k, err := io.ReadFull(r, tmp)
		buf = append(buf, tmp[:k]...)
		if i := bytes.Index(buf, opening); i >= 0 {
			for len(buf)-i < n && err == nil {
				var m int
				m, err = io.ReadFull(r, tmp)
				buf = append(buf, tmp[:m]...)
			}
			if len(buf)-i >= n {
				return append([]byte(nil), buf[i:i+n]...), nil
			}
		}
		if err != nil {
			return nil, fmt.Errorf("no %q in the binary", opening)
		}
		keep := min(len(buf), len(opening)+n)
		buf = append(buf[:0], buf[len(buf)-keep:]...)
	}
}

// Config is what a test's config.toml says.
type Config struct {
	// Provider is the provider's name: "OpenAI" makes Codex compact
	// remotely (a compaction_trigger), any other name locally.
	Provider string
	// BaseURL is the provider's base_url (…/v1: Codex posts to
	// BaseURL + "/responses").
	BaseURL string
	// Model is the model's name ("fake-model" when empty).
	Model string
	// ContextWindow and AutoCompactLimit are model_context_window and
	// model_auto_compact_token_limit (20000 and 8000 when 0).
	ContextWindow, AutoCompactLimit int
}

// KeyEnv is the provider's env_key: the variable Codex reads the API key
// from.
const KeyEnv = "KOMPACT_CODEX_TEST_KEY"

// Key is the API key the tests give Codex.
const Key = "sk-codex-test"

// Home writes a CODEX_HOME holding cfg's config.toml (analytics off) in a
// temporary folder and returns it.
func Home(tb testing.TB, cfg Config) string {
	tb.Helper()
	if cfg.Model == "" {
		cfg.Model = "fake-model"
	}
	if cfg.ContextWindow == 0 {
		cfg.ContextWindow = 20000
	}
	if cfg.AutoCompactLimit == 0 {
		cfg.AutoCompactLimit = 8000
	}
	home := tb.TempDir()
	toml := fmt.Sprintf(`model = %q
model_provider = "test"
model_context_window = %d
model_auto_compact_token_limit = %d
check_for_update_on_startup = false

[model_providers.test]
name = %q
base_url = %q
wire_api = "responses"
env_key = %q

[analytics]
enabled = false
`, cfg.Model, cfg.ContextWindow, cfg.AutoCompactLimit, cfg.Provider, cfg.BaseURL, KeyEnv)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(toml), 0o600); err != nil {
		tb.Fatal(err)
	}
	return home
}

// Run is what one codex exec printed.
type Run struct {
	// ThreadID is thread.started's thread_id.
	ThreadID string
	// Messages are the texts of the agent_message items completed.
	Messages []string
	// Events are the JSON lines printed, each decoded.
	Events []map[string]any
	// Completed reports whether a turn.completed was printed, Failed
	// whether a turn.failed or an error event was.
	Completed, Failed bool
	// Stderr is what Codex wrote there; Err how it exited.
	Stderr string
	Err    error
	// Took is how long it ran.
	Took time.Duration
}

// Timeout bounds one codex exec.
const Timeout = 2 * time.Minute

// Exec runs codex exec --skip-git-repo-check --json with prompt, in a new
// working folder, with CODEX_HOME home.
func Exec(tb testing.TB, home, prompt string, extra ...string) Run {
	tb.Helper()
	return run(tb, home, append(append([]string{"exec", "--skip-git-repo-check", "--json"}, extra...), prompt))
}

// Resume runs codex exec --skip-git-repo-check --json resume thread
// prompt.
func Resume(tb testing.TB, home, thread, prompt string, extra ...string) Run {
	tb.Helper()
	return run(tb, home, append(append([]string{"exec", "--skip-git-repo-check", "--json"}, extra...), "resume", thread, prompt))
}

func run(tb testing.TB, home string, args []string) Run {
	tb.Helper()
	bin := Bin(tb)
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = workDir(tb, home)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, KeyEnv+"="+Key, "NO_COLOR=1", "RUST_LOG=error")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader("")
	start := time.Now()
	err := cmd.Run()
	r := Run{Stderr: stderr.String(), Err: err, Took: time.Since(start)}
	r.read(stdout.Bytes())
	if ctx.Err() != nil {
		tb.Fatalf("codex %s ran past %v (a loop?); stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), Timeout, stdout.String(), r.Stderr)
	}
	return r
}

// workDir is the working folder Codex runs in: one per home, so that a
// resume finds what the first run left.
func workDir(tb testing.TB, home string) string {
	dir := filepath.Join(home, "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// read decodes the JSON lines codex exec printed.
func (r *Run) read(out []byte) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		var ev map[string]any
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		r.Events = append(r.Events, ev)
		switch ev["type"] {
		case "thread.started":
			r.ThreadID, _ = ev["thread_id"].(string)
		case "item.completed":
			if item, ok := ev["item"].(map[string]any); ok && item["type"] == "agent_message" {
				text, _ := item["text"].(string)
				r.Messages = append(r.Messages, text)
			}
		case "turn.completed":
			r.Completed = true
		case "turn.failed", "error":
			r.Failed = true
		}
	}
}

// String sums the run up for a failure message.
func (r Run) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "thread %s, completed %v, failed %v, exit %v, %v\n", r.ThreadID, r.Completed, r.Failed, r.Err, r.Took)
	for _, ev := range r.Events {
		line, _ := json.Marshal(ev)
		b.Write(line)
		b.WriteByte('\n')
	}
	if r.Stderr != "" {
		b.WriteString("stderr: " + strconv.Quote(tail(r.Stderr, 2000)))
	}
	return b.String()
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
