package kompact

import (
	"crypto/sha256"
	"fmt"
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
