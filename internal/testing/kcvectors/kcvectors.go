// Package kcvectors loads the Kimi Code 2.1.0 vectors of kimicode/testdata/vectors for
// tests: it fills the placeholders that stand for Kimi Code's texts from
// ../shared/kimi-code/texts and for the system prompts and tools its sessions record from
// ../shared/kimi-code/recorded (the project never holds them), and puts a machine's values
// in place of the recording's ($KIMI_CODE_HOME, $SESSION_ID, …).
package kcvectors

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"kompact/internal/kcworkspace"
	"kompact/internal/testing/vectors"
)

// TextFiles are the files of ../shared/kimi-code/texts.
var TextFiles = []string{"compaction-instruction.md", "compaction-summary-prefix.md",
	"context-recovery-footer.md", "continuation-note.txt", "elision-note.txt"}

// Texts returns Kimi Code's texts by file name, read from ../shared/kimi-code/texts (a test
// skips without them, fails under CI=true).
func Texts(t testing.TB) map[string]string {
	t.Helper()
	dir := filepath.Join(vectors.SharedDir(t), "kimi-code", "texts")
	out := map[string]string{}
	for _, f := range TextFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

var templateVar = regexp.MustCompile(`\$\{[a-z_]+\}`)

// placeholder is {{kimi-code:FILE#i}} or {{kimi-code:FILE#i~}}.
var placeholder = regexp.MustCompile(`\{\{kimi-code:([a-z.-]+)#(\d+)(~?)\}\}`)

// recordedPlaceholder is {{kimi-code-recorded:FILE}}, FILE a file of
// ../shared/kimi-code/recorded.
var recordedPlaceholder = regexp.MustCompile(`\{\{kimi-code-recorded:([a-z0-9.-]+)\}\}`)

// Recorded returns the files of ../shared/kimi-code/recorded by name (a system prompt as
// its text, a tools array as its JSON bytes), each checked against the SHA-256 its name
// begins (a test skips without them, fails under CI=true).
func Recorded(t testing.TB) map[string]string {
	t.Helper()
	dir := filepath.Join(vectors.SharedDir(t), "kimi-code", "recorded")
	names, err := filepath.Glob(filepath.Join(dir, "*-*.*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no recorded system prompts or tools in %s (%v)", dir, err)
	}
	out := map[string]string{}
	for _, path := range names {
		name := filepath.Base(path)
		m := recordedName.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if sum, hash := sha256.Sum256(b), m[1]+m[2]; hex.EncodeToString(sum[:])[:len(hash)] != hash {
			t.Fatalf("%s: its SHA-256 is %x, not the one its name gives", path, sum)
		}
		out[name] = string(b)
	}
	return out
}

// recordedName is a recorded file's name: system-prompt-HASH.txt or tools-HASH.json.
var recordedName = regexp.MustCompile(`^(?:system-prompt-([0-9a-f]{12})\.txt|tools-([0-9a-f]{12})\.json)$`)

// Fill replaces each placeholder of data by its piece of texts, escaped as inside a JSON
// string, and each recorded one by its file of ../shared/kimi-code/recorded: a system
// prompt escaped as inside a JSON string, a tools array as it stands (see the vectors'
// README).
func Fill(t testing.TB, texts map[string]string, data []byte) []byte {
	t.Helper()
	var bad error
	if recordedPlaceholder.Match(data) {
		recorded := Recorded(t)
		data = recordedPlaceholder.ReplaceAllFunc(data, func(m []byte) []byte {
			name := string(recordedPlaceholder.FindSubmatch(m)[1])
			body, ok := recorded[name]
			switch {
			case !ok:
				bad = fmt.Errorf("placeholder %s names no file of ../shared/kimi-code/recorded", m)
				return m
			case strings.HasSuffix(name, ".json"):
				return []byte(body)
			}
			return []byte(jsonEscape(body))
		})
	}
	out := placeholder.ReplaceAllFunc(data, func(m []byte) []byte {
		g := placeholder.FindSubmatch(m)
		body, ok := texts[string(g[1])]
		pieces := templateVar.Split(body, -1)
		var i int
		fmt.Sscan(string(g[2]), &i)
		if !ok || i >= len(pieces) {
			bad = fmt.Errorf("placeholder %s names no piece of the texts", m)
			return m
		}
		p := pieces[i]
		if len(g[3]) > 0 {
			p = strings.TrimRight(p, " \t\n\r\v\f\u00a0\ufeff\u2028\u2029")
		}
		return []byte(jsonEscape(p))
	})
	if bad != nil {
		t.Fatal(bad)
	}
	return out
}

// jsonEscape is s as inside a JSON string, escaped as JSON.stringify does.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Dir is kimicode/testdata/vectors.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "kimicode", "testdata", "vectors")
}

// Case is one recorded case (its case.json).
type Case struct {
	Name           string       `json:"name"`
	Dir            string       `json:"-"`
	MaxContextSize int          `json:"max_context_size"`
	Compactions    []Compaction `json:"compactions"`
}

