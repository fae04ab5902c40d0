// Package vectors loads the kimi-cli parity material kept in ../shared for
// tests: the golden vectors produced by kimi-cli's own code and its genuine
// compaction prompt.
//
// The material is looked up in $KOMPACT_SHARED, or in the "shared" folder
// beside the module root. When it is absent, tests that need it skip, except
// when CI=true: then they fail, so that a CI run never passes without them.
package vectors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/testenv"
	"kompact/openai"
)

// Vector is one golden vector (schema_version 1, see the vectors' README).
type Vector struct {
	File          string `json:"-"`
	SchemaVersion int    `json:"schema_version"`
	ID            string `json:"id"`
	Description   string `json:"description"`
	Params        struct {
		MaxPreserved             int    `json:"max_preserved_messages"`
		MaxPreservedIsDefault    bool   `json:"max_preserved_messages_is_default"`
		CustomInstruction        string `json:"custom_instruction"`
		CustomInstructionDefault bool   `json:"custom_instruction_is_default"`
	} `json:"params"`
	Input struct {
		Messages []json.RawMessage `json:"messages"`
	} `json:"input"`
	LLM struct {
		Stream []StreamItem `json:"stream"`
		Usage  *struct {
			PromptTokens        int64  `json:"prompt_tokens"`
			CompletionTokens    int64  `json:"completion_tokens"`
			CachedTokens        *int64 `json:"cached_tokens"`
			PromptTokensDetails *struct {
				CachedTokens *int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	} `json:"llm"`
	Expected struct {
		Outcome string `json:"outcome"`
		Prepare struct {
			CompactMessage json.RawMessage   `json:"compact_message"`
			ToPreserve     []json.RawMessage `json:"to_preserve"`
		} `json:"prepare"`
		LLMRequest *struct {
			Messages json.RawMessage `json:"messages"`
			Tools    []any           `json:"tools"`
			Model    string          `json:"model"`
			Stream   bool            `json:"stream"`
		} `json:"llm_request"`
		Compact struct {
			Messages            json.RawMessage `json:"messages"`
			Usage               json.RawMessage `json:"usage"`
			EstimatedTokenCount *int            `json:"estimated_token_count"`
			Error               *struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"compact"`
		WireMessagesAfter   json.RawMessage `json:"wire_messages_after"`
		ContextJSONLAfter   []string        `json:"context_jsonl_after"`
		ContextRestoreLossy json.RawMessage `json:"context_restore_lossy"`
	} `json:"expected"`
}

// StreamItem is one chunk of the fake model's scripted answer.
type StreamItem struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Think     string `json:"think"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// InputJSON returns the vector's input as a session document.
func (v *Vector) InputJSON() []byte {
	b, _ := json.Marshal(map[string]any{"messages": v.Input.Messages})
	return b
}

// Session returns the vector's input decoded (kompact.DecodeSession); one
// that does not decode is fatal.
func (v *Vector) Session(t testing.TB) *kompact.Session {
	t.Helper()
	s, err := kompact.DecodeSession(v.InputJSON())
	if err != nil {
		t.Fatalf("%s: decode the input: %v", v.Name(), err)
	}
	return s
}

// FindShared returns the shared reference folder and whether it exists.
func FindShared() (string, bool) {
	dir := os.Getenv("KOMPACT_SHARED")
	if dir == "" {
		root, err := moduleRoot()
		if err == nil {
			dir = filepath.Join(root, "..", "shared")
		}
	}
	st, err := os.Stat(filepath.Join(dir, "kimi-parity", "vectors"))
	return dir, dir != "" && err == nil && st.IsDir()
}

// Inputs returns the input session documents of all vectors, or nil when
// the shared folder is absent. Fuzz tests seed their corpus with them.
func Inputs() [][]byte {
	dir, ok := FindShared()
	if !ok {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "kimi-parity", "vectors", "*.json"))
	sort.Strings(files)
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var v Vector
		if json.Unmarshal(data, &v) == nil {
			out = append(out, v.InputJSON())
		}
	}
	return out
}

// SharedDir returns the shared reference folder, or skips (fails under
// CI=true) when it is absent.
func SharedDir(t testing.TB) string {
	t.Helper()
	dir, ok := FindShared()
	testenv.Require(t, ok, fmt.Sprintf("shared reference material not found (looked in %q)", dir),
		"put ../shared beside the checkout or set KOMPACT_SHARED")
	return dir
}

// Load returns every vector, sorted by file name.
func Load(t testing.TB) []*Vector {
	t.Helper()
	dir := filepath.Join(SharedDir(t), "kimi-parity", "vectors")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var out []*Vector
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v := &Vector{File: filepath.Base(f)}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if v.SchemaVersion != 1 {
			t.Fatalf("%s: schema_version %d, want 1", f, v.SchemaVersion)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		t.Fatalf("no vectors in %s", dir)
	}
	return out
}

// KimiPrompt returns the genuine kimi-cli compact.md and its path.
func KimiPrompt(t testing.TB) (body, path string) {
	t.Helper()
	path = filepath.Join(SharedDir(t), "kimi-cli", "compact.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), path
}

// Name returns a short test name for the vector: its file name without
// ".json".
func (v *Vector) Name() string { return strings.TrimSuffix(v.File, ".json") }

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// JSONEqual reports whether got and want hold the same JSON value, and
// if not, a message showing both.
func JSONEqual(got, want []byte) (bool, string) {
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return false, "got invalid JSON: " + err.Error() + "\n" + string(got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return false, "want invalid JSON: " + err.Error()
	}
	if reflect.DeepEqual(g, w) {
		return true, ""
	}
	gi, _ := json.MarshalIndent(g, "", " ")
	wi, _ := json.MarshalIndent(w, "", " ")
	return false, "got:\n" + string(gi) + "\nwant:\n" + string(wi)
}

// Answer plays the vector's scripted stream through the same accumulator the
// LLM client uses, giving the answer kimi-cli's code received.
func (v *Vector) Answer() kompact.Answer {
	var acc openai.Accumulator
	calls := 0
	for _, it := range v.LLM.Stream {
		switch it.Type {
		case "think":
			acc.Reasoning(it.Think)
		case "text":
			acc.Content(it.Text)
		case "tool_call":
			acc.ToolCall(calls, it.ID, it.Name, it.Arguments)
			calls++
		}
	}
	if u := v.LLM.Usage; u != nil {
		var details *int64
		if u.PromptTokensDetails != nil {
			details = u.PromptTokensDetails.CachedTokens
		}
		acc.Usage(openai.UsageFrom(u.PromptTokens, u.CompletionTokens, u.CachedTokens, details))
	}
	return acc.Answer()
}
