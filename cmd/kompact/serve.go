package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"kompact"
	"kompact/anthropic"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/urlsecret"
	"kompact/kimicli"
	"kompact/kimicode"
	"kompact/openai"
	"kompact/postgres"
	"kompact/service"
	"kompact/sqlite"
)

// tokenEnv names the environment variable that holds the server's bearer
// token when --token is not given.
const tokenEnv = "KOMPACT_TOKEN"

// serveCommand serves the HTTP API and the web page.
type serveCommand struct {
	*env
	// llm replaces the OpenAI-compatible client in tests.
	llm kompact.LLM
	// onListen, when set, is called with the address once the server
	// listens (tests use it).
	onListen func(net.Addr)
}

const serveSynopsis = "serve [--addr 127.0.0.1:8484] [--db PATH|postgres://...] [--db-pool N] [--config FILE] [--token T] [--max-body BYTES] [--max-import-body BYTES] [--keep-revisions N] [--max-preview-bytes BYTES] [--log-format text|json] [--allowed-host NAME]... [--max-actions N] [--max-request-messages N] [--max-message-parts N] [--max-request-parts N] [--max-session-messages N]"

// serveOptions are the flags of kompact serve.
type serveOptions struct {
	addr, dbPath, configPath, token string
	maxBody, maxImport              int64
	maxPreviewBytes                 int64
	keepRevisions, dbPool           int
	logFormat                       string
	guard                           *guardFlags
}

// Run serves until ctx is done, then shuts down gracefully.
func (c *serveCommand) Run(ctx context.Context, args []string) (int, error) {
	opts, err := c.parse(args)
	if err != nil {
		return flagExit(err)
	}
	if err := checkExposure(opts.addr, opts.token); err != nil {
		return exitUsage, err
	}
	cfg, err := loadConfig(opts.configPath, c.getenv)
	if err != nil {
		return exitError, err
	}
	store, where, err := openStore(ctx, opts.dbPath, opts.keepRevisions, opts.dbPool)
	if err != nil {
		return exitError, err
	}
	defer store.Close()
	opts.guard.limitStore(store)
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return exitError, kompact.Errorf(kompact.EInvalid, "listen on %s: %w", opts.addr, err).
			WithFixes("Pick another address with --addr, or stop what already listens there.")
	}
	fmt.Fprintf(c.stderr, "kompact serving http://%s (data: %s)\n", ln.Addr(), where)
	for _, w := range cfg.Warnings {
		fmt.Fprintf(c.stderr, "warning: %s\n", w)
	}
	for _, w := range missingKeys(cfg, c.getenv) {
		fmt.Fprintf(c.stderr, "warning: %s\n", w)
	}
	models := &openai.Models{Getenv: c.getenv}
	go c.warnUnknownWindows(ctx, cfg, models)
	if c.onListen != nil {
		c.onListen(ln.Addr())
	}
	srv := c.server(cfg, store, opts, models)
	now, stopNow := c.secondInterrupt(ctx, srv)
	defer stopNow()
	if err := srv.ServeUntil(ctx, now, ln); err != nil {
		return exitError, fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(c.stderr, "kompact: stopped")
	return exitOK, nil
}

// secondInterrupt watches the signals that stop the server (main's
// context ends at the first): at the first it says what the shutdown waits
// for; the second ends the returned context, so that the server stops at
// once. stop ends the watch.
func (c *serveCommand) secondInterrupt(ctx context.Context, srv *httpapi.Server) (now context.Context, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	now, abort := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		fmt.Fprintf(c.stderr, "kompact: stopping: waiting for %s, at most %s; press Ctrl-C again to stop now (a compaction not yet committed is then not committed, and nothing is lost)\n",
			waitsFor(srv.RunningCompactions()), httpapi.ShutdownTimeout)
		seen := 0
		for seen < 2 {
			select {
			case <-done:
				return
			case <-sigs:
				seen++ // the first is the one that ended ctx
			}
		}
		fmt.Fprintln(c.stderr, "kompact: stopping now")
		abort()
	}()
	return now, func() {
		signal.Stop(sigs)
		close(done)
		abort()
	}
}

// waitsFor says what a shutdown with n compactions running waits for.
func waitsFor(n int) string {
	switch n {
	case 0:
		return "the requests in flight"
	case 1:
		return "1 running compaction (its LLM call, then its commit) and the other requests in flight"
	}
	return fmt.Sprintf("%d running compactions (their LLM calls, then their commits) and the other requests in flight", n)
}

