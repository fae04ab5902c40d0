package kompact

import (
	"context"
	"time"
)

// SessionInfo describes a stored session in listings.
type SessionInfo struct {
	ID              string   `json:"id"`
	Agent           string   `json:"agent"`
	CompactionModel string   `json:"compaction_model,omitempty"`
	Instructions    string   `json:"instructions,omitempty"` // StoredSession.Instructions
	Pinned          []string `json:"pinned,omitempty"`       // Session.Pinned
	// Title names the session for people (see DefaultTitle, CleanTitle).
	Title     string    `json:"title"`
	Messages  int       `json:"messages"`
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Gateway marks a session the compaction gateway keeps
	// (GatewayStore.CreateGatewaySession).
	Gateway bool `json:"gateway,omitempty"`
	// SideCall marks a gateway session made of a client's one-shot side
	// call (GatewayRecord.SideCall): ListSessions leaves it out unless
	// its SessionFilter asks for side calls.
	SideCall bool `json:"side_call,omitempty"`
}

// SessionFilter says which sessions ListSessions describes: every one but
// the gateway's side calls (GatewayRecord.SideCall), unless SideCalls.
// The store filters as it reads, so that what it leaves out costs no
// more than reading it.
type SessionFilter struct {
	// SideCalls lists the side calls too.
	SideCalls bool
}

// StoredSession is a session as a store keeps it: every message has an id,
// and Version counts the writes to the session (it starts at 1).
type StoredSession struct {
	Session
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
	// Tokens is the session's token account (kimi-cli's Context figures):
	// see Store.SetTokenCount and Commit.TokenCount. GetSession fills it.
	Tokens TokenAccount
	// Breaker is the automatic-compaction circuit breaker; GetSession fills it.
	Breaker CompactionBreaker
	// Rewritten is the session's version after its latest rewrite (a compaction,
	// restore or undo; its creation when there was none): a session whose Rewritten is
	// unchanged has only grown since. GetSession and GetSessionHead fill it.
	Rewritten int64
	// Gateway marks a gateway session (SessionInfo.Gateway).
	Gateway bool
	// Instructions are the session's standing compaction instructions
	// (SessionSettings.Instructions); every read of the session fills it.
	Instructions string
	// Generation tells this session apart from any other the store kept under
	// its id: a session deleted and created (or imported) again starts its
	// versions and message ids again, and only its generation differs. It is
	// not 0 and does not change while the session lives. Commit.Generation
	// carries it. GetSession, GetSessionHead and StreamSession fill it.
	Generation int64
}

// DefaultKeepRevisions is how many revisions a store keeps per session
// unless told otherwise: recording a new one prunes the oldest beyond it,
// with the message bodies only they hold.
const DefaultKeepRevisions = 50

// DefaultMaxSessionMessages is how many messages a store keeps in one session unless it
// is told otherwise (SessionLimiter): a million, ten times the largest session measured
// (100k messages, 239 MB), so that no real session meets it while a runaway client
// cannot grow one without bound.
const DefaultMaxSessionMessages = 1_000_000

// SessionLimiter is a Store that bounds the messages of a session: a create, import,
// append, restore or undo that would leave a session with more than n messages fails
// with SessionTooLargeError and changes nothing (a write that shrinks a session is
// always taken). n <= 0 means DefaultMaxSessionMessages.
type SessionLimiter interface {
	LimitSessionMessages(n int)
}

// SessionTooLargeError is the ETooLarge error of a write that would leave
// session id with n messages, more than max.
func SessionTooLargeError(id string, n, max int64) error {
	return Errorf(ETooLarge, "session %q would have %d messages; a session holds at most %d", id, n, max).
		WithFixes("Compact the session (its older messages become one summary), or go on in a new session.",
			"Or restart the server with a larger --max-session-messages.")
}

// The kinds of revision.
const (
	RevisionCompaction = "compaction"
	// RevisionAutoCompaction is a compaction kompact started by itself
	// (automatic compaction).
	RevisionAutoCompaction = "auto_compaction"
	RevisionRestore        = "restore"
	// RevisionUndo is an undo of a compaction (Store.UndoCompaction).
	RevisionUndo = "undo"
	// RevisionPrune cleared old tool outputs (ActionPruneToolResults); it can be undone.
	RevisionPrune = "prune"
)

// IsCompaction reports whether a revision of kind kind is a compaction,
// manual or automatic: one that UndoCompaction can undo.
func IsCompaction(kind string) bool {
	return kind == RevisionCompaction || kind == RevisionAutoCompaction
}

