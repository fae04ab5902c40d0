package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/atomicfile"
	"kompact/internal/urlsecret"
	"kompact/kimicli"
	"kompact/sessionjson"
)

// The environment variables of the sessions command.
const (
	urlEnv     = "KOMPACT_URL"
	defaultURL = "http://127.0.0.1:8484"
)

// sessionsCommand manages the sessions of a running server over HTTP.
type sessionsCommand struct {
	*env
	// client sends the requests; nil means a client without a timeout.
	client *http.Client
	// kimi is set by --kimi: files are kimi-cli context.jsonl files;
	// kimiCode by --kimi-code: Kimi Code session folders.
	kimi, kimiCode bool
	// id and agent, set by --id and --agent, replace the imported
	// document's own.
	id, agent string
	// cwd, set by --cwd, is the working folder of a session exported with
	// --kimi-code.
	cwd string
	// sideCalls, set by --side-calls, lists the gateway's side calls too.
	sideCalls bool
}

// sessionsSynopsis is the usage of each subcommand, a line each; all of
// them take --url and --token, which the flags list says.
const sessionsSynopsis = `sessions list
sessions import [--kimi | --kimi-code] [--id ID] [--agent NAME] FILE
sessions export [--kimi] [-o OUT] ID
sessions export --kimi-code [--cwd DIR] [-o SESSION_DIR] ID
sessions delete ID`

// Run runs one of the sessions subcommands.
func (c *sessionsCommand) Run(ctx context.Context, args []string) (int, error) {
	fs := newFlagSet("sessions", sessionsSynopsis, c.stderr)
	var base, token, out string
	var kimi bool
	fs.StringVar(&base, "url", "", "the server's address (default: $"+urlEnv+", else "+defaultURL+")")
	fs.StringVar(&token, "token", "", "bearer token (default: $"+tokenEnv+")")
	fs.StringVar(&out, "o", "", "export: write the session document here instead of stdout (- for stdout); with --kimi-code, the session folder to write (default: in the Kimi Code home)")
	fs.BoolVar(&kimi, "kimi", false, "import/export: the file is a kimi-cli context.jsonl")
	fs.BoolVar(&c.kimiCode, "kimi-code", false, "import: FILE is a Kimi Code session folder (or its agents/main/wire.jsonl): its system prompt and context become the session's messages; export: write the session as a Kimi Code session folder")
	fs.StringVar(&c.cwd, "cwd", "", "export --kimi-code: the working folder Kimi Code resumes the session in (default: the current folder)")
	fs.StringVar(&c.id, "id", "", "import: the id the imported session gets, in place of the file's own (default: the file's, else one is assigned)")
	fs.BoolVar(&c.sideCalls, "side-calls", false, "list: the gateway's side calls too (a client's one-shot title requests, their titles marked (side call)), which the list leaves out otherwise")
	fs.StringVar(&c.agent, "agent", "", "import: the server's agent the session is run with, in place of the file's own (default: the file's, else the server's default agent)")
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	if err != nil {
		return exitUsage, err
	}
	if len(pos) == 0 {
		return exitUsage, usagef("sessions needs a subcommand: list, import, export or delete")
	}
	want := map[string]int{"list": 0, "import": 1, "export": 1, "delete": 1}
	n, ok := want[pos[0]]
	if !ok {
		return exitUsage, unknownName("sessions subcommand", pos[0], []string{"list", "import", "export", "delete"})
	}
	if len(pos)-1 != n {
		if n == 0 {
			return exitUsage, usagef("sessions %s takes no arguments", pos[0])
		}
		return exitUsage, usagef("sessions %s takes exactly one argument", pos[0])
	}
	c.kimi = kimi
	if err := c.checkFlags(pos[0], out); err != nil {
		return exitUsage, err
	}
	if base == "" {
		base = c.getenv(urlEnv)
	}
	if base == "" {
		base = defaultURL
	}
	if token == "" {
		token = c.getenv(tokenEnv)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return exitUsage, usagef("--url %s is not an http:// or https:// address", urlsecret.RedactURL(base))
	}
	api := &httpapi.Client{BaseURL: base, Token: token, HTTP: c.client}
	switch pos[0] {
	case "list":
		return c.list(ctx, api)
	case "import":
		return c.importFile(ctx, api, pos[1])
	case "export":
		return c.export(ctx, api, pos[1], out)
	default:
		return c.delete(ctx, api, pos[1])
	}
}

