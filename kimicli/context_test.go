package kimicli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
	"kompact/kimicli"
)

const placeholderPrompt = "You are Kimi Code CLI. (placeholder agent system prompt used by the parity harness)"

// TestContextJSONLMatchesVectors: the file kompact writes after compacting
// each vector's input is byte for byte kimi-cli's context_jsonl_after.
func TestContextJSONLMatchesVectors(t *testing.T) {
	body, _ := vectors.KimiPrompt(t)
	prompt := kompact.Prompt{Body: body, Source: kompact.PromptFile}
	n := 0
	for _, v := range vectors.Load(t) {
		if v.Expected.ContextJSONLAfter == nil {
			continue
		}
		n++
		t.Run(v.Name(), func(t *testing.T) {
			s := v.Session(t)
			plan, err := kimi.Prepare(s, kimi.Options{MaxPreserved: v.Params.MaxPreserved, Instructions: v.Params.CustomInstruction, Prompt: prompt})
			if err != nil {
				t.Fatal(err)
			}
			sp := placeholderPrompt
			var got []byte
			if plan.Noop {
				got = kimicli.CompactedFile(&sp, plan.Preserved(), int64(kompact.EstimateTokens(plan.Preserved())))
			} else {
				res, err := plan.Apply(v.Answer())
				if err != nil {
					t.Fatal(err)
				}
				got = kimicli.CompactedFile(&sp, res.KimiMessages, int64(res.EstimatedTokenCount))
			}
			want := strings.Join(v.Expected.ContextJSONLAfter, "\n") + "\n"
			if string(got) != want {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
				for i := range wl {
					if i >= len(gl) || gl[i] != wl[i] {
						g := "<missing>"
						if i < len(gl) {
							g = gl[i]
						}
						t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, g, wl[i])
					}
				}
				t.Fatalf("extra lines: %q", gl[len(wl):])
			}
			// Reading the written file gives the same messages back.
			c := kimicli.ParseContext(got)
			if len(c.Skipped) != 0 || c.SystemPrompt == nil || *c.SystemPrompt != sp {
				t.Fatalf("read back: skipped %v, system prompt %v", c.Skipped, c.SystemPrompt)
			}
			var again []byte
			for _, m := range c.Messages() {
				again = kimicli.AppendMessageLine(again, &m)
			}
			if !strings.Contains(string(got), string(again)) {
				t.Fatal("messages read back do not write the same lines")
			}
		})
	}
	if n == 0 {
		t.Fatal("no vector has context_jsonl_after")
	}
}

func TestParseContextTolerance(t *testing.T) {
	data := "{\"role\": \"_system_prompt\", \"content\": \"sys\"}\n" +
		"\n" +
		"   \n" +
		"{not json\n" +
		"[1,2]\n" +
		"null\n" +
		"{\"content\":\"no role\"}\n" +
		"{\"role\":\"user\",\"content\":\"hello\"}\n" +
		"{\"role\":\"robot\",\"content\":\"x\"}\n" +
		"{\"role\": \"_checkpoint\", \"id\": 3}\n" +
		"{\"role\": \"_usage\", \"token_count\": 99}\n" +
		"{\"role\":\"assistant\",\"content\":[{\"type\":\"think\",\"think\":\"t\",\"encrypted\":null},{\"type\":\"text\",\"text\":\"hi\"}],\"tool_calls\":[{\"type\":\"function\",\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}\r\n" +
		"{\"role\":\"user\",\"content\":\"last\"}"
	c := kimicli.ParseContext([]byte(data))
	lines := []int{}
	for _, s := range c.Skipped {
		lines = append(lines, s.Line)
	}
	if got, _ := json.Marshal(lines); string(got) != "[4,5,6,7,9]" {
		t.Fatalf("skipped lines %s (%s)", got, c.SkippedSummary())
	}
	if !strings.Contains(c.SkippedSummary(), "line 9: message not read") {
		t.Errorf("summary %q", c.SkippedSummary())
	}
	msgs := c.Messages()
	if len(msgs) != 3 || msgs[1].ToolCalls[0].Arguments != nil || msgs[2].Content[0].Text != "last" {
		t.Fatalf("messages %+v", msgs)
	}
	if c.TokenCount() != 99 || *c.SystemPrompt != "sys" {
		t.Errorf("usage %d, system prompt %q", c.TokenCount(), *c.SystemPrompt)
	}
	// A tool call without arguments is kept, and written so kimi-cli can
	// read it back: with "arguments": null.
	line := string(kimicli.AppendMessageLine(nil, &msgs[1]))
	if !strings.Contains(line, `"function":{"name":"f","arguments":null}`) {
		t.Errorf("line %s", line)
	}
	s := c.Session()
	if s.Messages[0].Role != kompact.RoleSystem || len(s.Messages) != 4 {
		t.Errorf("session %+v", s.Messages)
	}
}

