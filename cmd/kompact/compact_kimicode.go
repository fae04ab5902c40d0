package main

// kompact compact --kimi-code and request --kimi-code: a Kimi Code 2.1.0 session folder
// compacted as Kimi Code's own /compact does (docs/kimi-code.md).

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kompact"
	"kompact/fidelity"
	"kompact/httpapi"
	"kompact/internal/atomicfile"
	"kompact/kimicode"
	"kompact/openai"
	"kompact/service"
)

// kimiCodeInput is a Kimi Code session read for a compaction.
type kimiCodeInput struct {
	sess *kimicode.Session
	wire *kimicode.Wire
	// data and fp are wire.jsonl as it was read: the records are appended to data,
	// provided the file still holds it.
	data []byte
	fp   atomicfile.Fingerprint
	req  *kimicode.Request
	// agent is the kompact agent whose LLM compact calls (nil for request without one).
	agent *kompact.Agent
}

// loadKimiCode reads the session folder f.input, Kimi Code's texts (a warning on stderr
// when they are not Kimi Code's) and the model's context size: the Kimi Code home's
// config.toml, else the agent's llm.max_context_size, else contextSize.
func (e *env) loadKimiCode(ctx context.Context, f *compactFlags, contextSize int) (*kimiCodeInput, error) {
	texts, warning := (&kimicode.Finder{Getenv: e.getenv}).Find()
	if warning != "" {
		fmt.Fprintln(e.stderr, warning)
	}
	sess, err := kimicode.OpenSession(f.input)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "%w", err).
			WithFixes("Pass a Kimi Code session folder (…/sessions/<workspace>/<session_id>/) or its agents/main/wire.jsonl.")
	}
	in := &kimiCodeInput{sess: sess}
	if in.data, in.fp, err = atomicfile.ReadFile(sess.WirePath); err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read the session's wire.jsonl: %w", err)
	}
	if in.wire, err = kimicode.ReadWireContext(ctx, bytes.NewReader(in.data), texts, kimicode.Limits{}); err != nil {
		return nil, wireError(sess.WirePath, err)
	}
	if cfg, err := loadConfig(f.configPath, e.getenv); err == nil {
		in.agent, _ = cfg.Agent(f.agentName)
	}
	window := e.kimiCodeWindow(sess, in.wire.ModelAlias)
	if window <= 0 && in.agent != nil {
		window = in.agent.LLM.MaxContextSize
	}
	if window <= 0 {
		window = contextSize
	}
	if window <= 0 {
		return nil, kompact.Errorf(kompact.EInvalid, "the context size of model %q is unknown", in.wire.ModelAlias).
			WithFixes("Set max_context_size in the Kimi Code home's config.toml, the agent's llm.max_context_size, or pass --max-context-size N.")
	}
	in.req = &kimicode.Request{Wire: in.wire, SessionID: sess.ID, Window: window, Instruction: f.instructions, Texts: texts}
	return in, nil
}

// wireError is what kompact says of a wire.jsonl at path it could not fold: a damaged
// line by its number and offset, a record of another Kimi Code version as such.
func wireError(path string, err error) error {
	var damaged *kimicode.DamagedError
	var unknown *kimicode.UnknownRecordError
	switch {
	case errors.As(err, &damaged) && damaged.Torn:
		return kompact.Errorf(kompact.EInvalid, "%s: %w", path, err).
			WithFixes("Kimi Code may still be writing the session (or a crash cut its last write short): close Kimi Code's session and run kompact again.",
				fmt.Sprintf("If Kimi Code is not running, the last record is lost: keep a copy of the file and cut it at byte %d (truncate -s %d FILE) to use what came before.", damaged.Offset, damaged.Offset))
	case errors.As(err, &damaged):
		return kompact.Errorf(kompact.EInvalid, "%s: %w", path, err).
			WithFixes(fmt.Sprintf("The file is damaged at line %d (byte offset %d): restore the session folder from a backup; kompact does not read a damaged wire.jsonl.", damaged.Line, damaged.Offset))
	case errors.As(err, &unknown):
		return kompact.Errorf(kompact.EInvalid, "%s: %w", path, err).
			WithFixes("Compact this session with Kimi Code itself (/compact): kompact reads Kimi Code 2.1.0's records only.")
	case kompact.ErrorCodeOf(err) != kompact.EInternal:
		return err
	}
	return kompact.Errorf(kompact.EInvalid, "%s: %w", path, err).
		WithFixes("kompact reads Kimi Code 2.1.0's records only: compact this session with Kimi Code itself (/compact).")
}

