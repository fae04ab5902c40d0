package kompact

// Span is the part of a session one compaction replaces, whatever its
// type: the messages Session.Messages[Start:End], of which the request
// left out the oldest Dropped. A compaction type's plan holds one, and so
// does its Result.
type Span struct {
	// Session is the session the compaction read.
	Session *Session
	// Start and End delimit the compacted messages: Session.Messages[Start:End].
	Start, End int
	// KeepSystem is true when the range begins with the session's leading
	// system message: it is shown to the LLM and stays the first message.
	KeepSystem bool
	// Dropped counts the oldest compacted messages left out of the request
	// to fit the model's context window. They are still replaced.
	Dropped int
	// Pinned are the indexes of the range's pinned messages, in order: kept
	// verbatim right after the summary (the service's pins, not the type's).
	Pinned []int
	// Leading, Trailing: a type's own messages before the summary, after the pins.
	Leading, Trailing int
}

// Compacted returns the messages of the range, the ones the request shows
// the LLM: those the summary replaces and, when KeepSystem, the leading
// system message, which stays (see Counts).
func (s *Span) Compacted() []Message { return s.Session.Messages[s.Start:s.End] }

// Kept returns the messages before the summary in the compacted session: the
// unselected messages before the range, or the leading system message.
func (s *Span) Kept() []Message {
	if s.KeepSystem {
		return s.Session.Messages[:1]
	}
	return s.Session.Messages[:s.Start]
}

// Counts says how many messages the compaction replaces, keeps before the
// summary (Kept: the unselected messages before the range, or the leading
// system message the range starts with, which is kept, not replaced) and
// keeps after it. Every surface that describes a compaction (the HTTP dry
// run, the CLI's report) gives these figures.
func (s *Span) Counts() PlanCounts {
	before, pinned := len(s.Kept()), len(s.Pinned)
	return PlanCounts{Before: before, Replaced: s.End - before - pinned, Pinned: pinned, After: len(s.Session.Messages) - s.End}
}
