package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"kompact"
	"kompact/httpapi"
	"kompact/kimicli"
	"kompact/openai"
	"kompact/postgres"
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

const serveSynopsis = "serve [--addr 127.0.0.1:8484] [--db PATH|postgres://...] [--config FILE] [--token T] [--max-body BYTES] [--keep-revisions N] [--allowed-host NAME]... [--max-actions N]"

// Run serves until ctx is done, then shuts down gracefully.
func (c *serveCommand) Run(ctx context.Context, args []string) (int, error) {
	fs := newFlagSet("serve", serveSynopsis, c.stderr)
	var (
		addr, dbPath, configPath, token string
		maxBody                         int64
		keepRevisions                   int
	)
	fs.StringVar(&addr, "addr", "127.0.0.1:8484", "address to listen on; any address other than a loopback one needs a token")
	fs.StringVar(&dbPath, "db", "", "the SQLite database file, or a postgres:// URL, that keeps the sessions (default: $KOMPACT_DB, else "+sqlite.DefaultPath(func(string) string { return "" })+")")
	fs.StringVar(&configPath, "config", "", "agent configuration file (default: $"+configEnv+", else the built-in configuration)")
	fs.StringVar(&token, "token", "", "bearer token every API request must carry (default: $"+tokenEnv+")")
	fs.Int64Var(&maxBody, "max-body", httpapi.DefaultMaxBody, "request body limit in bytes")
	guard := addGuardFlags(fs)
	fs.IntVar(&keepRevisions, "keep-revisions", kompact.DefaultKeepRevisions, "revisions kept per session; a new one prunes the oldest and the message bodies only they hold (0 keeps all)")
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 0 {
		return exitUsage, usagef("serve takes no arguments, got %q", strings.Join(pos, " "))
	}
	if maxBody <= 0 {
		return exitUsage, usagef("--max-body must be greater than 0")
	}
	if keepRevisions < 0 {
		return exitUsage, usagef("--keep-revisions must be 0 (keep all) or more")
	}
	if token == "" {
		token = c.getenv(tokenEnv)
	}
	if err := guard.check(token); err != nil {
		return exitUsage, err
	}
	loopback, err := isLoopback(addr)
	if err != nil {
		return exitUsage, usagef("--addr %q is not a host:port address: %v", addr, err)
	}
	if !loopback && token == "" {
		return exitUsage, kompact.Errorf(kompact.EInvalid, "refusing to serve %s without a token: it is not a loopback address, so anyone who can reach it could read and change the sessions", addr).
			WithFixes("Pass --token T (or set $"+tokenEnv+"), and give the token to the page and the clients.",
				"Or listen on a loopback address such as 127.0.0.1:8484.")
	}

	cfg, err := loadConfig(configPath, c.getenv)
	if err != nil {
		return exitError, err
	}
	if dbPath == "" {
		dbPath = sqlite.DefaultPath(c.getenv)
	}
	store, where, err := openStore(ctx, dbPath, keepRevisions)
	if err != nil {
		return exitError, err
	}
	defer store.Close()

	llm := c.llm
	if llm == nil {
		llm = &openai.Client{Getenv: c.getenv}
	}
	logger := slog.New(slog.NewTextHandler(c.stderr, nil))
	srv := httpapi.New(httpapi.Config{
		Store:   store,
		Agents:  cfg,
		LLM:     llm,
		Prompt:  (&kimicli.Finder{Getenv: c.getenv}).AgentPrompt,
		Token:   token,
		MaxBody: maxBody,
		Logger:  logger,
		Version: version,
		Limits:  guard.limits(),
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return exitError, kompact.Errorf(kompact.EInvalid, "listen on %s: %w", addr, err).
			WithFixes("Pick another address with --addr, or stop what already listens there.")
	}
	fmt.Fprintf(c.stderr, "kompact serving http://%s (data: %s)\n", ln.Addr(), where)
	for _, w := range cfg.Warnings {
		fmt.Fprintf(c.stderr, "warning: %s\n", w)
	}
	if c.onListen != nil {
		c.onListen(ln.Addr())
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return exitError, fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(c.stderr, "kompact: stopped")
	return exitOK, nil
}

// openStore opens the store db names: a PostgreSQL database for a
// postgres:// URL, else a SQLite file. It also returns what to show as the
// data's place (a URL without its password).
func openStore(ctx context.Context, db string, keep int) (kompact.Store, string, error) {
	if postgres.IsURL(db) {
		st, err := postgres.Open(ctx, db, postgres.KeepRevisions(keep))
		if err != nil {
			return nil, "", err
		}
		where := "PostgreSQL"
		if u, err := url.Parse(db); err == nil {
			where = u.Redacted()
		}
		return st, where, nil
	}
	st, err := sqlite.Open(db, sqlite.KeepRevisions(keep))
	if err != nil {
		return nil, "", err
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
