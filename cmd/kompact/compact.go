package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"kompact"
	"kompact/config"
	"kompact/internal/atomicfile"
	"kompact/kimicli"
	"kompact/openai"
	"kompact/service"
	"kompact/sessionjson"
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

// compactFlags are the command line of kompact compact.
type compactFlags struct {
	agentName, configPath, out string
	start, end, upTo           string
	instructions, model        string
	maxPreserved               *int
	appendixTokens             *int
	pins                       pinList
	asJSON, kimi, strict, auto bool
	kimiCode, dryRun           bool
	input                      string
}

// compactInput is what a compaction reads: the session (and, for a
// kimi-cli file, the parsed context) and the agent that compacts it.
type compactInput struct {
	sess  *kompact.Session
	kctx  *kimicli.ContextFile
	agent *kompact.Agent
	// pinned is the file's own "pinned": the run's --pin are not written.
	pinned []string
	// status is the context status --auto checked, nil without --auto.
	status *kompact.ContextStatus
	// fp is the input file as it was read: writing in place checks that
	// it still holds that content.
	fp atomicfile.Fingerprint
	// verified is the file's text, which the session's strings share
	// (sessionjson): the request body copies them without checking them
	// again.
	verified sessionjson.Verified
}

// Run compacts the session, writes the result and prints a report.
func (c *compactCommand) Run(ctx context.Context, args []string) (int, error) {
	f, status, err := c.parse(args)
	if f == nil {
		return status, err
	}
	if f.kimiCode {
		return c.runKimiCode(ctx, f)
	}
	c.outIsInput(f)
	comp := c.compactor()
	in, err := c.load(f)
	if err != nil {
		return loadStatus(err), err
	}
	// The run's request bodies copy the file's texts unchecked.
	ctx = openai.ContextWithVerified(ctx, in.verified)
	job, err := comp.NewJob(in.agent, in.sess, f.request())
	if err != nil {
		return c.finish(f, in, kompact.ErrorOutcome(err))
	}
	// A missing API key is said first, before the context size is looked
	// up (a look-up without the key fails too, and only warns).
	if err := keyOf(job, f.auto, c.getenv); err != nil {
		return c.finish(f, in, modelFailed(job, err))
	}
	// The context size: looked up for --auto and for Kimi agents (whose
	// requests carry the completion budget), else llm.max_context_size; a
	// Kimi agent's job that sends nothing needs no budget, nor the look-up.
	size := c.contextSize(ctx, in.agent, f.auto || in.agent.LLM.IsKimi() && !job.Plan.About().Noop)
	if f.auto {
		st := c.autoStatus(in, size)
		if !st.ShouldCompact {
			return c.notDue(f, st)
		}
		in.status = &st
		if err := keyOf(job, false, c.getenv); err != nil {
			return c.finish(f, in, modelFailed(job, err))
		}
	}
	outcome := c.execute(ctx, job, in, size)
	return c.finish(f, in, outcome)
}

// modelFailed is the error outcome of err for job, naming its model.
func modelFailed(job *service.Job, err error) kompact.Outcome {
	out := kompact.ErrorOutcome(err)
	out.Model = job.Config.Model
	return out
}

// keyOf checks that the API key a job's request needs is set, unless the
// job makes no LLM call or its check waits (for --auto, until the session
// is due).
func keyOf(job *service.Job, wait bool, getenv func(string) string) error {
	if wait || job.Plan.About().Noop {
		return nil
	}
	_, err := openai.APIKey(getenv, job.Config)
	return err
}

