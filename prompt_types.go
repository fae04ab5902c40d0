package kompact

import (
	"crypto/sha256"
	"fmt"
)

// KimiPromptSHA256 is the SHA-256 of kimi-cli's own compaction prompt
// (src/kimi_cli/prompts/compact.md at kimi-cli 1.49.0, 1858 bytes). kompact does not contain
// that text; it recognises it by this hash.
const KimiPromptSHA256 = "24753a19a3c0dfabc5545a103666a559cc7dd8caa963715fdc6ca7dd787a0e0a"

// PromptSource says where the compaction prompt body came from.
type PromptSource string

// The prompt sources, in the order ResolvePrompt prefers them.
const (
	// PromptInline is the agent configuration's "prompt" field.
	PromptInline PromptSource = "inline"
	// PromptFile is a file named by the configuration's "prompt_file" or by a command-line
	// flag.
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
