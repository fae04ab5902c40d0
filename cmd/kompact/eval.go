package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"kompact"
	"kompact/fidelity"
	"kompact/openai"
	"kompact/service"
	"kompact/sessionjson"
)

// evalCommand measures what an agent's compactions keep: it compacts test
// sessions with planted facts, as compact does, several times each, and
// reports per artifact class the share of planted facts the summaries
// kept (docs/fidelity.md, "kompact eval").
type evalCommand struct {
	*env
	// llm replaces the OpenAI-compatible client in tests.
	llm kompact.LLM
}

// evalFlags are the command line of kompact eval.
type evalFlags struct {
	configPath, agentName, facts string
	runs                         int
	appendixTokens               *int
	probe, asJSON                bool
	session                      string
}

// fact is a planted fact: an artifact a summary should keep.
type fact struct {
	Class kompact.ArtifactClass `json:"class"`
	Text  string                `json:"text"`
}

// scenario is a session to compact and the facts planted in it; sent
// says of each fact whether the compaction request sends it (checkFacts
// sets it).
type scenario struct {
	name    string
	session *kompact.Session
	facts   []fact
	sent    []bool
}

// plantedFact names a planted fact of a scenario in the report.
type plantedFact struct {
	Scenario string                `json:"scenario"`
	Class    kompact.ArtifactClass `json:"class"`
	Text     string                `json:"text"`
}