// kimiCodeWindow is max_context_size of the model alias in the session's Kimi Code home
// (the folder above sessions/, else $KIMI_CODE_HOME); 0 when unknown.
func (e *env) kimiCodeWindow(sess *kimicode.Session, alias string) int {
	home := sess.Home
	if home == "" {
		home = e.getenv("KIMI_CODE_HOME")
	}
	if home == "" {
		return 0
	}
	n, err := kimicode.ContextSize(home, alias)
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: %v\n", err)
	}
	return n
}

// kimiCodeLine says what a Kimi Code compaction replaces.
func kimiCodeLine(in *kimiCodeInput) string {
	return fmt.Sprintf("compacts the %s of Kimi Code session %s into one summary (model %s, a %d-token context, max_tokens %d)",
		kompact.CountOf(len(in.wire.Context), "context message"), in.sess.ID, in.wire.Model, in.req.Window, kimicode.MaxTokens(in.req.Window))
}

// runKimiCode is compact --kimi-code: the request, the agent's LLM, the six records
// appended to wire.jsonl (nothing changes on disk when anything fails).
func (c *compactCommand) runKimiCode(ctx context.Context, f *compactFlags) (int, error) {
	in, err := c.loadKimiCode(ctx, f, 0)
	if err != nil {
		return exitError, err
	}
	if len(in.wire.Context) == 0 {
		fmt.Fprintln(c.stderr, "nothing to compact: the session's context is empty")
		return exitNoop, nil
	}
	if in.agent == nil {
		_, err := loadAgent(f, c.getenv)
		return exitError, err
	}
	fmt.Fprintln(c.stderr, kimiCodeLine(in))
	if f.dryRun {
		fmt.Fprintf(c.stdout, "dry run: would send %d bytes to %s and append 6 records to %s (lines %d-%d)\n",
			len(in.req.Body()), in.agent.LLM.BaseURL, in.sess.WirePath, in.wire.Lines+1, in.wire.Lines+6)
		return exitOK, nil
	}
	rc := service.EffectiveRequest(in.agent, nil)
	// The body names the session's model, not the agent's: so do the call's errors.
	rc.Model = in.wire.Model
	answer, err := (&openai.Client{Getenv: c.getenv}).CompleteBody(ctx, rc, in.req.Body(), nil)
	if err != nil {
		return exitError, err
	}
	a := kimicode.Answer{Text: answerText(answer)}
	if u := answer.Usage; u != nil {
		a.PromptTokens, a.CachedTokens, a.CompletionTokens = int(u.InputOther+u.InputCacheRead), int(u.InputCacheRead), int(u.Output)
	}
	if strings.TrimSpace(a.Text) == "" {
		return exitError, kompact.Errorf(kompact.EEmptyResponse, "the model's answer holds no summary; %s was not changed", in.sess.WirePath)
	}
	o := in.req.Apply(a, in.sess.WirePath, "manual", time.Now().UnixMilli())
	if err := appendRecords(in, kimicode.Records(in.wire, o)); err != nil {
		return exitError, err
	}
	fid := fidelity.MeasureFidelity(fidelity.Artifacts(kimicode.ToKompact(in.wire.Context)), o.Summary)
	warnings := (&kompact.Result{TokensBefore: o.TokensBefore, TokensAfter: o.TokensAfter}).Warnings()
	return c.kimiCodeReport(f, in, o, &fid, warnings)
}