// parse reads the command line; a nil result means stop with status and err.
func (c *compactCommand) parse(args []string) (*compactFlags, int, error) {
	fs := newFlagSet("compact", "compact [flags] SESSION.json (- reads stdin)", c.stderr)
	f := &compactFlags{}
	f.register(fs)
	fs.StringVar(&f.out, "o", "", "write the compacted session here (- for stdout); default: replace SESSION.json, keeping a backup")
	fs.BoolVar(&f.asJSON, "json", false, "print the outcome as JSON instead of a report")
	fs.BoolVar(&f.strict, "strict", false, "treat the result's warnings (messages left out, no sections, no smaller) as an error: write nothing, exit 4")
	fs.BoolVar(&f.auto, "auto", false, "compact only when kimi-cli's trigger says it is due (the agent's compaction.auto thresholds); otherwise exit 3 with the figures")
	fs.BoolVar(&f.kimi, "kimi", false, "SESSION is a kimi-cli context.jsonl: rewrite it as kimi-cli's /compact would, keeping the old file as context_N.jsonl")
	fs.BoolVar(&f.kimiCode, "kimi-code", false, "SESSION is a Kimi Code session folder (or its agents/main/wire.jsonl): append the records Kimi Code's own /compact appends (docs/kimi-code.md)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "with --kimi-code: say what would be sent and written, call no LLM, write nothing")
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, exitOK, nil
	}
	if err != nil {
		return nil, exitUsage, err
	}
	if len(pos) != 1 {
		return nil, exitUsage, usagef("compact takes exactly one session file (or - for stdin), got %d arguments", len(pos))
	}
	if err := f.check(); err != nil {
		return nil, exitUsage, err
	}
	if f.kimiCode {
		if err := f.checkKimiCode(); err != nil {
			return nil, exitUsage, err
		}
	} else if f.dryRun {
		return nil, exitUsage, usagef("--dry-run goes with --kimi-code; for other sessions, kompact request shows what would be sent")
	}
	f.input = pos[0]
	if f.out == "" && f.input == "-" {
		f.out = "-"
	}
	if f.asJSON && f.out == "-" && f.kimi {
		return nil, exitUsage, usagef("--json prints the outcome on stdout, so the compacted context.jsonl cannot go there too; give -o FILE")
	}
	return f, exitOK, nil
}

// jsonHoldsSession reports whether stdout gets only the --json outcome,
// whose result holds the compacted session, rather than the session and
// then the outcome: stdout carries exactly one JSON document.
func (f *compactFlags) jsonHoldsSession() bool {
	return f.asJSON && f.out == "-" && !f.kimi
}

// register adds to fs the flags that choose what is compacted and how,
// which compact and request share.
func (f *compactFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.agentName, "agent", "", "agent whose LLM and compaction settings to use (default: the session's agent, else the configuration's default)")
	fs.StringVar(&f.configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.StringVar(&f.start, "start", "", "first message of the range: a message id, or #N for the N-th message")
	fs.StringVar(&f.end, "end", "", "last message of the range, inclusive; compacts the range exactly, no preserved tail")
	fs.StringVar(&f.upTo, "up-to", "", "compact exactly the prefix through this message (compact_up_to_here)")
	fs.StringVar(&f.instructions, "instructions", "", "custom focus appended to the prompt")
	fs.StringVar(&f.model, "model", "", "compaction model for this run (overrides the session's and the agent's)")
	maxPreservedFlag(fs, &f.maxPreserved)
	fs.Var(&f.pins, "pin", "keep message `ID` (or #N) verbatim after the summary, with its whole tool exchange, for this run; repeatable (the session's own \"pinned\" count too)")
	fs.Var(optionalInt{&f.appendixTokens}, "appendix-tokens",
		"append the artifacts the summary lost, in at most `N` estimated tokens, as a preserved_artifacts section, instead of the agent's compaction.fidelity.appendix_tokens (0: none); the request does not change")
}

// check rejects flags that cannot go together.
func (f *compactFlags) check() error {
	if f.kimi && f.kimiCode {
		return usagef("--kimi (a kimi-cli context.jsonl) and --kimi-code (a Kimi Code session folder) cannot go together")
	}
	if f.upTo != "" && (f.start != "" || f.end != "") {
		return usagef("--up-to compacts the prefix through a message; it cannot be combined with --start or --end")
	}
	return nil
}

