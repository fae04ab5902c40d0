package kcvectors

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"kompact/internal/testing/testenv"
	"kompact/internal/testing/vectors"
)

// TestKimiCodeTextsNotInTheProject fails when a line of Kimi Code's texts
// (../shared/kimi-code/texts), of the system prompts and tool descriptions its sessions
// record (../shared/kimi-code/recorded: issue 39 §3) or of kimi-cli's compact.md appears
// in a tracked file, as written or escaped in a JSON string: third-party texts are read
// from ../shared in tests and from the user's installation at run time, never kept in the
// project. It looks for every line, sentence and clause of 30 characters or more.
func TestKimiCodeTextsNotInTheProject(t *testing.T) {
	var lines []string
	texts := Texts(t)
	body, _ := vectors.KimiPrompt(t)
	bodies := append([]string{body}, mapValues(texts)...)
	recorded := Recorded(t)
	for _, name := range sortedKeys(recorded) {
		bodies = append(bodies, recordedProse(t, name, recorded[name])...)
	}
	for _, b := range bodies {
		// Lines, cut at template variables, then sentences, then clauses.
		b = templateVar.ReplaceAllString(b, "\n")
		b += "\n" + strings.ReplaceAll(b, ". ", ".\n")
		b += "\n" + clause.ReplaceAllString(b, "\n")
		for _, l := range strings.Split(b, "\n") {
			if l = strings.TrimSpace(l); len(l) >= 30 {
				lines = append(lines, l, jsonEscape(l))
			}
		}
	}
	root := filepath.Join(Dir(), "..", "..", "..")
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	testenv.Require(t, err == nil, "git ls-files failed", "run the tests in a git checkout with git installed")
	// The probes by their first keyLen bytes: each file is read once, a window sliding
	// over it.
	const keyLen = 24
	byKey := map[string][]string{}
	for _, l := range lines {
		byKey[l[:keyLen]] = append(byKey[l[:keyLen]], l)
	}
	n := 0
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		n++
		if l := findProbe(data, byKey, keyLen); l != "" {
			t.Errorf("%s holds a line of a third-party text: %.60q", f, l)
		}
	}
	t.Logf("checked %d tracked files for %d probes", n, len(lines))
	if n < 100 || len(lines) < 2000 {
		t.Fatalf("checked %d files for %d lines: the guard checked too little", n, len(lines))
	}
}

// TestFillRestoresTexts: filling the placeholders of a case restores the texts Kimi Code
// sent (the instruction piece before its custom instruction is there, whole).
func TestFillRestoresTexts(t *testing.T) {
	texts := Texts(t)
	for _, c := range Cases(t) {
		b := c.Read(t, texts, "compaction_1/compaction_request.json")
		if bytes.Contains(b, []byte("{{kimi-code:")) {
			t.Errorf("%s: a placeholder is left", c.Name)
		}
		first := strings.SplitN(texts["compaction-instruction.md"], "\n", 2)[0]
		if !bytes.Contains(b, []byte(first)) {
			t.Errorf("%s: the filled request lacks the instruction's first line", c.Name)
		}
	}
}

// findProbe returns the first probe of byKey found in data, "" for none.
func findProbe(data []byte, byKey map[string][]string, keyLen int) string {
	for i := 0; i+keyLen <= len(data); i++ {
		for _, l := range byKey[string(data[i:i+keyLen])] {
			if bytes.HasPrefix(data[i:], []byte(l)) {
				return l
			}
		}
	}
	return ""
}

var clause = regexp.MustCompile(`[:;,—] `)

func mapValues(m map[string]string) []string {
	var out []string
	for _, f := range TextFiles {
		out = append(out, m[f])
	}
	return out
}

// TestWorkspaceID: Kimi Code's folder name of a work dir, as the harness's template.py
// computes it (its encodeWorkDirKey).
func TestWorkspaceID(t *testing.T) {
	if got := WorkspaceID("/tmp/x/work"); got != "wd_work_8915b7f5e21c" {
		t.Fatalf("WorkspaceID = %s", got)
	}
}

// recordedProse is the prose of a recorded file: a system prompt whole, the descriptions
// of a tools array (the tools' and their parameters').
func recordedProse(t *testing.T, name, body string) []string {
	if !strings.HasSuffix(name, ".json") {
		return []string{body}
	}
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "description" {
					out = append(out, s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	if len(out) == 0 {
		t.Fatalf("%s: no descriptions", name)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
