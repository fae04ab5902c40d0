package kompact

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"unicode/utf8"
)

// KimiPromptSHA256 is the SHA-256 of kimi-cli's own compaction prompt
// (src/kimi_cli/prompts/compact.md at kimi-cli 1.49.0, 1858 bytes). kompact
// does not contain that text; it recognises it by this hash.
const KimiPromptSHA256 = "24753a19a3c0dfabc5545a103666a559cc7dd8caa963715fdc6ca7dd787a0e0a"

// PromptSource says where the compaction prompt body came from.
type PromptSource string

// The prompt sources, in the order ResolvePrompt prefers them.
const (
	// PromptInline is the agent configuration's "prompt" field.
	PromptInline PromptSource = "inline"
	// PromptFile is a file named by the configuration's "prompt_file" or by a
	// command-line flag.
	PromptFile PromptSource = "prompt_file"
	// PromptKimiCLI is kimi-cli's own compact.md, found on this machine.
	PromptKimiCLI PromptSource = "kimi-cli"
	// PromptBuiltin is kompact's own prompt, written for kompact.
	PromptBuiltin PromptSource = "builtin"
)

// Prompt is the body of the compaction prompt and where it came from.
type Prompt struct {
	Body   string
	Source PromptSource
	// Origin is the file the body was read from, when it was read from one.
	Origin string
}

// Genuine reports whether the body is byte for byte kimi-cli's compact.md.
func (p Prompt) Genuine() bool {
	sum := sha256.Sum256([]byte(p.Body))
	return fmt.Sprintf("%x", sum) == KimiPromptSHA256
}

// Describe says in one line which prompt is in effect and whether it is the
// genuine kimi-cli prompt.
func (p Prompt) Describe() string {
	where := ""
	if p.Origin != "" {
		where = " (" + p.Origin + ")"
	}
	var what string
	switch p.Source {
	case PromptInline:
		what = "the agent configuration's inline prompt"
	case PromptFile:
		what = "prompt file" + where
	case PromptKimiCLI:
		what = "kimi-cli's installed compact.md" + where
	case PromptBuiltin:
		what = "kompact's built-in prompt"
	default:
		what = "prompt of unknown source" + where
	}
	if p.Genuine() {
		return "prompt: " + what + ": the genuine kimi-cli prompt (sha256 " + KimiPromptSHA256[:12] + "…)"
	}
	if p.Source == PromptBuiltin {
		return "prompt: " + what + ", not kimi-cli's own text; install kimi-cli or set KIMI_CLI_PATH for exact parity"
	}
	return "prompt: " + what + ", not the genuine kimi-cli prompt"
}

// ResolvePrompt returns the first candidate with a non-empty body, or the
// built-in prompt when there is none. Pass candidates in priority order:
// inline, prompt file, kimi-cli's installed file.
func ResolvePrompt(candidates ...Prompt) Prompt {
	for _, c := range candidates {
		if c.Body != "" {
			return c
		}
	}
	return BuiltinPrompt()
}

// BuiltinPrompt returns kompact's own compaction prompt. It asks for the
// same six sections as kimi-cli's prompt, in kompact's own words.
func BuiltinPrompt() Prompt {
	return Prompt{Body: builtinPrompt, Source: PromptBuiltin}
}

// SectionNames are the six XML sections a compaction summary should contain,
// in order.
var SectionNames = []string{
	"current_focus",
	"environment",
	"completed_tasks",
	"active_issues",
	"code_state",
	"important_context",
}

const builtinPrompt = `
===

Everything above is the transcript of an agent session, one numbered block per
message. Replace it with a summary that lets the agent carry on as if it still
had the whole transcript. The summary is all that will remain of these
messages, so anything it leaves out is gone.

Keep, in this order of importance:
1. The task in progress and the exact next step.
2. Every error that occurred, quoted exactly, with how it was resolved or why
   it is still open.
3. The code as it stands now: file paths, signatures, and the final form of
   anything that was changed (drop superseded drafts).
4. The environment: tools, versions, commands that work, configuration.
5. Decisions that were made and the reasons for them.
6. Work that is still to do.

Be brief but exact: names, paths, numbers, identifiers and quoted messages must
be copied precisely. Merge repeated discussion into single points. Summarise
long code as its signature plus the lines that matter; keep short snippets
whole. Do not invent anything that is not in the transcript.

Answer with exactly these six sections, in this order, and nothing outside
them:

<current_focus>
The task being worked on right now and its immediate next step.
</current_focus>

<environment>
- Setup, tools, versions and configuration that matter.
</environment>

<completed_tasks>
- Each finished task and its outcome.
</completed_tasks>

<active_issues>
- Each open problem: its exact error or symptom, its status and next step.
</active_issues>

<code_state>
<file>
path/of/the/file
What the file is for, its key functions or types, and the snippets needed
to continue.
</file>
(one <file> block per file that matters)
</code_state>

<important_context>
- Anything else the agent must not forget: constraints, user preferences,
  decisions and their reasons.
</important_context>
`

// NewPrompt makes a prompt from a file's bytes as kimi-cli reads its own
// prompt file: UTF-8 with universal newlines ("\r\n" and "\r" become "\n"),
// nothing stripped. An empty or non-UTF-8 body is an error.
func NewPrompt(data []byte, source PromptSource, origin string) (Prompt, error) {
	if !utf8.Valid(data) {
		return Prompt{}, Errorf(EInvalid, "prompt is not UTF-8 text").WithFixes("Save the prompt file as UTF-8.")
	}
	body := string(data)
	if strings.IndexByte(body, '\r') >= 0 {
		body = strings.ReplaceAll(body, "\r\n", "\n")
		body = strings.ReplaceAll(body, "\r", "\n")
	}
	if strings.TrimSpace(body) == "" {
		return Prompt{}, Errorf(EInvalid, "prompt is empty").WithFixes("Write the prompt text into the file, or leave the prompt setting unset to use the default.")
	}
	return Prompt{Body: body, Source: source, Origin: origin}, nil
}
