package service

import (
	"kompact"

	// The compaction types every program that runs the service holds: one
	// line per type. Each registers itself (kompact.RegisterCompactionType).
	_ "kompact/kimi"
	_ "kompact/kimicode"
)

// TypeFor returns the compaction type that plans, measures and answers for
// agent a: its own, or, for an agent that does not compact (or whose type
// this program does not hold), the default type, whose trigger the context
// gauge shows and whose checks a reply passes.
func TypeFor(a *kompact.Agent) kompact.CompactionType {
	if a != nil {
		if t, err := kompact.LookupCompactionType(a.Compaction.Type); err == nil {
			return t
		}
	}
	t, err := kompact.LookupCompactionType(kompact.DefaultCompactionType)
	if err != nil {
		panic("kompact/service: the default compaction type is not registered: " + err.Error())
	}
	return t
}

// CompactionTypeOf returns the compaction type of the agent called name:
// its own, or the default type when there is no such agent now or it does
// not compact.
func (s *Sessions) CompactionTypeOf(name string) kompact.CompactionType {
	a, err := s.Agent(name)
	if err != nil {
		return TypeFor(nil)
	}
	return TypeFor(a)
}
