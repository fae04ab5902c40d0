package service

// ActionSlots bound the compactions and turns that run at once (a
// server's --max-actions): every one that calls an LLM takes a slot while
// it runs, whoever started it: an action or a continue of the HTTP API,
// a background compaction after an append, the gateway's compaction
// before a turn and its precompute. Make one with NewActionSlots; the nil
// ActionSlots bound nothing.
type ActionSlots chan struct{}

// NewActionSlots returns n slots (at least one).
func NewActionSlots(n int) ActionSlots { return make(ActionSlots, max(n, 1)) }

// TryTake takes a slot when one is free, to be given back with release;
// ok is false when all are taken.
func (s ActionSlots) TryTake() (release func(), ok bool) {
	if s == nil {
		return func() {}, true
	}
	select {
	case s <- struct{}{}:
		return func() { <-s }, true
	default:
		return nil, false
	}
}

// Cap is how many slots there are (0 for the nil ActionSlots).
func (s ActionSlots) Cap() int { return cap(s) }
