package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"kompact"
	"kompact/config"
	"kompact/internal/atomicfile"
	"kompact/kimicli"
	"kompact/openai"
)

// configEnv names the environment variable that points at the agent
// configuration file when --config is not given.
const configEnv = "KOMPACT_CONFIG"

// compactCommand compacts a session file with its agent's LLM.
type compactCommand struct {
	*env
	// llm replaces the OpenAI-compatible client in tests.
	llm kompact.LLM
	// isTerminal says whether stderr is a terminal; nil means check.
	isTerminal func() bool
}

// Run compacts the session, writes the result and prints a report.
func (c *compactCommand) Run(ctx context.Context, args []string) (int, error) {
	fs := newFlagSet("compact", "compact [flags] SESSION.json (- reads stdin)", c.stderr)
	var (
		agentName, configPath, out string
		start, end, upTo           string
		instructions, model        string
		maxPreserved               int
		asJSON, kimi               bool
	)
	fs.StringVar(&agentName, "agent", "", "agent whose LLM and compaction settings to use (default: the session's agent, else the configuration's default)")
	fs.StringVar(&configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.StringVar(&start, "start", "", "first message of the range: a message id, or #N")
	fs.StringVar(&end, "end", "", "last message of the range, inclusive; compacts the range exactly, no preserved tail")
	fs.StringVar(&upTo, "up-to", "", "compact exactly the prefix through this message (compact_up_to_here)")
	fs.StringVar(&instructions, "instructions", "", "custom focus appended to the prompt")
	fs.StringVar(&model, "model", "", "compaction model for this run (overrides the session's and the agent's)")
	fs.IntVar(&maxPreserved, "max-preserved", 0, "override the agent's max_preserved_messages (0: keep the agent's)")
	fs.StringVar(&out, "o", "", "write the compacted session here (- for stdout); default: replace SESSION.json, keeping a backup")
	fs.BoolVar(&asJSON, "json", false, "print the outcome as JSON instead of a report")
	fs.BoolVar(&kimi, "kimi", false, "SESSION is a kimi-cli context.jsonl: rewrite it as kimi-cli's /compact would, keeping the old file as context_N.jsonl")
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage, usagef("compact takes exactly one session file (or - for stdin), got %d arguments", len(pos))
	}
	if upTo != "" && (start != "" || end != "") {
		return exitUsage, usagef("--up-to compacts the prefix through a message; it cannot be combined with --start or --end")
	}
	input := pos[0]
	if out == "" && input == "-" {
		out = "-"
	}

	cfg, err := loadConfig(configPath, c.getenv)
	if err != nil {
		return exitError, err
	}
	data, err := c.readInput(input)
	if err != nil {
		return exitError, err
	}
	var kctx *kimicli.ContextFile
	var sess *kompact.Session
	if kimi {
		kctx = kimicli.ParseContext(data)
		for _, sk := range kctx.Skipped {
			fmt.Fprintf(c.stderr, "warning: %s: %s (kept in the rotated copy, left out of the compaction)\n", inputName(input), sk)
		}
		sess = &kompact.Session{Messages: kctx.Messages()}
	} else {
		sess, err = kompact.DecodeSession(data)
		if err != nil {
			return exitError, fmt.Errorf("%s: %w", inputName(input), err)
		}
	}
	if agentName == "" {
		agentName = sess.Agent
	}
	agent, err := cfg.Agent(agentName)
	if err != nil {
		return exitError, err
	}
	if maxPreserved != 0 {
		a := *agent
		a.Compaction.MaxPreservedMessages = &maxPreserved
		agent = &a
	}

	req := kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: start, End: end, Instructions: instructions}
	if upTo != "" {
		req = kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: upTo, Instructions: instructions}
	}
	finder := &kimicli.Finder{Getenv: c.getenv}
	llm := c.llm
	if llm == nil {
		llm = &openai.Client{Getenv: c.getenv}
	}
	comp := &kompact.Compactor{LLM: llm, Prompt: finder.AgentPrompt}

	outcome := c.execute(ctx, comp, agent, sess, req, model)
	if outcome.Status == kompact.OutcomeCompacted {
		var written, backup string
		if kimi {
			written, backup, err = c.writeKimi(input, out, kctx, outcome.Result)
		} else {
			written, backup, err = c.write(input, out, outcome.Result.Session)
		}
		if err != nil {
			return exitError, err
		}
		if asJSON {
			return c.printJSON(outcome)
		}
		c.report(outcome, agent, written, backup)
		return exitOK, nil
	}
	if asJSON {
		status, err := c.printJSON(outcome)
		if err != nil {
			return status, err
		}
	}
	if outcome.Status == kompact.OutcomeNoop {
		if !asJSON {
			fmt.Fprintf(c.stderr, "nothing to compact: %s\n", outcome.Reason)
		}
		return exitNoop, nil
	}
	if asJSON {
		return exitError, nil
	}
	return exitError, outcome.Err
}

