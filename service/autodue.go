package service

import "kompact"

// AutoCompactionDue says whether kompact compacts a session by itself now,
// and why: the agent's automatic compaction is enabled, the session's
// breaker is closed, and the status says compaction is due.
func AutoCompactionDue(auto kompact.AutoCompaction, st kompact.ContextStatus, b kompact.CompactionBreaker) (bool, string) {
	switch {
	case !auto.Enabled:
		return false, kompact.ReasonAutoDisabled
	case b.Paused():
		return false, kompact.ReasonAutoPaused
	}
	return st.ShouldCompact, st.Reason
}

// CheckReduction is the guard on automatic compaction, after Gemini CLI's
// "did not reduce size" check: a result whose token figure (after, the
// compaction's estimated_token_count) is not below the session's
// token_count_with_pending (before) is not committed. The error's code is
// ENotReduced. Manual compactions keep kimi-cli's behaviour and skip it.
func CheckReduction(before, after int) error {
	if after < before {
		return nil
	}
	return kompact.Errorf(kompact.ENotReduced, "the automatic compaction would not reduce the context (%d tokens before, %d after); the session is unchanged", before, after).
		WithFixes("Compact manually with a shorter max_preserved_messages, or raise compaction.auto.trigger_ratio.")
}
