package kimicode

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Texts are the texts a Kimi Code compaction is made of, in the form of
// ../shared/kimi-code/texts (template variables ${name} unrendered).
type Texts struct {
	Instruction, SummaryPrefix, Footer, Elision, Continuation string
	// Genuine is true when every text is Kimi Code 2.1.0's (by SHA-256).
	Genuine bool
	// Source says where the texts were read ("" for the built-in wording).
	Source string
}

// TextSHA256 are the SHA-256 of Kimi Code 2.1.0's texts, by the names of
// ../shared/kimi-code/texts: kompact knows them by these only.
var TextSHA256 = map[string]string{
	"compaction-instruction.md":    "9578d8c2088f64d0b58f2ec0f10b4a0cf2a70caa9b08d46c847a8d12e6ec6545",
	"compaction-summary-prefix.md": "e5213af5f4053d95d48f7644bb09aa2598eeb4555d3fbca66132b6962ae5eb3e",
	"context-recovery-footer.md":   "39545f1ad8ad5bb6162bd664499bf9aa1bb239888226911010a5f60b9fdc0b1b",
	"continuation-note.txt":        "c07f05961865e20f181cfae48745865396ec91bb8b81c2c3b62c304edaec4881",
	"elision-note.txt":             "753ea57a8cd32740bb2789995e0ac64f891c389f091e44ef76d69b20ad6d352f",
}

// ByName returns t's texts by the names of ../shared/kimi-code/texts.
func (t *Texts) ByName() map[string]string {
	return map[string]string{
		"compaction-instruction.md": t.Instruction, "compaction-summary-prefix.md": t.SummaryPrefix,
		"context-recovery-footer.md": t.Footer, "continuation-note.txt": t.Continuation, "elision-note.txt": t.Elision,
	}
}

// NewTexts makes Texts of bodies by file name, Genuine when each has its pinned SHA-256.
func NewTexts(bodies map[string]string, source string) *Texts {
	t := &Texts{Instruction: bodies["compaction-instruction.md"], SummaryPrefix: bodies["compaction-summary-prefix.md"],
		Footer: bodies["context-recovery-footer.md"], Continuation: bodies["continuation-note.txt"],
		Elision: bodies["elision-note.txt"], Source: source, Genuine: true}
	for name, want := range TextSHA256 {
		sum := sha256.Sum256([]byte(bodies[name]))
		if hex.EncodeToString(sum[:]) != want {
			t.Genuine = false
		}
	}
	return t
}

// trimEnd is JavaScript's String.prototype.trimEnd.
func trimEnd(s string) string {
	return strings.TrimRight(s, " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
}

// wrapReminder is Kimi Code's <system-reminder> wrapping.
func wrapReminder(s string) string {
	return "<system-reminder>\n" + s + "\n</system-reminder>"
}

// InstructionText is the compaction's last user message, with custom (the user's
// instruction, "" for none).
func (t *Texts) InstructionText(custom string) string {
	block := ""
	if custom != "" {
		block = "\nOptional user instruction:\n" + custom + "\n"
	}
	return trimEnd(strings.ReplaceAll(t.Instruction, "${custom_instruction_block}", block))
}

// Prefix is the summary's prefix.
func (t *Texts) Prefix() string { return trimEnd(t.SummaryPrefix) }

// FooterText is the Context Recovery footer for wirePath and its window lines.
func (t *Texts) FooterText(wirePath, windowLines string) string {
	return strings.NewReplacer("${wire_path}", wirePath, "${window_lines}", windowLines).Replace(t.Footer)
}

// ElisionText is the elision reminder for omitted tokens.
func (t *Texts) ElisionText(omitted int) string {
	return wrapReminder(strings.ReplaceAll(t.Elision, "${omitted_tokens}", strconv.Itoa(omitted)))
}

// ContinuationText is the continuation reminder.
func (t *Texts) ContinuationText() string { return wrapReminder(t.Continuation) }

// Builtin returns kompact's own wording, used without a Kimi Code installation: the same
// shape (the same template variables), not Kimi Code's text, so a request made with it is
// not the one Kimi Code would send.
func Builtin() *Texts {
	return &Texts{
		Instruction: "Your context is nearly full. Write a summary of this conversation for the model that will " +
			"continue the task once the conversation above is removed: the current request and its intent, the " +
			"instructions in force, what was done (exact commands, paths, results), what is still unknown, and the " +
			"plan from here. Reply with text only and call no tools.\n\n${custom_instruction_block}\n",
		SummaryPrefix: "[kompact] Earlier turns were compacted; the summary below replaces them.\n",
		Footer: "## Context Recovery\nThe full history is kept in the agent's log:\n  ${wire_path}\n${window_lines}\n" +
			"Look up exact output there rather than guessing.\n",
		Elision:      "[kompact] About ${omitted_tokens} tokens of user messages between the ones above and below were left out; the summary covers them.",
		Continuation: "[kompact] Compaction is done; continue the task.",
	}
}
