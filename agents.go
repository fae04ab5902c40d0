package kompact

import (
	"errors"
	"slices"
	"strings"
)

// Agents are the agents a service may run sessions with. The configuration
// (config.Config) is one; httpapi depends on this interface only.
type Agents interface {
	// Agent returns the agent called name. An empty name means the default
	// agent; an unknown name is an ENotFound error.
	Agent(name string) (*Agent, error)
	// Names returns the agents' names, sorted.
	Names() []string
}

// AgentOf returns the agent called name from agents, as Agents.Agent does,
// for a client of the service: the error of an unknown name, or of no name
// without a default agent, names the available agents, never where they
// are configured (a server's file path is not the client's to see).
func AgentOf(agents Agents, name string) (*Agent, error) {
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
		return nil, Errorf(EInvalid, "no agent named, and the server has no default agent; available agents: %s", list).
			WithFixes("Name one of the agents: " + list + ".")
	}
	e := Errorf(ENotFound, "no agent %q on this server; available agents: %s", name, list)
	var le *Error
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