// TestContextExampleRoundTrip compacts ../shared's example session with its
// scripted summary and compares with kimi-cli's file byte for byte.
func TestContextExampleRoundTrip(t *testing.T) {
	dir := filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example")
	before, err := os.ReadFile(filepath.Join(dir, "before.context.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(filepath.Join(dir, "after.context.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c := kimicli.ParseContext(before)
	if len(c.Skipped) != 0 {
		t.Fatalf("skipped %v", c.Skipped)
	}
	// Rewriting what was read gives the same message lines.
	for _, r := range c.Records {
		if r.Kind == "message" {
			line := string(kimicli.AppendMessageLine(nil, &r.Message))
			want := strings.Split(string(before), "\n")[r.Line-1] + "\n"
			if line != want {
				t.Errorf("line %d:\n got %s want %s", r.Line, line, want)
			}
		}
	}
	plan, err := kimi.Prepare(&kompact.Session{Messages: c.Messages()}, kimi.Options{MaxPreserved: 2})
	if err != nil || plan.Noop {
		t.Fatalf("prepare: %v %v", err, plan)
	}
	// The example's _usage of 17 means the scripted answer reported 12
	// output tokens: 12 + (len("thanks") + len("You're welcome.")) / 4.
	res, err := plan.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart("<current_focus>\nDemo.\n</current_focus>")}, Usage: &kompact.Usage{Output: 12}})
	if err != nil {
		t.Fatal(err)
	}
	got := kimicli.CompactedFile(c.SystemPrompt, res.KimiMessages, int64(res.EstimatedTokenCount))
	if string(got) != string(after) {
		t.Fatalf("compacted file differs:\n%s\nwant:\n%s", got, after)
	}
}

func FuzzParseContext(f *testing.F) {
	f.Add([]byte("{\"role\": \"_system_prompt\", \"content\": \"s\"}\n{\"role\":\"user\",\"content\":\"x\"}\n"))
	f.Add([]byte("\n\n{bad\n[]\n{\"role\":\"tool\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"u\",\"id\":null}}],\"tool_call_id\":\"c\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := kimicli.ParseContext(data)
		nonBlank := 0
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(strings.TrimSuffix(l, "\r")) != "" {
				nonBlank++
			}
		}
		// Every non-blank line is either read or reported.
		if got := len(c.Records) + len(c.Skipped); got != nonBlank {
			t.Fatalf("%d records + %d skipped for %d non-blank lines", len(c.Records), len(c.Skipped), nonBlank)
		}
		for _, s := range c.Skipped {
			if s.Line < 1 || s.Reason == "" {
				t.Fatalf("bad skip report %+v", s)
			}
		}
	})
}

// TestParseContextRecordFieldReasons pins the reason given for each record
// whose required field is missing or of another type.
func TestParseContextRecordFieldReasons(t *testing.T) {
	data := `{"content":"no role"}` + "\n" +
		`{"role":5}` + "\n" +
		`{"role":"_system_prompt"}` + "\n" +
		`{"role":"_system_prompt","content":1}` + "\n" +
		`{"role":"_checkpoint","id":"3"}` + "\n" +
		`{"role":"_checkpoint"}` + "\n" +
		`{"role":"_usage","token_count":1.5}` + "\n" +
		`{"role":"_usage","token_count":7}` + "\n"
	c := kimicli.ParseContext([]byte(data))
	want := `line 1: no "role" string; line 2: no "role" string; ` +
		`line 3: _system_prompt without a "content" string; line 4: _system_prompt without a "content" string; ` +
		`line 5: _checkpoint without an integer "id"; line 6: _checkpoint without an integer "id"; ` +
		`line 7: _usage without an integer "token_count"`
	if got := c.SkippedSummary(); got != want {
		t.Errorf("skipped\n got %s\nwant %s", got, want)
	}
	if len(c.Records) != 1 || c.Records[0].TokenCount != 7 {
		t.Errorf("records %+v", c.Records)
	}
}