// request returns the action the flags ask for.
func (f *compactFlags) request() kompact.ActionRequest {
	if f.upTo != "" {
		return kompact.ActionRequest{Action: kompact.ActionCompactUpToHere, MessageID: f.upTo, Instructions: f.instructions, Model: f.model,
			AppendixTokens: f.appendixTokens}
	}
	return kompact.ActionRequest{Action: kompact.ActionCompactConversation, Start: f.start, End: f.end, Instructions: f.instructions, Model: f.model,
		AppendixTokens: f.appendixTokens}
}

// pinList collects --pin values.
type pinList []string

func (l *pinList) String() string { return strings.Join(*l, ",") }

func (l *pinList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// pinFor adds the run's pins to s's own, each naming one of its messages.
func pinFor(s *kompact.Session, pins []string) error {
	for _, ref := range pins {
		if _, err := s.Locate(ref); err != nil {
			return kompact.Errorf(kompact.EInvalid, "--pin %s: %s", ref, kompact.AsError(err).Message).
				WithFixes("Pin a message id of the session, or #N for its N-th message (1-based).")
		}
	}
	if len(pins) > 0 {
		s.Pinned = append(slices.Clip(s.Pinned), pins...)
	}
	return nil
}

// load reads the configuration and the session, and picks the agent.
func (c *compactCommand) load(f *compactFlags) (*compactInput, error) {
	cfg, err := loadConfig(f.configPath, c.getenv)
	if err != nil {
		return nil, err
	}
	in := &compactInput{}
	data, err := c.readSession(f.input, &in.fp)
	if err != nil {
		return nil, err
	}
	if err := checkUTF8Input(f.input, data, f.kimi); err != nil {
		return nil, err
	}
	in.verified = sessionjson.VerifiedDocument(data)
	if f.kimi {
		if err := sessionDocError(f.input, data); err != nil {
			return nil, err
		}
		in.kctx = kimicli.ParseContext(data)
		for _, sk := range in.kctx.Skipped {
			fmt.Fprintf(c.stderr, "warning: %s: %s (kept in the rotated copy, left out of the compaction)\n", inputName(f.input), sk)
		}
		in.sess = &kompact.Session{Messages: in.kctx.Messages()}
	} else if in.sess, err = sessionjson.DecodeSession(data); err != nil {
		return nil, kimiFileError(fmt.Errorf("%s: %w", inputName(f.input), err), f.input, data, "")
	}
	name := f.agentName
	if name == "" {
		name = in.sess.Agent
	}
	if in.agent, err = cfg.Agent(name); err != nil {
		return nil, err
	}
	if err := f.checkOffers(in.agent); err != nil {
		return nil, err
	}
	in.pinned = in.sess.Pinned
	if err := pinFor(in.sess, f.pins); err != nil {
		return nil, err
	}
	if f.maxPreserved != nil {
		a := *in.agent
		a.Compaction.MaxPreservedMessages = f.maxPreserved
		in.agent = &a
	}
	return in, nil
}

// readSession reads the session file (stdin for "-") and, for a file,
// records its fingerprint in fp.
func (c *compactCommand) readSession(path string, fp *atomicfile.Fingerprint) ([]byte, error) {
	if path == "-" {
		return c.readInput(path)
	}
	data, got, err := atomicfile.ReadFile(path)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read session: %w", err).
			WithFixes("Pass the path of a session JSON file, or - to read it from standard input.")
	}
	*fp = got
	return data, nil
}

// outIsInput turns -o naming the input file itself (by the same path,
// another path or a symbolic link) into an in-place write, which keeps a
// backup and checks the file did not change meanwhile.
func (c *compactCommand) outIsInput(f *compactFlags) {
	if f.out == "" || f.out == "-" || f.input == "-" {
		return
	}
	in, err := os.Stat(f.input)
	if err != nil {
		return
	}
	out, err := os.Stat(f.out)
	if err != nil || !os.SameFile(in, out) {
		return
	}
	fmt.Fprintf(c.stderr, "note: -o %s is the input file itself: it is replaced in place, keeping a backup\n", f.out)
	f.out = ""
}