// execute runs the action with a progress display on stderr when it is a
// terminal. model, when set, overrides the merged compaction model.
func (c *compactCommand) execute(ctx context.Context, comp *kompact.Compactor, agent *kompact.Agent, sess *kompact.Session, req kompact.ActionRequest, model string) kompact.Outcome {
	plan, cfg, err := comp.Prepare(agent, sess, req)
	if err != nil {
		var e *kompact.Error
		if !errors.As(err, &e) {
			e = &kompact.Error{Code: kompact.EInternal, Message: err.Error(), Err: err}
		}
		return kompact.Outcome{Status: kompact.OutcomeError, Err: e}
	}
	if plan.Noop {
		return kompact.Outcome{Status: kompact.OutcomeNoop, Reason: plan.Reason}
	}
	if model != "" {
		cfg.Model = model
	}
	fmt.Fprintln(c.stderr, plan.Prompt.Describe())
	sp := c.spinner(fmt.Sprintf("compacting %d messages with %s", plan.End-plan.Start, cfg.Model))
	defer sp.stop()
	return comp.Complete(ctx, plan, cfg, sp.update)
}

// write stores the compacted session: to out, to stdout for "-", or in
// place of input after backing it up. It returns where it wrote and the
// backup's name.
func (c *compactCommand) write(input, out string, s *kompact.Session) (written, backup string, err error) {
	return c.emit(input, out, append(s.AppendJSON(nil), '\n'), func() (string, error) {
		backup, err := atomicfile.Backup(input)
		if err != nil {
			return "", err
		}
		return backup, atomicfile.Write(input, append(s.AppendJSON(nil), '\n'), 0o644)
	})
}

// writeKimi stores a compacted kimi-cli session: the file kimi-cli's own
// /compact writes, in place with the old file rotated to context_N.jsonl,
// or to out.
func (c *compactCommand) writeKimi(input, out string, kctx *kimicli.ContextFile, r *kompact.Result) (written, rotated string, err error) {
	data := kimicli.CompactedFile(kctx.SystemPrompt, r.KimiMessages, int64(r.EstimatedTokenCount))
	return c.emit(input, out, data, func() (string, error) { return kimicli.RewriteContext(input, data) })
}

// emit writes data to stdout (out "-"), to out, or in place of input with
// inPlace, which returns where the original was kept.
func (c *compactCommand) emit(input, out string, data []byte, inPlace func() (string, error)) (written, kept string, err error) {
	switch {
	case out == "-":
		if _, err := c.stdout.Write(data); err != nil {
			return "", "", fmt.Errorf("write stdout: %w", err)
		}
		return "-", "", nil
	case out != "":
		if err := atomicfile.Write(out, data, 0o644); err != nil {
			return "", "", kompact.Errorf(kompact.EInternal, "%w", err).WithFixes("Check that the output folder exists and is writable.")
		}
		return out, "", nil
	}
	kept, err = inPlace()
	if err != nil {
		return "", "", kompact.Errorf(kompact.EInternal, "%s was not changed: %w", input, err).
			WithFixes("Pass -o OUT to write the result elsewhere.")
	}
	return input, kept, nil
}

