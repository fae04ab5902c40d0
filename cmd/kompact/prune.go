package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"kompact"
	"kompact/service"
	"kompact/sessionjson"
	"kompact/toolprune"
)

// pruneCommand clears the text of old, long tool results of a session file
// (prune_tool_results): no LLM call.
type pruneCommand struct {
	*env
}

// pruneFlags are the command line of kompact prune.
type pruneFlags struct {
	agentName, configPath, out, input string
	keepRecent, minChars              *int
	asJSON                            bool
}

func (c *pruneCommand) parse(args []string) (*pruneFlags, int, error) {
	fs := newFlagSet("prune", "prune [flags] SESSION.json (- reads stdin)", c.stderr)
	f := &pruneFlags{}
	fs.StringVar(&f.agentName, "agent", "", "agent whose compaction.prune settings to use (default: the session's agent, else the configuration's default)")
	fs.StringVar(&f.configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.Var(pruneSetting{optionalInt{&f.keepRecent}}, "keep-recent", "keep the latest `N` tool exchanges whole (default: the agent's compaction.prune.keep_recent, else 5)")
	fs.Var(pruneSetting{optionalInt{&f.minChars}}, "min-chars", "clear only outputs longer than `N` characters (default: the agent's compaction.prune.min_chars, else 2000)")
	fs.StringVar(&f.out, "o", "", "write the pruned session here (- for stdout); default: replace SESSION.json, keeping a backup")
	fs.BoolVar(&f.asJSON, "json", false, "print the outcome as JSON instead of a report")
	pos, err := parseArgs(fs, args, 1, "exactly one session file (or - for stdin)")
	if err != nil {
		status, err := flagExit(err)
		return nil, status, err
	}
	f.input = pos[0]
	if f.out == "" && f.input == "-" {
		f.out = "-"
	}
	if f.asJSON && f.out == "-" {
		return nil, exitUsage, usagef("--json prints the outcome on stdout, so the pruned session cannot go there too; give -o FILE")
	}
	return f, exitOK, nil
}

// pruneSetting is an optionalInt flag of a pruning setting: a value out of
// toolprune's bounds is a usage error naming the flag (as one that is no
// number is), not the configuration field it stands in for.
type pruneSetting struct{ optionalInt }

func (p pruneSetting) Set(s string) error {
	if err := p.optionalInt.Set(s); err != nil {
		return err
	}
	if n := **p.v; n < 0 || n > toolprune.MaxSetting {
		return fmt.Errorf("it must be a whole number from 0 to %d", toolprune.MaxSetting)
	}
	return nil
}

// Run prunes the session, writes it and prints a report; nothing to prune
// exits 3 and writes nothing.
func (c *pruneCommand) Run(_ context.Context, args []string) (int, error) {
	f, status, err := c.parse(args)
	if f == nil {
		return status, err
	}
	cc := &compactCommand{env: c.env}
	cf := &compactFlags{out: f.out, input: f.input}
	cc.outIsInput(cf)
	in := &compactInput{}
	data, err := cc.readSession(f.input, &in.fp)
	if err != nil {
		return exitError, err
	}
	if err := checkSessionUTF8(f.input, data); err != nil {
		return exitError, err
	}
	if in.sess, err = sessionjson.DecodeSession(data); err != nil {
		return exitError, kimiFileError(fmt.Errorf("%s: %w", inputName(f.input), err), f.input, data, "")
	}
	opts, err := c.options(f, in.sess)
	if err != nil {
		return exitError, err
	}
	opts.Pinned = service.PinnedIndexes(in.sess) // the file's own pins
	r := toolprune.Prune(in.sess.Messages, opts)
	out := toolprune.Outcome{Status: toolprune.StatusPruned, Prune: r.Report()}
	if r.Noop() {
		out.Status, out.Reason = toolprune.StatusNoop, r.NoopReason()
		return c.finish(f, out, "", "", exitNoop)
	}
	s := *in.sess
	s.Messages = r.Messages
	written, backup, err := cc.write(f.input, cf.out, in, &s)
	if err != nil {
		return exitError, err
	}
	return c.finish(f, out, written, backup, exitOK)
}

// options are the pruning's settings: the flags, else the agent's
// compaction.prune, else the defaults.
func (c *pruneCommand) options(f *pruneFlags, s *kompact.Session) (toolprune.Options, error) {
	cfg, err := loadConfig(f.configPath, c.getenv)
	if err != nil {
		return toolprune.Options{}, err
	}
	name := f.agentName
	if name == "" {
		name = s.Agent
	}
	a, err := cfg.Agent(name)
	if err != nil {
		return toolprune.Options{}, err
	}
	o := a.Compaction.Prune
	if f.keepRecent != nil {
		o.KeepRecent = f.keepRecent
	}
	if f.minChars != nil {
		o.MinChars = f.minChars
	}
	opts := toolprune.OptionsOf(o)
	return opts, opts.Check()
}

// finish prints the outcome (a report, or JSON with --json) and returns
// status.
func (c *pruneCommand) finish(f *pruneFlags, out toolprune.Outcome, written, backup string, status int) (int, error) {
	if f.asJSON {
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return exitError, err
		}
		_, err = c.stdout.Write(append(b, '\n'))
		return status, err
	}
	w := c.stdout
	if written == "-" {
		w = c.stderr
	}
	if out.Status == toolprune.StatusNoop {
		fmt.Fprintf(w, "nothing to prune: %s\n", out.Reason)
		return status, nil
	}
	p := out.Prune
	fmt.Fprintf(w, "pruned %s (%d chars) older than the last %s\n", kompact.CountOf(p.Results, "tool result"), p.Chars, kompact.CountOf(p.KeepRecent, "tool exchange"))
	fmt.Fprintf(w, "estimated tokens: %d -> %d\n", p.TokensBefore, p.TokensAfter)
	fmt.Fprintln(w, markerFidelityLine(p.Fidelity))
	printWritten(w, written, backup)
	return status, nil
}

// markerFidelityLine says what the markers keep of the cleared texts'
// artifacts: "artifacts the markers keep: 31 of 57 (paths 20/20, errors
// 5/5, commands 0/9)".
func markerFidelityLine(f *kompact.Fidelity) string {
	var parts []string
	for _, cl := range kompact.ArtifactClasses() {
		if cf := f.Classes[cl]; cf.Artifacts > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", classPlurals[cl], cf.Kept, cf.Artifacts))
		}
	}
	if len(parts) == 0 {
		return "artifacts the markers keep: none to keep in the cleared text"
	}
	return fmt.Sprintf("artifacts the markers keep: %d of %d (%s)", f.Kept, f.Artifacts, strings.Join(parts, ", "))
}
