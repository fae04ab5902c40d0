// Package kcvectors loads the Kimi Code 2.1.0 vectors of kimicode/testdata/vectors for
// tests: it fills the placeholders that stand for Kimi Code's texts from
// ../shared/kimi-code/texts (the project never holds them) and puts a machine's values in
// place of the recording's ($KIMI_CODE_HOME, $SESSION_ID, …).
package kcvectors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"kompact/internal/vectors"
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

// Fill replaces each placeholder of data by its piece of texts, escaped as inside a JSON
// string (see the vectors' README).
func Fill(t testing.TB, texts map[string]string, data []byte) []byte {
	t.Helper()
	var bad error
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
	return filepath.Join(filepath.Dir(file), "..", "..", "kimicode", "testdata", "vectors")
}

// Case is one recorded case (its case.json).
type Case struct {
	Name           string `json:"name"`
	Dir            string `json:"-"`
	MaxContextSize int    `json:"max_context_size"`
	Compactions    []struct {
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
	} `json:"compactions"`
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
		`"$TIME"`, "1767225600000").Replace(string(data))
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
