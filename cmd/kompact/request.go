package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"kompact"
	"kompact/kimicli"
	"kompact/openai"
)

// defaultModel is the model named in a request when neither --model nor the
// session's compaction_model says otherwise.
const defaultModel = "kimi-k2-turbo-preview"

// requestCommand prints the compaction request that would be sent.
type requestCommand struct {
	*env
}

// selection holds the flags that say what to compact; request and compact
// share them.
type selection struct {
	maxPreserved int
	instructions string
	promptFile   string
	start, end   string
	upTo         string
	model        string
}

func (s *selection) register(fs *flag.FlagSet) {
	fs.IntVar(&s.maxPreserved, "max-preserved", kompact.DefaultMaxPreserved,
		"trailing user/assistant messages kept verbatim when no end is given (<= 0: nothing is compacted)")
	fs.StringVar(&s.instructions, "instructions", "", "custom focus appended to the prompt")
	fs.StringVar(&s.promptFile, "prompt-file", "", "read the prompt body from this file")
	fs.StringVar(&s.start, "start", "", "first message of the range: a message id, or #N for the N-th message")
	fs.StringVar(&s.end, "end", "", "last message of the range, inclusive; compacts the range exactly, no preserved tail")
	fs.StringVar(&s.upTo, "up-to", "", "compact exactly the prefix through this message (compact_up_to_here)")
	fs.StringVar(&s.model, "model", "", "model to name in the request (default: the session's compaction_model, else "+defaultModel+")")
}

// options checks the flags and turns them into compaction options, resolving
// the prompt.
func (s *selection) options(e *env) (kompact.Options, error) {
	opt := kompact.Options{
		MaxPreserved: s.maxPreserved,
		Instructions: s.instructions,
		Start:        s.start,
		End:          s.end,
	}
	if s.upTo != "" {
		if s.end != "" || s.start != "" {
			return opt, usagef("--up-to compacts the prefix through a message; it cannot be combined with --start or --end")
		}
		opt.End = s.upTo
	}
	var candidates []kompact.Prompt
	if s.promptFile != "" {
		p, err := kimicli.ReadPromptFile(s.promptFile)
		if err != nil {
			return opt, err
		}
		candidates = append(candidates, p)
	} else {
		f := &kimicli.Finder{Getenv: e.getenv}
		p, err := f.FindPrompt()
		if err != nil {
			return opt, err
		}
		candidates = append(candidates, p)
	}
	opt.Prompt = kompact.ResolvePrompt(candidates...)
	return opt, nil
}

func (s *selection) modelFor(sess *kompact.Session) string {
	switch {
	case s.model != "":
		return s.model
	case sess.CompactionModel != "":
		return sess.CompactionModel
	}
	return defaultModel
}

// Run prints the chat-completions request body on stdout. With nothing to
// compact it prints nothing there, says why on stderr and returns exitNoop.
func (c *requestCommand) Run(_ context.Context, args []string) (int, error) {
	fs := newFlagSet("request", "request [flags] SESSION.json (- reads stdin)", c.stderr)
	var sel selection
	sel.register(fs)
	var contextSize int
	fs.IntVar(&contextSize, "max-context-size", 0, "the model's context size in tokens: the request then carries kimi-cli's completion budget as max_completion_tokens (0: unknown, none)")
	pos, err := parseArgs(fs, args, 1, "exactly one session file (or - for stdin)")
	if err != nil {
		return flagExit(err)
	}
	opt, err := sel.options(c.env)
	if err != nil {
		return statusOf(err), err
	}
	data, err := c.readInput(pos[0])
	if err != nil {
		return exitError, err
	}
	sess, err := kompact.DecodeSession(data)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", inputName(pos[0]), err)
	}
	fmt.Fprintln(c.stderr, opt.Prompt.Describe())
	plan, err := kompact.Prepare(sess, opt)
	if err != nil {
		return exitError, err
	}
	if plan.Noop {
		fmt.Fprintf(c.stderr, "nothing to compact: %s\n", plan.Reason)
		return exitNoop, nil
	}
	fmt.Fprintf(c.stderr, "compacts messages %d-%d of %d; %d after them kept verbatim\n",
		plan.Start+1, plan.End, len(sess.Messages), len(sess.Messages)-plan.End)
	fields := completionBudget(c.stderr, plan, contextSize)
	if err := writeRequest(c.stdout, sel.modelFor(sess), plan.RequestMessages(), fields); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// writeRequest writes the request body and a newline to w as the body is
// produced, never holding it whole.
func writeRequest(w io.Writer, model string, msgs []kompact.Message, fields map[string]any) error {
	err := openai.WriteRequestBody(w, model, msgs, fields)
	if err == nil {
		_, err = io.WriteString(w, "\n")
	}
	var ke *kompact.Error
	if err != nil && !errors.As(err, &ke) {
		return fmt.Errorf("write request: %w", err)
	}
	return err
}

// statusOf maps an error to an exit status.
func statusOf(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}

// inputName names an input path in messages.
func inputName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// completionBudget returns the request fields that carry kimi-cli's
// completion budget for plan in a context of size tokens (none when size is
// 0), as a Kimi agent without a system prompt or a configured limit sends
// it, and says the figure on w.
func completionBudget(w io.Writer, plan *kompact.Plan, size int) map[string]any {
	a := &kompact.Agent{LLM: kompact.LLMConfig{BaseURL: "https://api.moonshot.ai/v1"}}
	field, n, ok := kompact.CompletionLimit(a, plan, nil, size)
	if !ok {
		return nil
	}
	fmt.Fprintf(w, "completion budget: %s %d of a %d-token context\n", field, n, size)
	return map[string]any{field: n}
}
