package kimi

import "kompact"

// DescribePrompt says in one line which prompt p is in effect and whether it is the
// genuine kimi-cli prompt.
func DescribePrompt(p kompact.Prompt) string {
	where := ""
	if p.Origin != "" {
		where = " (" + p.Origin + ")"
	}
	var what string
	switch p.Source {
	case kompact.PromptInline:
		what = "the agent configuration's inline prompt"
	case kompact.PromptFile:
		what = "prompt file" + where
	case kompact.PromptKimiCLI:
		what = "kimi-cli's installed compact.md" + where
	case kompact.PromptBuiltin:
		what = "kompact's built-in prompt"
	default:
		what = "prompt of unknown source" + where
	}
	if p.Genuine() {
		return "prompt: " + what + ": the genuine kimi-cli prompt (sha256 " + kompact.KimiPromptSHA256[:12] + "…)"
	}
	if p.Source == kompact.PromptBuiltin {
		return "prompt: " + what + ", not kimi-cli's own text; install kimi-cli or set KIMI_CLI_PATH for exact parity"
	}
	return "prompt: " + what + ", not the genuine kimi-cli prompt"
}