// checkKimiCodeFlags rejects the flags --kimi-code does not take: Kimi Code compacts
// the whole context, with the session's model, and writes to its own wire.jsonl.
func (f *compactFlags) checkKimiCode() error {
	for flag, set := range map[string]bool{"--start": f.start != "", "--end": f.end != "", "--up-to": f.upTo != "",
		"--model": f.model != "", "--max-preserved": f.maxPreserved != nil, "--appendix-tokens": f.appendixTokens != nil,
		"--auto": f.auto, "--strict": f.strict, "-o": f.out != ""} {
		if set {
			return usagef("%s does not go with --kimi-code: Kimi Code compacts the whole context with the session's model and appends to its wire.jsonl", flag)
		}
	}
	return nil
}

// loadAgent is the agent f names, for its error.
func loadAgent(f *compactFlags, getenv func(string) string) (*kompact.Agent, error) {
	cfg, err := loadConfig(f.configPath, getenv)
	if err != nil {
		return nil, err
	}
	return cfg.Agent(f.agentName)
}

// answerText is the text of an answer's text parts.
func answerText(a kompact.Answer) string {
	var b strings.Builder
	(&kompact.Message{Content: a.Parts}).Texts(func(s string) { b.WriteString(s) })
	return b.String()
}

// beforeKimiCodeAppend runs between appendRecords' check of wire.jsonl and its write (a
// seam for the tests of what another writer appends then).
var beforeKimiCodeAppend = func(path string) {}

// appendRecords appends recs to wire.jsonl, provided it still holds what was read (else
// nothing is written: EConflict). The file is opened for appending, checked through that
// descriptor, then written in one write at its end: a record another writer (Kimi Code)
// appends after the check lands before kompact's, and one that keeps its descriptor open
// goes on writing to the same file. A write that fails is taken back when nothing came
// after it.
func appendRecords(in *kimiCodeInput, recs []byte) error {
	path := in.sess.WirePath
	data := in.data
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return kompact.Errorf(kompact.EConflict, "%s does not end with a newline: Kimi Code may be writing it; it was not changed", path).
			WithFixes("Close Kimi Code's session and run kompact again.")
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return kompact.Errorf(kompact.EInternal, "%s was not changed: %w", path, err)
	}
	defer f.Close()
	if err := in.fp.CheckFile(path, f); err != nil {
		return err
	}
	beforeKimiCodeAppend(path)
	n, err := f.Write(recs)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return kompact.Errorf(kompact.EInternal, "%s: %s", path, takeBack(f, n, err)).
			WithFixes("Check the free space and permissions of the session's folder, then compact again.")
	}
	return nil
}

// takeBack undoes a failed append of which n bytes were written (f at its end), when no
// one wrote after them, and says what became of the file.
func takeBack(f *os.File, n int, err error) string {
	if n == 0 {
		return fmt.Sprintf("it was not changed: %v", err)
	}
	end, serr := f.Seek(0, io.SeekEnd)
	st, sterr := f.Stat()
	if serr == nil && sterr == nil && st.Size() == end && f.Truncate(end-int64(n)) == nil {
		return fmt.Sprintf("it was not changed (the %d bytes written were taken back): %v", n, err)
	}
	return fmt.Sprintf("the append failed after %d bytes, which end the file as a torn line: %v", n, err)
}

