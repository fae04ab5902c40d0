package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"kompact"
	"kompact/kimicli"
	"kompact/openai"
	"kompact/service"
	"kompact/sessionjson"
)

// requestCommand prints the compaction request that kompact compact would
// send, without sending it.
type requestCommand struct {
	*env
}

// requestFlags are the command line of kompact request: compact's flags
// that choose what is sent, and --prompt-file.
type requestFlags struct {
	compactFlags
	promptFile  string
	contextSize int
}

// parse reads the command line; a nil result means stop with status and err.
func (c *requestCommand) parse(args []string) (*requestFlags, int, error) {
	fs := newFlagSet("request", "request [flags] SESSION.json (- reads stdin)", c.stderr)
	f := &requestFlags{}
	f.register(fs)
	fs.BoolVar(&f.kimi, "kimi", false, "SESSION is a kimi-cli context.jsonl")
	fs.BoolVar(&f.kimiCode, "kimi-code", false, "SESSION is a Kimi Code session folder (or its agents/main/wire.jsonl): print the request Kimi Code 2.1.0 would send")
	fs.StringVar(&f.promptFile, "prompt-file", "", "read the prompt body from this file instead of the agent's prompt")
	fs.IntVar(&f.contextSize, "max-context-size", 0, "the model's context size in tokens, for kimi-cli's completion budget (default: the agent's llm.max_context_size; nothing is looked up)")
	pos, err := parseArgs(fs, args, 1, "exactly one session file (or - for stdin)")
	if err != nil {
		status, err := flagExit(err)
		return nil, status, err
	}
	if err := f.check(); err != nil {
		return nil, exitUsage, err
	}
	f.input = pos[0]
	return f, exitOK, nil
}

// Run prints on stdout the chat-completions request body kompact compact
// would send with the same flags: it reads the configuration, the session
// and the agent as compact does (see compactCommand.load) and prepares the
// same job. With nothing to compact it prints nothing there, says why on
// stderr and returns exitNoop.
func (c *requestCommand) Run(_ context.Context, args []string) (int, error) {
	f, status, err := c.parse(args)
	if f == nil {
		return status, err
	}
	if f.kimiCode {
		return c.runKimiCodeRequest(f)
	}
	in, err := (&compactCommand{env: c.env}).load(&f.compactFlags)
	if err != nil {
		return loadStatus(err), err
	}
	job, err := c.compactor(f.promptFile).NewJob(in.agent, in.sess, f.request())
	if err != nil {
		return exitError, err
	}
	plan, info := job.Plan, job.Plan.About()
	fmt.Fprintln(c.stderr, describePrompt(in.agent, info))
	if info.Instructions != "" {
		// The agent's compaction.instructions and --instructions, joined.
		fmt.Fprintf(c.stderr, "custom instruction: %q\n", info.Instructions)
	}
	if info.Noop {
		fmt.Fprintf(c.stderr, "nothing to compact: %s\n", info.Reason)
		return exitNoop, nil
	}
	fmt.Fprintln(c.stderr, planLine(plan, in.agent.Name, job.Config.Model))
	size := f.contextSize
	if size <= 0 {
		size = in.agent.LLM.MaxContextSize
	}
	if limit := job.LimitCompletion(in.agent, size); limit > 0 {
		fmt.Fprintf(c.stderr, "completion budget: %d tokens of a %d-token context\n", limit, size)
	}
	if err := writeRequest(c.stdout, job.Config, plan.RequestMessages(), in.verified); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// planLine says what plan compacts, numbered and counted as compact's
// report, the HTTP dry run and the page do (Plan.Counts): "compacts 4
// messages (#2-#5 of 7) into one summary (agent A, model M); 1 kept before
// it, 2 after it".
func planLine(plan kompact.CompactionPlan, agent, model string) string {
	c := plan.Counts()
	span := "#" + strconv.Itoa(c.First())
	if c.Last() != c.First() {
		span += "-#" + strconv.Itoa(c.Last())
	}
	return fmt.Sprintf("compacts %s (%s of %d) into one summary (agent %s, model %s); %d kept before it%s, %d after it",
		kompact.CountOf(c.Replaced, "message"), span, c.Before+c.Replaced+c.Pinned+c.After, agent, model, c.Before, pinnedAfter(c), c.After)
}

// pinnedAfter says how many pinned messages c keeps right after the
// summary: "" when none.
func pinnedAfter(c kompact.PlanCounts) string {
	if c.Pinned == 0 {
		return ""
	}
	return fmt.Sprintf(", %d pinned right after it", c.Pinned)
}

// compactor returns the Compactor that prepares the job: the agent's
// prompt as compact resolves it, or the body of promptFile.
func (c *requestCommand) compactor(promptFile string) *service.Compactor {
	prompt := (&kimicli.Finder{Getenv: c.getenv}).AgentPrompt
	if promptFile != "" {
		prompt = func(*kompact.Agent) (kompact.Prompt, error) { return kimicli.ReadPromptFile(promptFile) }
	}
	return &service.Compactor{Prompt: prompt}
}

// writeRequest writes the body of rc's request for msgs and a newline to w
// as the body is produced, never holding it whole; v holds the texts that
// need no check (openai.WithVerified).
func writeRequest(w io.Writer, rc kompact.RequestConfig, msgs []kompact.Message, v sessionjson.Verified) error {
	err := openai.WriteRequestBody(w, rc, msgs, openai.WithVerified(v))
	if err == nil {
		_, err = io.WriteString(w, "\n")
	}
	var ke *kompact.Error
	if err != nil && !errors.As(err, &ke) {
		return fmt.Errorf("write request: %w", err)
	}
	return err
}

// maxPreservedFlag registers --max-preserved, which means the same in
// request and compact: when given, its value replaces the agent's
// max_preserved_messages, whatever it is (0 or less compacts nothing unless
// an end is given, as in kimi-cli); when not, *dst stays nil and the
// agent's value applies.
func maxPreservedFlag(fs *flag.FlagSet, dst **int) {
	fs.Var(optionalInt{dst}, "max-preserved",
		"keep the last `N` user/assistant messages verbatim when no end is given, instead of the agent's max_preserved_messages (0 or less: nothing is compacted)")
}

// optionalInt is an int flag that records whether it was given.
type optionalInt struct{ v **int }

func (o optionalInt) String() string {
	if o.v == nil || *o.v == nil {
		return ""
	}
	return strconv.Itoa(**o.v)
}

func (o optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("it takes a whole number")
	}
	*o.v = &n
	return nil
}

// inputName names an input path in messages.
func inputName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}
