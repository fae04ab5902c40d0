package main

import (
	"flag"
	"net"
	"strconv"
	"strings"

	"kompact"
	"kompact/httpapi"
)

// guardFlags are serve's flags that bound whom it answers and how much it
// does at once: --allowed-host (repeatable), --max-actions, how many
// messages one request brings and one session holds
// (--max-request-messages, --max-session-messages), and how many parts
// one message and one request bring (--max-message-parts,
// --max-request-parts).
type guardFlags struct {
	hosts                      hostList
	maxActions                 int
	maxRequest, maxSessionMsgs int
	maxMsgParts, maxReqParts   int
}

// hostList collects --allowed-host values.
type hostList []string

func (l *hostList) String() string { return strings.Join(*l, ",") }

func (l *hostList) Set(v string) error {
	if v == "" || strings.ContainsAny(v, "/?#@ \t") {
		return usagef("--allowed-host %q is not a host name (give NAME or NAME:PORT, e.g. kompact.example.com)", v)
	}
	if _, port, err := net.SplitHostPort(v); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return usagef("--allowed-host %q has an invalid port", v)
		}
	}
	*l = append(*l, v)
	return nil
}

// addGuardFlags registers the flags on fs.
func addGuardFlags(fs *flag.FlagSet) *guardFlags {
	g := &guardFlags{}
	fs.Var(&g.hosts, "allowed-host", "a further Host name (NAME or NAME:PORT) to answer, e.g. behind a reverse proxy; repeatable")
	fs.IntVar(&g.maxActions, "max-actions", httpapi.DefaultMaxActions(), "how many compactions and LLM turns may run at once (actions, continues, the gateway's compactions and precomputes, background compactions); an action beyond it gets 429 busy")
	fs.IntVar(&g.maxRequest, "max-request-messages", httpapi.DefaultMaxRequestMessages, "messages one request (a create, an import, an append, a gateway chat request) may bring; more get 413 too_large")
	fs.IntVar(&g.maxMsgParts, "max-message-parts", httpapi.DefaultMaxMessageParts, "content parts (content blocks, tool calls, a tool result's blocks) one message of a request may hold; more get 413 too_large")
	fs.IntVar(&g.maxReqParts, "max-request-parts", httpapi.DefaultMaxRequestParts, "content parts all the messages of one request (the same requests as --max-request-messages) may hold together; more get 413 too_large")
	fs.IntVar(&g.maxSessionMsgs, "max-session-messages", kompact.DefaultMaxSessionMessages, "messages a session may hold; a write that would go past it gets 413 too_large")
	return g
}

// check validates the flags and the token (when there is one).
func (g *guardFlags) check(token string) error {
	if g.maxActions < 1 {
		return usagef("--max-actions must be at least 1")
	}
	if g.maxRequest < 1 {
		return usagef("--max-request-messages must be at least 1")
	}
	if g.maxMsgParts < 1 || g.maxReqParts < 1 {
		return usagef("--max-message-parts and --max-request-parts must be at least 1")
	}
	if g.maxSessionMsgs < 1 {
		return usagef("--max-session-messages must be at least 1")
	}
	if token != "" {
		if err := httpapi.CheckToken(token); err != nil {
			return err
		}
	}
	return nil
}

// limits returns the server's limits.
func (g *guardFlags) limits() httpapi.Limits {
	return httpapi.Limits{AllowedHosts: g.hosts, MaxActions: g.maxActions, MaxRequestMessages: g.maxRequest,
		MaxMessageParts: g.maxMsgParts, MaxRequestParts: g.maxReqParts}
}

// limitStore gives the store its per-session message limit
// (kompact.SessionLimiter; both stores have one).
func (g *guardFlags) limitStore(st kompact.Store) {
	if l, ok := st.(kompact.SessionLimiter); ok {
		l.LimitSessionMessages(g.maxSessionMsgs)
	}
}
