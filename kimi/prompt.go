package kimi

import (
	"strings"
	"unicode/utf8"

	"kompact"
)

// ResolvePrompt returns the first candidate with a non-empty body, or the
// built-in prompt when there is none. Pass candidates in priority order:
// inline, prompt file, kimi-cli's installed file.
func ResolvePrompt(candidates ...kompact.Prompt) kompact.Prompt {
	for _, c := range candidates {
		if c.Body != "" {
			return c
		}
	}
	return BuiltinPrompt()
}

// BuiltinPrompt returns kompact's own compaction prompt. It asks for the
// same six sections as kimi-cli's prompt, in kompact's own words.
func BuiltinPrompt() kompact.Prompt {
	return kompact.Prompt{Body: builtinPrompt, Source: kompact.PromptBuiltin}
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
func NewPrompt(data []byte, source kompact.PromptSource, origin string) (kompact.Prompt, error) {
	if !utf8.Valid(data) {
		return kompact.Prompt{}, kompact.Errorf(kompact.EInvalid, "prompt is not UTF-8 text").WithFixes("Save the prompt file as UTF-8.")
	}
	body := string(data)
	if strings.IndexByte(body, '\r') >= 0 {
		body = strings.ReplaceAll(body, "\r\n", "\n")
		body = strings.ReplaceAll(body, "\r", "\n")
	}
	if strings.TrimSpace(body) == "" {
		return kompact.Prompt{}, kompact.Errorf(kompact.EInvalid, "prompt is empty").WithFixes("Write the prompt text into the file, or leave the prompt setting unset to use the default.")
	}
	return kompact.Prompt{Body: body, Source: source, Origin: origin}, nil
}