// Compaction is one compaction of a case (case.json's compactions).
type Compaction struct {
	Dir             string `json:"dir"`
	Source          string `json:"source"`
	Instruction     string `json:"instruction"`
	TurnBoundary    bool   `json:"turn_boundary"`
	NextPrompt      string `json:"next_prompt"`
	WireLinesBefore int    `json:"wire_lines_before"`
	SummaryResponse struct {
		Text  string `json:"text"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	} `json:"summary_response"`
}

// EachCompaction runs fn as a subtest for every compaction of every case.
func EachCompaction(t *testing.T, fn func(t *testing.T, c *Case, cp Compaction)) {
	for _, c := range Cases(t) {
		for _, cp := range c.Compactions {
			t.Run(c.Name+"/"+cp.Dir, func(t *testing.T) { fn(t, c, cp) })
		}
	}
}

// Cases returns every recorded case, sorted by name.
func Cases(t testing.TB) []*Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(), "*", "case.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Kimi Code vectors in %s (%v)", Dir(), err)
	}
	sort.Strings(files)
	var out []*Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &Case{Dir: filepath.Dir(f)}
		if err := json.Unmarshal(b, c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, c)
	}
	return out
}

// Env is what a recording's templated values become on this machine.
type Env struct {
	Home, Work, SessionID, WorkspaceID, Date string
}

// Untemplate puts e's values in place of the recording's placeholders; the times, UUIDs and
// message ids become fixed stand-ins (Kimi Code reads none of them back as numbers it checks).
func (e Env) Untemplate(data []byte) []byte {
	s := strings.NewReplacer("$KIMI_CODE_HOME", e.Home, "$WORK_DIR", e.Work, "$SESSION_ID", e.SessionID,
		"$WORKSPACE_ID", e.WorkspaceID, "$DATE", e.Date, "$ISOTIME", "2026-01-01T00:00:00.000Z",
	).Replace(string(data))
	n := int64(0)
	s = timePlaceholder.ReplaceAllStringFunc(s, func(string) string {
		n++
		return fmt.Sprint(1767225600000 + n)
	})
	s = uuidPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		var n int
		fmt.Sscan(m[len("$UUID_"):], &n)
		return fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
	})
	s = msgPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		var n int
		fmt.Sscan(m[len("$MSG_ID_"):], &n)
		return fmt.Sprintf("msg_01J0000000000000000000%04d", n)
	})
	return []byte(s)
}

var (
	uuidPlaceholder = regexp.MustCompile(`\$UUID_\d+`)
	timePlaceholder = regexp.MustCompile(`"\$TIME"`)
	msgPlaceholder  = regexp.MustCompile(`\$MSG_ID_\d+`)
)

// Read returns the file rel of case c with its texts filled (not untemplated).
func (c *Case) Read(t testing.TB, texts map[string]string, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return Fill(t, texts, b)
}

// WorkspaceID is Kimi Code's folder name for the sessions of workDir (kcworkspace.ID).
func WorkspaceID(workDir string) string { return kcworkspace.ID(workDir) }

// Materialized is a recorded session laid out as Kimi Code keeps it.
type Materialized struct {
	Env
	// SessionDir is …/sessions/<workspace>/<session_id>.
	SessionDir string
}

// Materialize lays out the session of compaction dir of c (its session_before) in a fresh
// Kimi Code home whose config.toml points the recorded model at baseURL, with the case's
// files in a work dir named work.
func (c *Case) Materialize(t testing.TB, texts map[string]string, dir, baseURL string) *Materialized {
	t.Helper()
	root := t.TempDir()
	m := &Materialized{Env: Env{Home: filepath.Join(root, "home"), Work: filepath.Join(root, "work"),
		SessionID: "session_7f3c1b2a-5d4e-4f60-8a71-92b3c4d5e6f7", Date: time.Now().Format("2006-01-02")}}
	m.WorkspaceID = WorkspaceID(m.Work)
	m.SessionDir = filepath.Join(m.Home, "sessions", m.WorkspaceID, m.SessionID)
	var files map[string]string
	if err := json.Unmarshal(c.Read(t, texts, "files.json"), &files); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(kimiCodeConfig, baseURL, c.MaxContextSize)
	write := map[string][]byte{filepath.Join(m.Home, "config.toml"): []byte(config)}
	for name, body := range files {
		write[filepath.Join(m.Work, name)] = []byte(body)
	}
	for _, rel := range []string{"state.json", "agents/main/wire.jsonl"} {
		write[filepath.Join(m.SessionDir, rel)] = m.Untemplate(c.Read(t, texts, dir+"/session_before/"+rel))
	}
	for path, body := range write {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(m.Work, 0o755); err != nil {
		t.Fatal(err)
	}
	return m
}

// kimiCodeConfig is the harness's config.toml: the recorded model alias "mock" on an
// OpenAI-compatible server.
const kimiCodeConfig = `default_model = "mock"
telemetry = false

[providers.mock]
type = "openai"
base_url = "%s"
api_key = "sk-test"

[models.mock]
provider = "mock"
model = "mock-model"
max_context_size = %d
capabilities = [ "tool_use" ]
`

// Package writes a stand-in for Kimi Code's package folder (dist/main.mjs) holding texts
// where kompact looks for them in the real bundle, for tests that run kompact without a
// Kimi Code installation; it returns the folder (KIMI_CODE_PATH).
func Package(t testing.TB, texts map[string]string) string {
	t.Helper()
	lit := func(name string) string {
		b, _ := json.Marshal(texts[name])
		return string(b)
	}
	elision := strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(texts["elision-note.txt"])
	elision = strings.ReplaceAll(elision, "${omitted_tokens}", "${String(omittedTokens)}")
	src := "var compaction_instruction_default = " + lit("compaction-instruction.md") + ";\n" +
		"var compaction_summary_prefix_default = " + lit("compaction-summary-prefix.md") + ";\n" +
		"var context_recovery_footer_default = " + lit("context-recovery-footer.md") + ";\n" +
		"function buildCompactionElisionText(omittedTokens) {\n\treturn wrapSystemReminder(`" + elision + "`);\n}\n" +
		"function buildCompactionContinuationText() {\n\treturn wrapSystemReminder(" + lit("continuation-note.txt") + ");\n}\n"
	dir := filepath.Join(t.TempDir(), "kimi-code")
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "main.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