// classSurvival is one class's figures in the report: planted facts (all
// scenarios), and the share kept: mean, min and max over the runs.
type classSurvival struct {
	Planted  int     `json:"planted"`
	Survival float64 `json:"survival"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
}

// evalFigures are the share of planted facts found (kept by the
// summaries, or recalled by the probes): in all, the mean over the runs,
// and per class.
type evalFigures struct {
	Survival float64                                 `json:"survival"`
	Classes  map[kompact.ArtifactClass]classSurvival `json:"classes"`
}

// evalReport is the --json document: Probe is nil without --probe.
// SentPlanted counts the planted facts the request sends, SentSurvival is
// the share of them kept (the mean over the runs): the model's figure on
// what it was sent; NotSent lists the others, which only the appendix can
// keep.
type evalReport struct {
	Agent        string  `json:"agent"`
	Model        string  `json:"model"`
	Runs         int     `json:"runs"`
	Scenarios    int     `json:"scenarios"`
	SentPlanted  int     `json:"sent_planted"`
	SentSurvival float64 `json:"sent_survival"`
	evalFigures
	NotSent []plantedFact `json:"not_sent"`
	Probe   *evalFigures  `json:"probe"`
}

// Run parses the flags, compacts each scenario --runs times and reports.
func (c *evalCommand) Run(ctx context.Context, args []string) (int, error) {
	f, status, err := c.parse(args)
	if f == nil {
		return status, err
	}
	cfg, err := loadConfig(f.configPath, c.getenv)
	if err != nil {
		return exitError, err
	}
	agent, err := cfg.Agent(f.agentName)
	if err != nil {
		return exitError, err
	}
	scenarios, err := c.scenarios(f)
	if err != nil {
		return exitError, err
	}
	rep, err := c.measure(ctx, f, agent, scenarios)
	if err != nil {
		return exitError, err
	}
	return c.print(f, rep)
}

// parse reads the command line; a nil result means stop with status and err.
func (c *evalCommand) parse(args []string) (*evalFlags, int, error) {
	fs := newFlagSet("eval", "eval [flags] [SESSION.json --facts FACTS.json]", c.stderr)
	f := &evalFlags{}
	fs.StringVar(&f.configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.StringVar(&f.agentName, "agent", "", "agent whose LLM and compaction settings to measure (default: the configuration's default)")
	fs.IntVar(&f.runs, "runs", 3, "compact each session `N` times: summaries vary from run to run, even at temperature 0")
	fs.Var(optionalInt{&f.appendixTokens}, "appendix-tokens", "measure with the preserved_artifacts appendix of `N` tokens (0: none) instead of the agent's compaction.fidelity.appendix_tokens")
	fs.BoolVar(&f.probe, "probe", false, "also ask the agent's model one question per planted fact on each compacted session, and count the answers that hold the fact")
	fs.BoolVar(&f.asJSON, "json", false, "print the figures as JSON")
	fs.StringVar(&f.facts, "facts", "", "with SESSION.json: the facts planted in it, a JSON list of {\"class\", \"text\"}")
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, exitOK, nil
	}
	if err != nil {
		return nil, exitUsage, err
	}
	switch {
	case len(pos) > 1:
		return nil, exitUsage, usagef("eval takes at most one session file, got %d arguments", len(pos))
	case len(pos) == 1 && f.facts == "":
		return nil, exitUsage, usagef("a session of your own needs --facts FACTS.json: the facts its summary should keep")
	case len(pos) == 0 && f.facts != "":
		return nil, exitUsage, usagef("--facts goes with a session file: eval [flags] SESSION.json --facts FACTS.json")
	case f.runs < 1:
		return nil, exitUsage, usagef("--runs must be at least 1, got %d", f.runs)
	}
	if len(pos) == 1 {
		f.session = pos[0]
	}
	return f, exitOK, nil
}

// scenarios returns the built-in scenarios, or the user's session and
// facts.
func (c *evalCommand) scenarios(f *evalFlags) ([]scenario, error) {
	if f.session == "" {
		return builtinScenarios(), nil
	}
	data, err := os.ReadFile(f.session)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read session: %w", err).WithFixes("Pass the path of a session JSON file.")
	}
	s, err := sessionjson.DecodeSession(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.session, err)
	}
	raw, err := os.ReadFile(f.facts)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read facts: %w", err).WithFixes("Pass a JSON file with a list of {\"class\", \"text\"}.")
	}
	var facts []fact
	if err := json.Unmarshal(raw, &facts); err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "%s: not a list of {\"class\", \"text\"}: %v", f.facts, err).
			WithFixes("Write the facts as [{\"class\": \"path\", \"text\": \"cmd/kompact/main.go\"}, ...].")
	}
	for _, ft := range facts {
		if !classKnown(ft.Class) || ft.Text == "" {
			return nil, kompact.Errorf(kompact.EInvalid, "%s: fact %q of class %q: the class must be one of %v and the text not empty", f.facts, ft.Text, ft.Class, kompact.ArtifactClasses()).
				WithFixes("Use the classes of docs/fidelity.md.")
		}
	}
	return []scenario{{name: f.session, session: s, facts: facts}}, nil
}

func classKnown(c kompact.ArtifactClass) bool {
	for _, k := range kompact.ArtifactClasses() {
		if c == k {
			return true
		}
	}
	return false
}

// measure compacts every scenario f.runs times, as compact does (the same
// Compactor, prompt lookup, completion budget and retries), and adds up
// what the summaries kept; with --probe, also what the model recalls on
// each compacted session.
func (c *evalCommand) measure(ctx context.Context, f *evalFlags, agent *kompact.Agent, scenarios []scenario) (*evalReport, error) {
	cc := &compactCommand{env: c.env, llm: c.llm}
	comp := cc.compactor()
	// A missing API key is said first, before the context size is looked
	// up (a look-up without the key fails too, and only warns).
	if _, err := openai.APIKey(c.getenv, service.EffectiveRequest(agent, nil)); err != nil {
		return nil, err
	}
	size := cc.contextSize(ctx, agent, agent.LLM.IsKimi())
	rep := &evalReport{Agent: agent.Name, Runs: f.runs, Scenarios: len(scenarios), NotSent: []plantedFact{}}
	for i := range scenarios {
		if err := checkFacts(comp, agent, &scenarios[i]); err != nil {
			return nil, err
		}
		rep.noteSent(&scenarios[i])
	}
	kept, probed := make(tally, f.runs), make(tally, f.runs)
	for run := range f.runs {
		sentKept := 0
		for _, sc := range scenarios {
			out, err := c.compactOnce(ctx, comp, agent, sc, f, size)
			if err != nil {
				return nil, fmt.Errorf("%s, run %d: %w", sc.name, run+1, err)
			}
			rep.Model = out.Model
			byClass, sent := keptFacts(sc, out.Result.Summary)
			kept.add(run, byClass)
			sentKept += sent
			if !f.probe {
				continue
			}
			found, err := probe(ctx, comp.LLM, agent, sc, out.Result.Session)
			if err != nil {
				return nil, fmt.Errorf("%s, run %d, probe: %w", sc.name, run+1, err)
			}
			probed.add(run, found)
		}
		rep.SentSurvival += ratio(sentKept, rep.SentPlanted) / float64(f.runs)
	}
	planted := plantedOf(scenarios)
	rep.evalFigures = kept.figures(planted)
	if f.probe {
		p := probed.figures(planted)
		rep.Probe = &p
	}
	return rep, nil
}

// plantedOf counts the planted facts of the scenarios per class.
func plantedOf(scenarios []scenario) map[kompact.ArtifactClass]int {
	planted := map[kompact.ArtifactClass]int{}
	for _, sc := range scenarios {
		for _, ft := range sc.facts {
			planted[ft.Class]++
		}
	}
	return planted
}

// tally counts, per run and class, the planted facts found.
type tally []map[kompact.ArtifactClass]int

func (t tally) add(run int, found map[kompact.ArtifactClass]int) {
	if t[run] == nil {
		t[run] = map[kompact.ArtifactClass]int{}
	}
	for cl, n := range found {
		t[run][cl] += n
	}
}

// figures gives the share of the planted facts found: in all (the mean
// over the runs) and per class (the mean, the worst and the best run).
func (t tally) figures(planted map[kompact.ArtifactClass]int) evalFigures {
	total := 0
	for _, n := range planted {
		total += n
	}
	fig := evalFigures{Classes: map[kompact.ArtifactClass]classSurvival{}}
	for run := range t {
		found := 0
		for _, n := range t[run] {
			found += n
		}
		fig.Survival += ratio(found, total) / float64(len(t))
	}
	for _, cl := range kompact.ArtifactClasses() {
		cs := classSurvival{Planted: planted[cl], Min: 1}
		for run := range t {
			s := ratio(t[run][cl], planted[cl])
			cs.Survival += s / float64(len(t))
			cs.Min, cs.Max = min(cs.Min, s), max(cs.Max, s)
		}
		fig.Classes[cl] = cs
	}
	return fig
}

// ratio is kept/n, 1 when nothing was planted.
func ratio(kept, n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(kept) / float64(n)
}

// compactOnce compacts one scenario as compact does; the outcome is a
// compacted one.
func (c *evalCommand) compactOnce(ctx context.Context, comp *service.Compactor, agent *kompact.Agent, sc scenario, f *evalFlags, size int) (kompact.Outcome, error) {
	job, err := comp.NewJob(agent, sc.session, kompact.ActionRequest{Action: kompact.ActionCompactConversation, AppendixTokens: f.appendixTokens})
	if err != nil {
		return kompact.Outcome{}, err
	}
	if err := keyOf(job, false, c.getenv); err != nil {
		return kompact.Outcome{}, err
	}
	job.LimitCompletion(agent, size)
	out := job.Run(ctx, nil)
	switch out.Status {
	case kompact.OutcomeCompacted:
		return out, nil
	case kompact.OutcomeNoop:
		return out, kompact.Errorf(kompact.EInvalid, "nothing to compact: %s", out.Reason)
	default:
		return out, out.Err
	}
}

// keptFacts counts, per class, the planted facts of sc that summary keeps
// (fidelity.MeasureFidelity's rule), and those of them the request sent.
func keptFacts(sc scenario, summary string) (map[kompact.ArtifactClass]int, int) {
	arts := make([]kompact.Artifact, len(sc.facts))
	for i, ft := range sc.facts {
		arts[i] = kompact.Artifact{Class: ft.Class, Text: ft.Text, Sent: sc.sent[i]}
	}
	kept := map[kompact.ArtifactClass]int{}
	f := fidelity.MeasureFidelity(arts, summary)
	for cl, cf := range f.Classes {
		kept[cl] = cf.Kept
	}
	return kept, f.SentKept
}

// print writes the report: JSON, or a table for people.
func (c *evalCommand) print(f *evalFlags, rep *evalReport) (int, error) {
	if f.asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return exitError, err
		}
		fmt.Fprintf(c.stdout, "%s\n", b)
		return exitOK, nil
	}
	fmt.Fprintf(c.stdout, "agent %s, model %s: %d scenario(s), %d run(s) each\n", rep.Agent, rep.Model, rep.Scenarios, rep.Runs)
	planted := rep.SentPlanted + len(rep.NotSent)
	fmt.Fprintf(c.stdout, "planted facts kept: %.0f%% of the %d sent to the model on average", rep.SentSurvival*100, rep.SentPlanted)
	if len(rep.NotSent) > 0 {
		fmt.Fprintf(c.stdout, "; %d more sit only in parts the request does not send (only the appendix can keep them)", len(rep.NotSent))
	}
	fmt.Fprintln(c.stdout)
	c.printFigures(fmt.Sprintf("of all %d planted", planted), "kept", rep.evalFigures)
	for _, nf := range rep.NotSent {
		fmt.Fprintf(c.stdout, "  not sent: %s, %s %s\n", nf.Scenario, nf.Class, nf.Text)
	}
	if rep.Probe != nil {
		c.printFigures("probe answers holding their fact", "recalled", *rep.Probe)
	}
	return exitOK, nil
}

// printFigures writes one set of figures for people: title, then a line
// per class with facts planted.
func (c *evalCommand) printFigures(title, verb string, fig evalFigures) {
	fmt.Fprintf(c.stdout, "%s: %.0f%% on average\n", title, fig.Survival*100)
	for _, cl := range kompact.ArtifactClasses() {
		cs := fig.Classes[cl]
		if cs.Planted == 0 {
			continue
		}
		fmt.Fprintf(c.stdout, "  %-11s %3d planted, %s %5.1f%% (min %5.1f%%, max %5.1f%%)\n", cl, cs.Planted, verb, cs.Survival*100, cs.Min*100, cs.Max*100)
	}
}

// builtinScenarios are three coding sessions generated from fixed seeds:
// facts of every class at the start, the middle and the end of the
// compacted range (the middle path and command only in a tool call's
// arguments, which the request does not send), with filler turns between
// them and two filler messages after, which compaction preserves.
func builtinScenarios() []scenario {
	out := make([]scenario, 0, 3)
	for seed := uint64(1); seed <= 3; seed++ {
		out = append(out, generateScenario(seed))
	}
	return out
}

var evalWords = []string{"parser", "cache", "ledger", "router", "quota", "index", "token", "budget", "widget", "report", "buffer", "schema"}

// generateScenario builds the scenario of seed.
func generateScenario(seed uint64) scenario {
	r := rand.New(rand.NewPCG(seed, 20))
	word := func() string { return evalWords[r.IntN(len(evalWords))] }
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	g := &scenarioBuilder{r: r}
	for pos, where := range []string{"start", "middle", "end"} {
		w1, w2, n := word(), word(), strconv.Itoa(100+r.IntN(900))
		path := "internal/" + w1 + "/" + w2 + "_" + n + ".go"
		cmd := "go test -run Test" + title(w2) + n + " ./internal/" + w1 + "/"
		errLine := "panic: " + w1 + " " + w2 + " " + n + " out of range"
		url := "https://example.com/" + w1 + "/" + n
		ident := title(w1) + title(w2) + "Config" + n
		todo := "wire the " + w1 + " " + w2 + " " + n + " into the " + where + " step"
		g.facts = append(g.facts, fact{kompact.ArtifactPath, path}, fact{kompact.ArtifactCommand, cmd}, fact{kompact.ArtifactError, errLine},
			fact{kompact.ArtifactURL, url}, fact{kompact.ArtifactIdentifier, ident}, fact{kompact.ArtifactTodo, todo})
		g.filler(2 + r.IntN(3))
		if pos == 1 {
			g.toolCall(path, cmd, errLine)
		} else {
			g.user("Please look at " + path + " and run this:\n$ " + cmd)
			g.assistantText("I ran it; it failed with:\n" + errLine)
		}
		g.user("The design notes are at " + url + ". Keep " + ident + " as it is.\nTODO: " + todo)
		g.assistantText("Understood, I will keep that in mind.")
	}
	g.filler(1)
	return scenario{name: "scenario " + strconv.FormatUint(seed, 10), session: &kompact.Session{ID: "eval-" + strconv.FormatUint(seed, 10), Messages: g.msgs}, facts: g.facts}
}

// scenarioBuilder appends the messages of a scenario.
type scenarioBuilder struct {
	r     *rand.Rand
	msgs  []kompact.Message
	facts []fact
	calls int
}

func (g *scenarioBuilder) add(m kompact.Message) {
	m.ID = "m" + strconv.Itoa(len(g.msgs)+1)
	g.msgs = append(g.msgs, m)
}

func (g *scenarioBuilder) user(text string) {
	g.add(kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}})
}

func (g *scenarioBuilder) assistantText(text string) {
	g.add(kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart(text)}})
}

// filler adds n turns of talk without artifacts.
func (g *scenarioBuilder) filler(n int) {
	lines := []string{"Let us continue with the next part.", "That looks reasonable to me.", "I checked the surrounding code and nothing else needs to change.",
		"we should keep the behaviour the same for existing users", "the tests pass on my machine now"}
	for range n {
		g.user(lines[g.r.IntN(len(lines))])
		g.assistantText(lines[g.r.IntN(len(lines))] + " " + lines[g.r.IntN(len(lines))])
	}
}

// toolCall adds an assistant message whose path and command are only in a
// tool call's arguments, the tool's result with the error, and the
// assistant's note on it.
func (g *scenarioBuilder) toolCall(path, cmd, errLine string) {
	g.calls++
	id := "call_" + strconv.Itoa(g.calls)
	args, _ := json.Marshal(map[string]string{"command": cmd, "path": path})
	a := string(args)
	g.add(kompact.Message{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("Running the tests for that package.")},
		ToolCalls: []kompact.ToolCall{{ID: id, Name: "Shell", Arguments: &a}}})
	g.add(kompact.Message{Role: kompact.RoleTool, ToolCallID: id, HasToolCallID: true, Content: []kompact.Part{kompact.TextPart(errLine + "\nexit status 2")}})
	g.assistantText("The tests failed; see the output above.")
}