// RevisionInfo describes a revision: a change that replaced part of a
// session's history.
type RevisionInfo struct {
	// Rev numbers the session's revisions from 1.
	Rev  int64  `json:"rev"`
	Kind string `json:"kind"`
	// Note says what happened, for people ("compacted 12 messages").
	Note      string    `json:"note"`
	CreatedAt time.Time `json:"created_at"`
	// Version is the session's version after the change.
	Version int64 `json:"version"`
	// Messages counts the messages before the change.
	Messages int `json:"messages"`
	// Fidelity is a compaction's fidelity report (Result.Fidelity), as it
	// was when the compaction was committed; nil for other revisions and
	// for compactions stored before kompact made the report.
	Fidelity *Fidelity `json:"fidelity,omitempty"`
}

// Revision is a RevisionInfo with the exact message list the session had
// before the change. Restoring it undoes the change.
type Revision struct {
	RevisionInfo
	Before []Message `json:"before"`
}

// Commit replaces the beginning of a session's history, under optimistic
// concurrency. A compaction read Base (the session's messages when it
// started) and replaces Base[:End] with Replacement (the kept messages and
// the summary). Messages appended since then follow the replacement; if
// Base[:End] itself changed meanwhile, the commit fails with EConflict.
//
// Version, when not 0, is the session's version that Base was read at
// (StoredSession.Version): a promise that Base is exactly the session's
// messages at that version. It lets a store skip comparing messages: when
// the session has not been rewritten (compacted or restored) since, only
// appends can have happened, and Base[:End] is unchanged by construction.
// Without it, a store compares Base[:End] with what it holds.
//
// Generation is the session's generation that Base was read at
// (StoredSession.Generation): the promise of Version holds only with it.
// A commit whose Generation is not the session's fails with EConflict
// (the session it read is gone) and writes nothing; when it is 0, the
// store trusts no version and compares Base[:End].
//
// TokenCount, when > 0, is the session's token figure after the commit (the
// result's EstimatedTokenCount, as kimi-cli's compact_context records it):
// the session's token_count becomes it and pending_tokens the estimate of
// the messages appended after Base. When 0, the store estimates the whole
// committed list (token_count 0, pending its estimate). Either way the
// session's automatic-compaction breaker closes: a compaction succeeded.
type Commit struct {
	Base        []Message
	End         int
	Replacement []Message
	Kind        string
	Note        string
	Version     int64
	Generation  int64
	TokenCount  int
	// Fidelity, when set, is recorded with the revision (RevisionInfo).
	Fidelity *Fidelity
	// Kimi, when not nil, is the kimi-cli context of a kimi-cli session after the
	// commit (Session.Kimi), its places counted in Replacement and the base's messages
	// after End; the messages appended since follow its last record. The store keeps
	// the context the session had before with the revision, for a restore or an undo.
	// Nil leaves the session's context as it is.
	Kimi *KimiContext
}

// Appended is what an append changed: the session's new version and update
// time, and the appended messages as stored (every one with its id).
//
// Tokens is the session's token account after the append, nil when the
// store would have to read the whole session to give it (a session stored
// before kompact kept token figures, until its next commit or recorded
// figure); Breaker is its automatic-compaction breaker.
type Appended struct {
	Version   int64
	UpdatedAt time.Time
	Messages  []Message
	Tokens    *TokenAccount
	Breaker   CompactionBreaker
	// Agent is the session's agent.
	Agent string
	// Rewritten is the session's StoredSession.Rewritten (an append does
	// not change it).
	Rewritten int64
	// Generation is the session's StoredSession.Generation.
	Generation int64
}

// Store keeps sessions and their revisions. Implementations must make every
// method atomic: a failed call changes nothing. Errors are *Error values
// with ENotFound, EConflict or EInvalid where those apply.
type Store interface {
	SessionStore
	RevisionStore
	PreviewStore
	TokenStore
	// Ping reports whether the store answers.
	Ping(ctx context.Context) error
	Close() error
}