// compactor returns the Compactor with the command's LLM client and
// kimi-cli's prompt lookup, which it starts at once, to overlap reading the
// session.
func (c *compactCommand) compactor() *service.Compactor {
	finder := &kimicli.Finder{Getenv: c.getenv}
	finder.Prefetch()
	llm := c.llm
	if llm == nil {
		llm = ownLLM(c.getenv)
	}
	return &service.Compactor{LLM: llm, Prompt: finder.AgentPrompt}
}

// finish writes a compacted session, prints the outcome and returns the
// exit status.
func (c *compactCommand) finish(f *compactFlags, in *compactInput, outcome kompact.Outcome) (int, error) {
	if outcome.Status == kompact.OutcomeCompacted && f.strict && len(outcome.Warnings()) > 0 {
		return c.refuse(f, outcome)
	}
	if outcome.Status == kompact.OutcomeCompacted {
		var written, backup string
		var err error
		switch {
		case f.jsonHoldsSession():
			written = "-"
		case f.kimi:
			written, backup, err = c.writeKimi(f.input, f.out, in, outcome.Result)
		default:
			written, backup, err = c.write(f.input, f.out, in, outcome.Result.Session)
		}
		if err == nil {
			if f.asJSON {
				return c.printJSON(outcome, in.status)
			}
			c.report(outcome, in.agent, written, backup)
			return exitOK, nil
		}
		model := outcome.Model
		outcome = kompact.ErrorOutcome(err)
		outcome.Model = model
	}
	if f.asJSON {
		if status, err := c.printJSON(outcome, in.status); err != nil {
			return status, err
		}
	}
	if outcome.Status == kompact.OutcomeNoop {
		if !f.asJSON {
			fmt.Fprintf(c.stderr, "nothing to compact: %s\n", outcome.Reason)
		}
		return exitNoop, nil
	}
	if f.asJSON {
		return exitError, nil
	}
	return exitError, outcome.Err
}

// refuse ends a --strict compaction whose result has warnings: nothing is
// written, the outcome (as a preview: computed, not applied) or the
// warnings are printed, and the status is exitWarnings.
func (c *compactCommand) refuse(f *compactFlags, outcome kompact.Outcome) (int, error) {
	if f.asJSON {
		outcome.Status = kompact.OutcomePreview
		if status, err := c.printJSON(outcome, nil); err != nil {
			return status, err
		}
		return exitWarnings, nil
	}
	c.printWarnings(c.stderr, outcome)
	return exitWarnings, kompact.Errorf(kompact.EInvalid, "--strict: the result has %d warning(s); nothing was written", len(outcome.Warnings())).
		WithFixes("Run without --strict to keep the result anyway, as kimi-cli does, or compact another range or with another model.")
}

// printWarnings prints the outcome's warnings, one a line.
func (c *compactCommand) printWarnings(w io.Writer, o kompact.Outcome) {
	for _, warn := range o.Warnings() {
		fmt.Fprintf(w, "warning: %s (%s)\n", warn.Message, warn.Code)
	}
}

// execute runs the action's job, with a progress display on
// stderr when it is a terminal.
func (c *compactCommand) execute(ctx context.Context, job *service.Job, in *compactInput, size int) kompact.Outcome {
	if job.Plan.About().Noop {
		return job.Run(ctx, nil)
	}
	if n := job.LimitCompletion(in.agent, size); n > 0 {
		fmt.Fprintf(c.stderr, "completion budget: %d tokens of a %d-token context\n", n, size)
	}
	fmt.Fprintln(c.stderr, describePrompt(in.agent, job.Plan.About()))
	sp := c.spinner(fmt.Sprintf("compacting %s with %s", kompact.CountOf(job.Plan.Counts().Replaced, "message"), job.Config.Model))
	defer sp.stop()
	return job.Run(ctx, sp.update)
}

// write stores the compacted session: to out, to stdout for "-", or in
// place of input after backing it up, provided input still holds what was
// read (else nothing is written and the error is EConflict). A symbolic
// link is written through to its target. It returns where it wrote and
// the backup's name.
func (c *compactCommand) write(input, out string, in *compactInput, s *kompact.Session) (written, backup string, err error) {
	doc := *s
	doc.Pinned = in.pinned
	data := append(doc.AppendJSON(nil), '\n')
	return c.emit(input, out, data, func() (string, error) {
		return atomicfile.ReplaceWithBackup(input, data, in.fp)
	})
}