// kimiCodeReport prints what a Kimi Code compaction did: a report, or --json's outcome.
func (c *compactCommand) kimiCodeReport(f *compactFlags, in *kimiCodeInput, o *kimicode.Outcome, fid *kompact.Fidelity, warnings []kompact.Warning) (int, error) {
	for _, w := range warnings {
		fmt.Fprintf(c.stderr, "warning: %s (%s)\n", w.Message, w.Code)
	}
	if warnings == nil {
		warnings = []kompact.Warning{}
	}
	if f.asJSON {
		b, err := json.MarshalIndent(map[string]any{
			"status": "compacted", "session": in.sess.ID, "wire": in.sess.WirePath, "model": in.wire.Model,
			"compacted_count": o.CompactedCount, "kept_user_messages": o.Handoff.Kept, "elided": o.Handoff.Elided,
			"tokens_before": o.TokensBefore, "tokens_after": o.TokensAfter, "summary": o.Summary,
			"records":  map[string]int{"first_line": in.wire.Lines + 1, "last_line": in.wire.Lines + 6},
			"usage":    map[string]int{"input": o.PromptTokens, "input_cache_read": o.CachedTokens, "output": o.CompletionTokens},
			"fidelity": fid, "warnings": warnings,
		}, "", "  ")
		if err != nil {
			return exitError, err
		}
		_, err = c.stdout.Write(append(b, '\n'))
		return exitOK, err
	}
	fmt.Fprintf(c.stdout, "compacted %s into one summary (model %s); kept %s\n",
		kompact.CountOf(o.CompactedCount, "context message"), in.wire.Model, kompact.CountOf(o.Handoff.Kept, "user message"))
	fmt.Fprintf(c.stdout, "estimated tokens: %d -> %d\n", o.TokensBefore, o.TokensAfter)
	fmt.Fprintf(c.stdout, "compaction call: %d input tokens (%d cached), %d output tokens\n", o.PromptTokens, o.CachedTokens, o.CompletionTokens)
	fmt.Fprintln(c.stdout, fidelityLine(fid))
	fmt.Fprintf(c.stdout, "wrote %s (6 records appended, lines %d-%d); resume with: kimi -r %s\n",
		in.sess.WirePath, in.wire.Lines+1, in.wire.Lines+6, in.sess.ID)
	return exitOK, nil
}

// runKimiCodeRequest is request --kimi-code: the body of the compaction request Kimi
// Code would send, on stdout.
func (c *requestCommand) runKimiCodeRequest(f *requestFlags) (int, error) {
	in, err := c.loadKimiCode(context.Background(), &f.compactFlags, f.contextSize)
	if err != nil {
		return exitError, err
	}
	if len(in.wire.Context) == 0 {
		fmt.Fprintln(c.stderr, "nothing to compact: the session's context is empty")
		return exitNoop, nil
	}
	fmt.Fprintln(c.stderr, kimiCodeLine(in))
	if _, err := c.stdout.Write(append(in.req.Body(), '\n')); err != nil {
		return exitError, fmt.Errorf("write stdout: %w", err)
	}
	return exitOK, nil
}

// importKimiCode is sessions import --kimi-code: the session's system prompt (a leading
// system message) and its context, folded from wire.jsonl as Kimi Code folds it, become a
// session document the server imports, with the Kimi Code session's id.
func (c *sessionsCommand) importKimiCode(ctx context.Context, api *httpapi.Client, path string) (int, error) {
	texts, warning := (&kimicode.Finder{Getenv: c.getenv}).Find()
	sess, err := kimicode.OpenSession(path)
	if err != nil {
		return exitError, kompact.Errorf(kompact.EInvalid, "%w", err).
			WithFixes("Pass a Kimi Code session folder (…/sessions/<workspace>/<session_id>/) or its agents/main/wire.jsonl.")
	}
	data, err := os.ReadFile(sess.WirePath)
	if err != nil {
		return exitError, kompact.Errorf(kompact.EInvalid, "read the session's wire.jsonl: %w", err)
	}
	doc, w, err := kimicode.ImportWireContext(ctx, data, texts, kimicode.Limits{})
	if err != nil {
		return exitError, wireError(sess.WirePath, err)
	}
	if len(w.Applied) > 0 && warning != "" {
		fmt.Fprintln(c.stderr, warning)
	}
	doc.ID = sess.ID
	s, err := api.ImportSession(ctx, c.renamed(doc))
	if err != nil {
		return exitError, importFixes(reachError(err))
	}
	return c.imported(s)
}