// SessionStore is the Store's role of sessions and their messages.
type SessionStore interface {
	// CreateSession stores a new session. A session ValidateSession refuses is
	// EInvalid. An empty s.ID gets a new id and messages without an id get one; a taken
	// id is EConflict. It returns the new session's description (its id, version 1,
	// message count, title and times), not its messages: read them with GetSession or
	// StreamSession. A kimi-cli session (s.Kimi) gets the token figures kimi-cli
	// restores its file with (storeutil's kimiRestoredTokens).
	CreateSession(ctx context.Context, s *Session) (*SessionInfo, error)
	// ImportSession is CreateSession for a session whose messages come in batches: head
	// gives the id, agent and compaction model (its messages are not read), and next
	// each batch in turn, none at the end; head and the batches are checked as
	// CreateSession checks a session. It is one write: an error from next or in any
	// batch leaves no session (a *Error from next comes back as it is, another is
	// EInternal). The store holds a batch at a time, whatever the session's length.
	ImportSession(ctx context.Context, head *Session, next func() ([]Message, error)) (*SessionInfo, error)
	// GetSession reads the session: its messages, its kimi-cli context
	// (Session.Kimi, as CreateSession was given it or a commit, restore or
	// undo made it), its token account and breaker.
	GetSession(ctx context.Context, id string) (*StoredSession, error)
	// GetSessionHead is GetSession without the messages (Messages nil): the session's
	// description, token account, breaker and kimi-cli context. Its cost does not
	// follow the session's length, except for a session whose token figure must be
	// estimated from all its messages: one stored before kompact kept token figures,
	// committed without a figure (Commit.TokenCount 0), or restored or undone to a list
	// holding messages stored before kompact kept their text lengths, until its next
	// commit or recorded figure.
	GetSessionHead(ctx context.Context, id string) (*StoredSession, error)
	// StreamSession reads session id in one snapshot without holding its
	// messages in memory: it calls head with the session (Messages nil,
	// its kimi-cli context set), then body with each message's stored JSON form (exactly
	// Message.AppendJSON), in order. body's bytes are valid only during the
	// call. An error from head or body ends the read and is returned.
	StreamSession(ctx context.Context, id string, head func(*StoredSession) error, body func([]byte) error) error
	// StreamWindow reads the window w of session id's messages (w passed
	// MessageWindow.Check) in one snapshot, without reading the rest: it
	// calls head with the window's WindowHead, then body with each of its
	// messages' stored JSON form (as StreamSession's body), in order: at
	// most w.Limit, none for an offset at or past the end. An Around that
	// no live message of the session has is ENotFound (NoMessageError).
	// Its cost follows w.Limit, not the session's length.
	StreamWindow(ctx context.Context, id string, w MessageWindow, head func(*WindowHead) error, body func([]byte) error) error
	// ListSessions describes the sessions f lets through, the most
	// recently updated first.
	ListSessions(ctx context.Context, f SessionFilter) ([]SessionInfo, error)
	DeleteSession(ctx context.Context, id string) error
	// AppendMessages adds messages at the end, giving ids to those without, and returns
	// the new version and the appended messages. They are checked as CreateSession
	// checks a session's (MessageCheck with AllMessageRules); an id the session has is
	// EConflict. Its cost follows the appended messages, not the session's length.
	AppendMessages(ctx context.Context, id string, msgs []Message) (*Appended, error)
	// UpdateSettings makes the whole change set in one write, after checking all of it
	// (SessionSettings.Check): a change refused in part (EInvalid) or failed writes nothing.
	// The compaction model is set, or cleared with "". The title is one CleanTitle accepts;
	// "" gives the session its default title again (DefaultTitle of its messages; a new
	// session's title is that, and an append sets it while it is ""). The token count is
	// written as SetTokenCount writes it. The version changes with the compaction model, the
	// instructions and the pinned messages only. It returns the session's description after
	// the change.
	UpdateSettings(ctx context.Context, id string, set SessionSettings) (*SessionInfo, error)
}

