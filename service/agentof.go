package service

import (
	"errors"
	"slices"
	"strings"

	"kompact"
)

// AgentOf returns the agent called name from agents, as Agents.Agent does,
// for a client of the service: the error of an unknown name, or of no name
// without a default agent, names the available agents, never where they
// are configured (a server's file path is not the client's to see).
func AgentOf(agents kompact.Agents, name string) (*kompact.Agent, error) {
	a, err := agents.Agent(name)
	if err == nil {
		return a, nil
	}
	names := agents.Names()
	if name != "" && slices.Contains(names, name) {
		return nil, err
	}
	list := strings.Join(names, ", ")
	if name == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "no agent named, and the server has no default agent; available agents: %s", list).
			WithFixes("Name one of the agents: " + list + ".")
	}
	e := kompact.Errorf(kompact.ENotFound, "no agent %q on this server; available agents: %s", name, list)
	var le *kompact.Error
	if errors.As(err, &le) {
		// The lookup's suggestion of a close name, which names no file.
		for _, f := range le.Fixes {
			if strings.HasPrefix(f, "Did you mean ") {
				e.WithFixes(f)
			}
		}
	}
	return nil, e.WithFixes("Use one of: "+list+".", "Or ask the server's operator to add an agent named "+name+".")
}