func (c *sessionsCommand) list(ctx context.Context, api *httpapi.Client) (int, error) {
	list, err := api.ListSessionsWith(ctx, kompact.SessionFilter{SideCalls: c.sideCalls})
	if err != nil {
		return exitError, reachError(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(c.stderr, "no sessions")
		return exitOK, nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGENT\tMESSAGES\tVERSION\tUPDATED\tTITLE")
	for _, s := range list {
		title := listTitle(s.Title)
		if s.SideCall {
			title = "(side call) " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", s.ID, s.Agent, s.Messages, s.Version, s.UpdatedAt.Local().Format(time.DateTime), title)
	}
	if err := tw.Flush(); err != nil {
		return exitError, fmt.Errorf("write stdout: %w", err)
	}
	return exitOK, nil
}

func (c *sessionsCommand) importFile(ctx context.Context, api *httpapi.Client, path string) (int, error) {
	if c.kimiCode {
		return c.importKimiCode(ctx, api, path)
	}
	if path != "-" && !c.kimi {
		return c.importStreamed(ctx, api, path)
	}
	data, err := c.readInput(path)
	if err != nil {
		return exitError, err
	}
	if c.kimi {
		if err := checkLinesUTF8(path, data); err != nil {
			return exitError, err
		}
		return c.importKimi(ctx, api, path, data)
	}
	if err := checkSessionUTF8(path, data); err != nil {
		return exitError, err
	}
	// Check the document here, so that a mistake names the file.
	doc, err := sessionjson.DecodeSession(data)
	if err != nil {
		return exitError, kimiFileError(fmt.Errorf("%s: %w", inputName(path), err), path, data, "kompact sessions import --kimi FILE")
	}
	if c.id != "" || c.agent != "" {
		data = c.renamed(doc)
	}
	s, err := api.ImportSession(ctx, data)
	if err != nil {
		return exitError, importFixes(reachError(err))
	}
	return c.imported(s)
}

// importKimi sends a kimi-cli file as it is (format=kimi), so that the
// server keeps its metadata lines and exports it byte for byte; the lines
// it will skip are named here first, by the file's name.
func (c *sessionsCommand) importKimi(ctx context.Context, api *httpapi.Client, path string, data []byte) (int, error) {
	if err := sessionDocError(path, data); err != nil {
		return exitError, err
	}
	kctx := kimicli.ParseContext(data)
	for _, sk := range kctx.Skipped {
		fmt.Fprintf(c.stderr, "warning: %s: %s (not imported)\n", inputName(path), sk)
	}
	if len(kctx.Records) == 0 {
		return exitError, kompact.Errorf(kompact.EInvalid, "%s has no kimi-cli context record", inputName(path)).
			WithFixes("Pass a kimi-cli context.jsonl, or leave out --kimi for a session document.")
	}
	s, err := api.ImportKimiContext(ctx, data, c.id, c.agent)
	if err != nil {
		return exitError, importFixes(reachError(err))
	}
	return c.imported(s)
}

// imported reports an imported session.
func (c *sessionsCommand) imported(s *kompact.StoredSession) (int, error) {
	fmt.Fprintf(c.stdout, "imported session %s (agent %s, %s)\n", s.ID, s.Agent, kompact.CountOf(len(s.Messages), "message"))
	return exitOK, nil
}

// renamed is doc with the --id and --agent of the command line.
func (c *sessionsCommand) renamed(doc *kompact.Session) []byte {
	if c.id != "" {
		doc.ID = c.id
	}
	if c.agent != "" {
		doc.Agent = c.agent
	}
	return doc.AppendJSON(nil)
}

// checkFlags refuses the flags that do not apply to subcommand sub.
func (c *sessionsCommand) checkFlags(sub, out string) error {
	switch {
	case out != "" && sub != "export":
		return usagef("-o applies to sessions export only")
	case c.kimi && sub != "export" && sub != "import":
		return usagef("--kimi applies to sessions import and export only")
	case c.kimiCode && (sub == "list" || sub == "delete" || c.kimi):
		return usagef("--kimi-code applies to sessions import and export only, without --kimi")
	case (c.id != "" || c.agent != "") && sub != "import":
		return usagef("--id and --agent apply to sessions import only")
	case c.cwd != "" && (sub != "export" || !c.kimiCode):
		return usagef("--cwd applies to sessions export --kimi-code only")
	case c.sideCalls && sub != "list":
		return usagef("--side-calls applies to sessions list only")
	}
	return nil
}

// listTitle is a title on one line of the listing: at most 60 characters.
func listTitle(t string) string {
	const most = 60
	if r := []rune(t); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return t
}

func (c *sessionsCommand) export(ctx context.Context, api *httpapi.Client, id, out string) (int, error) {
	s, err := api.GetSession(ctx, id)
	if err != nil {
		return exitError, reachError(err)
	}
	// The session document, as kompact compact reads it: without the
	// server's version and timestamps.
	doc := s.Session
	if c.kimiCode {
		return c.exportKimiCode(&doc, out)
	}
	data := append(doc.AppendJSON(nil), '\n')
	if c.kimi {
		data = kimicli.FileFromSession(&doc)
	}
	if out == "" || out == "-" {
		if _, err := c.stdout.Write(data); err != nil {
			return exitError, fmt.Errorf("write stdout: %w", err)
		}
		return exitOK, nil
	}
	if err := atomicfile.Write(out, data, 0o644); err != nil {
		return exitError, kompact.Errorf(kompact.EInternal, "%w", err).WithFixes("Check that the output folder exists and is writable.")
	}
	fmt.Fprintf(c.stderr, "wrote session %s (%s) to %s\n", s.ID, kompact.CountOf(len(s.Messages), "message"), out)
	return exitOK, nil
}

func (c *sessionsCommand) delete(ctx context.Context, api *httpapi.Client, id string) (int, error) {
	if err := api.DeleteSession(ctx, id); err != nil {
		return exitError, reachError(err)
	}
	fmt.Fprintf(c.stdout, "deleted session %s\n", id)
	return exitOK, nil
}

// importFixes adds the command's own way out to an import the server
// refused for its id or its agent: --id and --agent.
func importFixes(err error) error {
	var e *kompact.Error
	if !errors.As(err, &e) {
		return err
	}
	switch {
	case e.Code == kompact.EConflict && strings.Contains(e.Message, "a session with the id"):
		// The server's own fix (another id, or none) is the API's way;
		// the command's is --id.
		return withFixes(e, "Pass --id NEW_ID to import it under another id, or delete the stored one first (kompact sessions delete ID).")
	case strings.Contains(e.Message, "no agent "):
		return withFixes(e, append([]string{"Pass --agent NAME to import it with one of the server's agents."}, e.Fixes...)...)
	}
	return err
}

// reachError gives an unreachable server the command's own fix.
func reachError(err error) error {
	var e *kompact.Error
	switch {
	case !errors.As(err, &e):
		return err
	case e.Code == httpapi.EUnreachable:
		return withFixes(e, "Start it with `kompact serve`, or pass --url (or set $"+urlEnv+") to the address it serves.")
	case e.Code == httpapi.EUnauthorized && strings.Contains(e.Message, "is not this server's"):
		return withFixes(e, "Pass the token the server was started with: --token TOKEN, or set $"+tokenEnv+" (--token wins over it).")
	case e.Code == httpapi.EUnauthorized:
		return withFixes(e, "Pass the token the server was started with: --token TOKEN, or set $"+tokenEnv+".")
	case e.Code == kompact.ENotFound && strings.HasPrefix(e.Message, "no session has the id"):
		return withFixes(e, "Check the session id: `kompact sessions list` shows the ones the server has.")
	}
	return err
}

// withFixes is e with the command's fixes in place of the server's.
func withFixes(e *kompact.Error, fixes ...string) error {
	return &kompact.Error{Code: e.Code, Message: e.Message, Err: e.Err, Fixes: fixes}
}