// RevisionStore is the Store's role of rewrites and their revisions.
type RevisionStore interface {
	// CommitCompaction applies c (see Rebase) and records a revision holding the
	// message list as it was just before; c.Replacement is checked as AppendMessages
	// checks its messages. Its cost follows the replaced range and the messages
	// appended since c.Version, not the session's length, when c.Version is set. It
	// returns what changed: the session's description after the commit (its new version
	// and message count) and the revision recorded.
	CommitCompaction(ctx context.Context, id string, c Commit) (*SessionInfo, *RevisionInfo, error)
	ListRevisions(ctx context.Context, id string) ([]RevisionInfo, error)
	// StreamRevision reads revision rev of session id without holding its messages in
	// memory, in one snapshot: it calls head with the revision's description, then body
	// with each message of its list (Revision.Before) in its stored JSON form (exactly
	// Message.AppendJSON), in order. body's bytes are valid only during the call. An
	// error from head or body ends the read and is returned.
	StreamRevision(ctx context.Context, id string, rev int64, head func(*RevisionInfo) error, body func([]byte) error) error
	// PreviewRestore says what RestoreRevision(id, rev) would do now, changing
	// nothing: the RestorePreview of the session's messages and the revision's
	// (EffectOfRestore), in one snapshot. It reads their ids and where their
	// bodies are, and the bodies of the messages only that hold one id in both
	// lists under two stored bodies: not the sessions' messages.
	PreviewRestore(ctx context.Context, id string, rev int64) (*RestorePreview, error)
	// RestoreRevision puts back the messages a revision holds; it records a revision of
	// its own, so a restore can be undone too. The restored list has no recorded token
	// figure: token_count becomes 0 and pending_tokens the estimate of the whole list
	// (kimi-cli's restore of a context without a usage record), which the store works
	// out without reading the messages (from their text lengths, kept when they were
	// stored), so that GetSessionHead need not. The session's kimi-cli context becomes
	// the one the revision keeps, when it keeps one. It returns the session's
	// description after the restore and the revision recorded.
	RestoreRevision(ctx context.Context, id string, rev int64) (*SessionInfo, *RevisionInfo, error)
	// UndoCompaction undoes compaction revision rev while keeping what happened since:
	// the summary message that compaction wrote is replaced by exactly the messages it
	// replaced, and every other message stays where it is. It fails with EConflict when
	// the summary message was changed or removed since, and EInvalid when rev is not a
	// compaction. A kimi-cli session's context becomes the one the compaction replaced,
	// cut to the new length. Its token figures are a restore's (RestoreRevision). It
	// records a revision of kind RevisionUndo, and returns the session's description
	// after the undo and that revision.
	UndoCompaction(ctx context.Context, id string, rev int64) (*SessionInfo, *RevisionInfo, error)
}

// PreviewStore is the Store's role of previews (Preview).
type PreviewStore interface {
	// PutPreview keeps p (its ID, session, version and body) until
	// p.ExpiresAt. It first drops the previews expired at now, then those
	// that expire first while lim.MaxCount or more are kept or their bodies
	// and p's exceed lim.MaxBytes (all sessions together). A body larger
	// than lim.MaxBytes alone is ETooLarge (PreviewTooLargeError), a taken
	// id EConflict, an unknown session ENotFound. Deleting a session deletes its previews.
	PutPreview(ctx context.Context, p *Preview, now time.Time, lim PreviewLimits) error
	// TakePreview removes and returns the preview id of session sessionID.
	// It is ENotFound when there is none, or it expired at now.
	TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*Preview, error)
	// GetPreview returns the preview id of session sessionID without
	// removing it; it is ENotFound as TakePreview is.
	GetPreview(ctx context.Context, sessionID, id string, now time.Time) (*Preview, error)
	// ListPreviews describes the previews of session sessionID that have
	// not expired at now, the one that expires last first (the newest),
	// without reading their bodies. An unknown session is ENotFound.
	ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]PreviewInfo, error)
	// CountPreviews returns how many previews each session has that have not expired at
	// now; a session without any is not in the map. It reads no body.
	CountPreviews(ctx context.Context, now time.Time) (map[string]int, error)
}

// TokenStore is the Store's role of token figures and breakers.
type TokenStore interface {
	// SetTokenCount records the token figure a provider reported for the
	// session, kimi-cli's update_token_count: token_count becomes n (≥ 0) and
	// pending_tokens 0. Appends add the estimate of the appended messages to
	// pending_tokens (TokenAccount.Append). Token figures and the breaker are
	// bookkeeping: they change neither the version nor updated_at.
	SetTokenCount(ctx context.Context, id string, n int) error
	// RecordAutoFailure counts one more automatic compaction of the session
	// that failed (CompactionBreaker.Record), keeps f in the session's
	// failure log (the newest MaxAutoFailureLog), and returns the breaker
	// after. A committed compaction of any kind closes the breaker again;
	// the log stays.
	RecordAutoFailure(ctx context.Context, id string, f AutoFailure) (CompactionBreaker, error)
	// AutoFailureLog returns the session's failure log, oldest first. An
	// unknown session is ENotFound.
	AutoFailureLog(ctx context.Context, id string) ([]AutoFailure, error)
}
