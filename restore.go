package kompact

// RestoreEffect says what restoring a revision would do to a session: the
// messages it would drop (in the session now, not in the revision) and
// bring back (in the revision, not in the session now), by id, in order. A
// message counts as the same when its id and its JSON form are.
type RestoreEffect struct {
	// Messages is the session's message count after the restore.
	Messages int      `json:"messages"`
	Drops    []string `json:"drops"`
	Adds     []string `json:"adds"`
}

// RestorePreview says what restoring a revision would do to a session now,
// without changing anything (Sessions.PreviewRestore).
type RestorePreview struct {
	Effect   RestoreEffect `json:"effect"`
	Revision RevisionInfo  `json:"revision"`
	// Version is the session's version the effect was worked out at.
	Version int64 `json:"version"`
}