func (c *compactCommand) printJSON(o kompact.Outcome) (int, error) {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return exitError, fmt.Errorf("encode outcome: %w", err)
	}
	if _, err := c.stdout.Write(append(b, '\n')); err != nil {
		return exitError, fmt.Errorf("write stdout: %w", err)
	}
	return exitOK, nil
}

// report prints a short summary of a compaction. It goes to stdout, or to
// stderr when stdout carries the session.
func (c *compactCommand) report(o kompact.Outcome, agent *kompact.Agent, written, backup string) {
	w := c.stdout
	if written == "-" {
		w = c.stderr
	}
	r := o.Result
	fmt.Fprintf(w, "compacted %d messages into one summary (agent %s, model %s); %d kept before it, %d after it\n",
		r.Compacted, agent.Name, o.Model, len(r.Session.Messages)-1-r.Preserved, r.Preserved)
	fmt.Fprintf(w, "estimated tokens: %d -> %d\n", r.TokensBefore, r.TokensAfter)
	if r.Usage != nil {
		fmt.Fprintf(w, "compaction call: %d input tokens (%d cached), %d output tokens\n", r.Usage.Input(), r.Usage.InputCacheRead, r.Usage.Output)
	}
	if r.Dropped > 0 {
		fmt.Fprintf(w, "the request was too long for the model: the %d oldest messages of the range were left out of the summary\n", r.Dropped)
	}
	if len(r.MissingSections) > 0 {
		fmt.Fprintf(w, "the summary lacks sections: %s (kept anyway)\n", strings.Join(r.MissingSections, ", "))
	}
	switch {
	case written == "-":
	case backup != "":
		fmt.Fprintf(w, "wrote %s (the original is in %s)\n", written, backup)
	default:
		fmt.Fprintf(w, "wrote %s\n", written)
	}
}

// loadConfig loads the agent configuration: the file named by path, else
// by $KOMPACT_CONFIG, else the built-in default.
func loadConfig(path string, getenv func(string) string) (*config.Config, error) {
	if path == "" {
		path = getenv(configEnv)
	}
	if path == "" {
		return config.Default(), nil
	}
	return config.Load(path)
}

// spinner shows progress on stderr while the summary streams in, only when
// stderr is a terminal.
type spinner struct {
	w      io.Writer
	label  string
	mu     sync.Mutex
	last   kompact.Progress
	done   chan struct{}
	wg     sync.WaitGroup
	active bool
}

func (c *compactCommand) spinner(label string) *spinner {
	s := &spinner{w: c.stderr, label: label, done: make(chan struct{})}
	term := c.isTerminal
	if term == nil {
		term = func() bool { return isTerminal(c.stderr) }
	}
	if !term() {
		return s
	}
	s.active = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		frames := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-s.done:
				fmt.Fprint(s.w, "\r\033[K")
				return
			case <-t.C:
				s.mu.Lock()
				p := s.last
				s.mu.Unlock()
				line := fmt.Sprintf("%s %s: %d characters received", frames[i%len(frames)], s.label, p.Chars)
				if p.Attempt > 1 {
					line += fmt.Sprintf(" (attempt %d)", p.Attempt)
				}
				if p.Waiting != "" {
					line += "; " + p.Waiting
				}
				fmt.Fprintf(s.w, "\r\033[K%s", line)
			}
		}
	}()
	return s
}

func (s *spinner) update(p kompact.Progress) {
	s.mu.Lock()
	s.last = p
	s.mu.Unlock()
}

func (s *spinner) stop() {
	if s.active {
		close(s.done)
		s.wg.Wait()
		s.active = false
	}
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