// parse reads the flags, with the token and database defaults from the
// environment filled in. Its errors are usage errors; flag.ErrHelp means
// help was printed.
func (c *serveCommand) parse(args []string) (serveOptions, error) {
	var o serveOptions
	fs := newFlagSet("serve", serveSynopsis, c.stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8484", "address to listen on; any address other than a loopback one needs a token")
	fs.StringVar(&o.dbPath, "db", "", "the SQLite database file, or a postgres:// URL, that keeps the sessions (default: $KOMPACT_DB, else "+sqlite.DefaultPath(func(string) string { return "" })+")")
	fs.IntVar(&o.dbPool, "db-pool", 0, "PostgreSQL: the most connections the server opens (default: the URL's pool_max_conns, else 4 per CPU, from 16 to 64)")
	fs.StringVar(&o.configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.StringVar(&o.token, "token", "", "bearer token every API request must carry (default: $"+tokenEnv+")")
	fs.Int64Var(&o.maxBody, "max-body", httpapi.DefaultMaxBody, "request body limit in bytes")
	fs.Int64Var(&o.maxImport, "max-import-body", httpapi.DefaultMaxImportBody, "body limit in bytes of a session document's import, which is kept in a temporary file and stored in batches (no --max-request-messages applies to it)")
	o.guard = addGuardFlags(fs)
	fs.IntVar(&o.keepRevisions, "keep-revisions", kompact.DefaultKeepRevisions, "revisions kept per session; a new one prunes the oldest and the message bodies only they hold (0 keeps all)")
	fs.Int64Var(&o.maxPreviewBytes, "max-preview-bytes", kompact.DefaultPreviewLimits.MaxBytes, "bytes all kept previews may hold together (every byte of their replacements and the messages after them counts); the ones expiring first go first")
	fs.StringVar(&o.logFormat, "log-format", "text", "log lines as text or json (log/slog); every line of a request carries its request_id")
	if _, err := parseArgs(fs, args, 0, "no arguments"); err != nil {
		return o, err
	}
	if o.maxPreviewBytes <= 0 {
		return o, usagef("--max-preview-bytes must be greater than 0")
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return o, usagef("--log-format must be text or json, not %q", o.logFormat)
	}
	if o.maxBody <= 0 {
		return o, usagef("--max-body must be greater than 0")
	}
	if o.maxImport <= 0 {
		return o, usagef("--max-import-body must be greater than 0")
	}
	if o.dbPool < 0 {
		return o, usagef("--db-pool must be 0 (the default) or more")
	}
	if o.keepRevisions < 0 {
		return o, usagef("--keep-revisions must be 0 (keep all) or more")
	}
	if o.token == "" {
		o.token = c.getenv(tokenEnv)
	}
	if err := o.guard.check(o.token); err != nil {
		return o, err
	}
	if o.dbPath == "" {
		o.dbPath = sqlite.DefaultPath(c.getenv)
	}
	return o, nil
}

// checkExposure refuses to serve an address other than a loopback one
// without a token.
func checkExposure(addr, token string) error {
	loopback, err := isLoopback(addr)
	if err != nil {
		return usagef("--addr %q is not a host:port address: %v", addr, err)
	}
	if !loopback && token == "" {
		return kompact.Errorf(kompact.EInvalid, "refusing to serve %s without a token: it is not a loopback address, so anyone who can reach it could read and change the sessions", addr).
			WithFixes("Pass --token T (or set $"+tokenEnv+"), and give the token to the page and the clients.",
				"Or listen on a loopback address such as 127.0.0.1:8484.")
	}
	return nil
}

// warnUnknownWindows looks up the context size of each agent that
// compacts automatically without llm.max_context_size and can call its
// LLM (its key variable is set, or it names none), and warns once, at
// start, for each whose size stays unknown: automatic compaction never
// runs for it (service.UnknownWindowWarning). models keeps the answers
// for the server.
func (c *serveCommand) warnUnknownWindows(ctx context.Context, cfg *config.Config, models *openai.Models) {
	for _, name := range cfg.Names() {
		a, err := cfg.Agent(name)
		if err != nil || service.UnknownWindowWarning(a, errNoSize) == "" || a.LLM.APIKeyEnv != "" && c.getenv(a.LLM.APIKeyEnv) == "" {
			continue
		}
		n, err := models.AgentContextSize(ctx, a)
		if ctx.Err() != nil {
			return
		}
		if n <= 0 && err == nil {
			err = errNoSize
		}
		if w := service.UnknownWindowWarning(a, err); w != "" && n <= 0 {
			fmt.Fprintf(c.stderr, "warning: %s\n", w)
		}
	}
}

// errNoSize is the cause of a context size that a model list left unknown.
var errNoSize = errors.New("no size for the model")

// server builds the HTTP server over the configuration and the store;
// models finds the agents' context sizes.
func (c *serveCommand) server(cfg *config.Config, store kompact.Store, opts serveOptions, models *openai.Models) *httpapi.Server {
	llm := c.llm
	if llm == nil {
		llm = ownLLM(c.getenv)
	}
	return httpapi.New(httpapi.Config{
		Store:         store,
		Agents:        cfg,
		LLM:           llm,
		Prompt:        (&kimicli.Finder{Getenv: c.getenv}).AgentPrompt,
		KimiContext:   kimicli.ImportContext,
		KimiCodeWire:  kimicode.ReadSession,
		Token:         opts.token,
		MaxBody:       opts.maxBody,
		MaxImportBody: opts.maxImport,
		Logger:        newLogger(c.stderr, opts.logFormat),
		Version:       version,
		Limits:        opts.guard.limits(),
		Previews:      kompact.PreviewLimits{MaxBytes: opts.maxPreviewBytes},
		// Context sizes: llm.max_context_size, else the provider's model
		// list, once per provider.
		ContextSize: models.AgentContextSize,
		// The gateway's upstream calls (docs/gateway.md).
		Upstream: &openai.Upstream{Getenv: c.getenv},
		Messages: &anthropic.Upstream{Getenv: c.getenv},
	})
}

// newLogger returns the server's logger: text or JSON lines on w.
func newLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// openStore opens the store db names: a PostgreSQL database for a
// postgres:// URL (the scheme in any case), else a SQLite file. A
// key=value connection string, another postgres: value or a URL of another
// kind is refused, never taken for a file name. It also returns what to
// show as the data's place (a URL without its user info and query:
// urlsecret.RedactURL).
func openStore(ctx context.Context, db string, keep, pool int) (kompact.Store, string, error) {
	switch {
	case postgres.IsURL(db):
		st, err := postgres.Open(ctx, db, postgres.KeepRevisions(keep), postgres.MaxConns(pool))
		if err != nil {
			return nil, "", err
		}
		return st, urlsecret.RedactURL(db), nil
	case postgres.NamesPostgres(db):
		// Never quoted: it may hold a password.
		return nil, "", kompact.Errorf(kompact.EInvalid, "--db begins with postgres: but is not a postgres:// URL").
			WithFixes("Give the database as a URL: postgres://USER:PASSWORD@HOST:5432/DBNAME (two slashes after the colon).")
	case postgres.IsConnString(db):
		// Never quoted: it may hold a password.
		return nil, "", kompact.Errorf(kompact.EInvalid, "--db looks like a PostgreSQL key=value connection string, which kompact does not take").
			WithFixes("Give the database as a URL: postgres://USER:PASSWORD@HOST:5432/DBNAME?sslmode=disable (or put the password in $PGPASSWORD or ~/.pgpass).")
	case postgres.LooksLikeURL(db):
		return nil, "", kompact.Errorf(kompact.EInvalid, "--db %s is a URL, but not a postgres:// one; kompact keeps sessions in a SQLite file or a PostgreSQL database", urlsecret.RedactURL(db)).
			WithFixes("Give a postgres:// (or postgresql://) URL, or the path of a SQLite file.")
	}
	// A path that names no file yet becomes a new, empty database (and
	// its folders): the banner says so, since a mistyped path would
	// otherwise look like a server that lost its sessions.
	_, statErr := os.Stat(db)
	st, err := sqlite.Open(db, sqlite.KeepRevisions(keep))
	if err != nil {
		return nil, "", err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return st, st.Path() + ", a new database", nil
	}
	return st, st.Path(), nil
}

// isLoopback reports whether addr (host:port) listens on a loopback
// address only. An empty host (every interface) and host names other than
// localhost are not loopback.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false, nil
	}
	return ip.IsLoopback(), nil
}

// missingKeys says, once per variable, which agents' API key variables are
// unset: their compactions and replies would fail until it is set.
func missingKeys(cfg *config.Config, getenv func(string) string) []string {
	users := map[string][]string{}
	var order []string
	for _, name := range cfg.Names() {
		a, err := cfg.Agent(name)
		if err != nil || a.LLM.APIKeyEnv == "" || getenv(a.LLM.APIKeyEnv) != "" {
			continue
		}
		v := a.LLM.APIKeyEnv
		if users[v] == nil {
			order = append(order, v)
		}
		users[v] = append(users[v], name)
	}
	var out []string
	for _, v := range order {
		out = append(out, fmt.Sprintf("%s is not set: agent(s) %s cannot call their LLM; set it and restart kompact serve",
			v, strings.Join(users[v], ", ")))
	}
	return out
}
