package kompact

// Agents are the agents a service may run sessions with. The configuration
// (config.Config) is one; httpapi depends on this interface only.
type Agents interface {
	// Agent returns the agent called name. An empty name means the default
	// agent; an unknown name is an ENotFound error.
	Agent(name string) (*Agent, error)
	// Names returns the agents' names, sorted.
	Names() []string
}
