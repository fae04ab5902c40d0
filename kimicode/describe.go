package kimicode

import "kompact"

// DescribePrompt says in one line which compaction texts a kimi-code plan's prompt p
// is made of: Kimi Code 2.1.0's own, read from an installation and checked by SHA-256,
// or kompact's own wording, with what to do for exact parity.
func DescribePrompt(p kompact.Prompt) string {
	if p.Source == kompact.PromptFile && p.Origin != "" {
		return "prompt: Kimi Code 2.1.0's compaction texts (" + p.Origin + "), checked by SHA-256"
	}
	return "prompt: kompact's own wording of Kimi Code's compaction texts, not Kimi Code's; " +
		"install Kimi Code 2.1.0 (npm install -g @moonshot-ai/kimi-code@2.1.0) or set KIMI_CODE_PATH for exact parity"
}
