package main

import (
	"flag"
	"net"
	"strconv"
	"strings"

	"kompact/httpapi"
)

// guardFlags are serve's flags that bound whom it answers and how much it
// does at once: --allowed-host (repeatable) and --max-actions.
type guardFlags struct {
	hosts      hostList
	maxActions int
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
	fs.IntVar(&g.maxActions, "max-actions", httpapi.DefaultMaxActions(), "actions (compactions, continues) that may run at once; more get 429 busy")
	return g
}

// check validates the flags and the token (when there is one).
func (g *guardFlags) check(token string) error {
	if g.maxActions < 1 {
		return usagef("--max-actions must be at least 1")
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
	return httpapi.Limits{AllowedHosts: g.hosts, MaxActions: g.maxActions}
}