// writeKimi stores a compacted kimi-cli session: the file kimi-cli's own
// /compact writes, in place with the old file rotated to context_N.jsonl
// (provided the file still holds what was read, else nothing is written
// and the error is EConflict), or to out.
func (c *compactCommand) writeKimi(input, out string, in *compactInput, r *kompact.Result) (written, rotated string, err error) {
	data := kimicli.CompactedFile(in.kctx.SystemPrompt, r.KimiMessages, int64(r.EstimatedTokenCount))
	return c.emit(input, out, data, func() (string, error) { return kimicli.RewriteContext(input, data, in.fp) })
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
	if kompact.ErrorCodeOf(err) == kompact.EConflict {
		return "", "", err
	}
	if err != nil {
		return "", "", kompact.Errorf(kompact.EInternal, "%s was not changed: %w", input, err).
			WithFixes("Pass -o OUT to write the result elsewhere.")
	}
	return input, kept, nil
}

func (c *compactCommand) printJSON(o kompact.Outcome, st *kompact.ContextStatus) (int, error) {
	o.Context = st
	b, err := json.Marshal(o)
	if err != nil {
		return exitError, fmt.Errorf("encode outcome: %w", err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, b, "", "  "); err != nil {
		return exitError, fmt.Errorf("encode outcome: %w", err)
	}
	b = indented.Bytes()
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
	n := r.Counts()
	fmt.Fprintf(w, "compacted %s into one summary (agent %s, model %s); %d kept before it%s, %d after it\n",
		kompact.CountOf(n.Replaced, "message"), agent.Name, o.Model, n.Before, pinnedAfter(n), n.After)
	fmt.Fprintf(w, "estimated tokens: %d -> %d\n", r.TokensBefore, r.TokensAfter)
	if r.Usage != nil {
		fmt.Fprintf(w, "compaction call: %d input tokens (%d cached), %d output tokens\n", r.Usage.Input(), r.Usage.InputCacheRead, r.Usage.Output)
	}
	if r.Fidelity != nil {
		fmt.Fprintln(w, fidelityLine(r.Fidelity))
	}
	c.printWarnings(w, o)
	if len(r.MissingSections) > 0 {
		fmt.Fprintf(w, "the summary lacks sections: %s (kept anyway)\n", strings.Join(r.MissingSections, ", "))
	}
	printWritten(w, written, backup)
}

// printWritten says where a command wrote the session (nothing for stdout)
// and where the original was kept.
func printWritten(w io.Writer, written, backup string) {
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
				if p.Dropped > 0 {
					line += fmt.Sprintf(" (%d oldest left out to fit)", p.Dropped)
				}
				if p.Waiting != "" {
					line += "; " + p.Waiting
				} else if p.Attempt > 1 {
					line += fmt.Sprintf(" (attempt %d of %d)", p.Attempt, p.MaxAttempts)
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

// checkOffers refuses the range flags the agent's compaction type does not
// take (kompact.OffersOf: a kimi-code agent compacts whole sessions), as a
// usage error naming the flag and the type.
func (f *compactFlags) checkOffers(a *kompact.Agent) error {
	offers := kompact.OffersOf(a)
	for _, c := range []struct {
		flag      string
		set, does bool
	}{{"--start", f.start != "", offers.Range}, {"--end", f.end != "", offers.Range}, {"--up-to", f.upTo != "", offers.UpToHere}} {
		if c.set && !c.does {
			return usagef("%s does not go with agent %s: its compaction type %s compacts the whole session; leave %s out, or use an agent of compaction.type kimi", c.flag, a.Name, a.Compaction.Type, c.flag)
		}
	}
	return nil
}

// loadStatus is the exit status of load's error: a usage error's (a flag the
// agent's type does not take), else exitError.
func loadStatus(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}