// exportKimiCode is sessions export --kimi-code: doc written as a Kimi Code session folder,
// out if given, else in the Kimi Code home ($KIMI_CODE_HOME, else ~/.kimi-code) under the
// workspace of --cwd, where `kimi -r ID` run in that folder finds it. An existing folder
// is not overwritten; the folder appears whole or not at all.
func (c *sessionsCommand) exportKimiCode(doc *kompact.Session, out string) (int, error) {
	if out == "-" {
		return exitUsage, usagef("sessions export --kimi-code writes a folder: -o names it (leave -o out for the Kimi Code home)")
	}
	cwd, err := filepath.Abs(cmp.Or(c.cwd, "."))
	if err != nil {
		return exitError, err
	}
	texts, _ := (&kimicode.Finder{Getenv: c.getenv}).Find()
	home := c.getenv("KIMI_CODE_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return exitError, kompact.Errorf(kompact.EInvalid, "no Kimi Code home: %w", err).WithFixes("Set $KIMI_CODE_HOME to the Kimi Code home.")
		}
		home = filepath.Join(h, ".kimi-code")
	}
	model, err := kimicode.DefaultModel(home)
	if err != nil || model == "" {
		return exitError, kompact.Errorf(kompact.EInvalid, "the Kimi Code home %s names no default_model in its config.toml (%v)", home, err).
			WithFixes("Set $KIMI_CODE_HOME to the home of the Kimi Code that resumes the session, with a default_model in its config.toml (kimi's /model sets it).")
	}
	ws := kimicode.WorkspaceID(cwd)
	id, note, err := exportID(home, ws, doc.ID)
	if err != nil {
		return exitError, err
	}
	dir := cmp.Or(out, filepath.Join(home, "sessions", ws, id))
	if dir, err = filepath.Abs(dir); err != nil {
		return exitError, err
	}
	if _, err := os.Lstat(dir); err == nil {
		return exitError, kompact.Errorf(kompact.EConflict, "%s already exists", dir).
			WithFixes("Delete that folder first, or pass -o another folder: an export does not overwrite a session.")
	}
	e := kimicode.ExportAs(doc, id, dir, cwd, model, time.Now(), texts)
	if err := writeSessionFolder(dir, e); err != nil {
		return exitError, kompact.Errorf(kompact.EInternal, "%w", err).WithFixes("Check that the folder's parent is writable.")
	}
	if note != "" {
		fmt.Fprintln(c.stderr, note)
	}
	fmt.Fprintf(c.stdout, "wrote session %s (%s) as Kimi Code session %s in %s; resume it in %s with: kimi -r %s\n",
		doc.ID, kompact.CountOf(len(doc.Messages), "message"), id, dir, cwd, id)
	return exitOK, nil
}

// exportID is the Kimi Code session id of kompact session id exported into workspace ws
// of home: kimicode.ExportID, unless another workspace of the home holds that id (a Kimi
// Code session already, the original of an imported session or an earlier export into
// another folder). Kimi Code tells sessions by their id alone, so a second folder with
// the same id would keep the first from resuming: the export then takes an id of its own
// (kimicode.ExportIDIn, the same each time for that folder), and the note says so. A user
// exporting a session into a second working folder wants it in both; the original stays
// as it was.
func exportID(home, ws, id string) (string, string, error) {
	xid := kimicode.ExportID(id)
	other := kimicode.WorkspaceHolding(home, xid)
	if other == "" || other == ws {
		return xid, "", nil
	}
	nid := kimicode.ExportIDIn(id, ws)
	if w := kimicode.WorkspaceHolding(home, nid); w != "" && w != ws {
		return "", "", kompact.Errorf(kompact.EConflict, "the Kimi Code home %s holds both %s and %s, in other workspaces than this folder's", home, xid, nid).
			WithFixes("Export with -o into a folder of your own, or delete one of those session folders first.")
	}
	return nid, fmt.Sprintf("note: the Kimi Code home already holds session %s in another working folder (sessions/%s); this export is Kimi Code session %s, so that both resume", xid, other, nid), nil
}

// writeSessionFolder writes e's files into a folder beside dir and renames it to dir.
func writeSessionFolder(dir string, e *kimicode.Exported) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".kompact-export-")
	if err != nil {
		return err
	}
	err = os.MkdirAll(filepath.Join(tmp, "agents", "main"), 0o700)
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "state.json"), e.State, 0o600)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "agents", "main", "wire.jsonl"), e.Wire, 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return err
}
