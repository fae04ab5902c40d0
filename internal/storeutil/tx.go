package storeutil

import (
	"context"
	"time"

	"kompact"
)

// DB is what a store supplies to Core: its transactions.
type DB interface {
	// Write runs fn in one write transaction: committed when fn returns
	// nil, rolled back whole otherwise. A *kompact.Error from fn comes back
	// as it is; any other error becomes EInternal.
	Write(ctx context.Context, what string, fn func(Tx) error) error
	// Read runs fn in one read-only snapshot.
	Read(ctx context.Context, what string, fn func(Tx) error) error
}

// Tx is one transaction of a store: the statements, in the store's SQL,
// that Core's algorithms are written over. A statement that finds no row
// where it wants one returns an error matching sql.ErrNoRows.
type Tx interface {
	// LoadSession reads the session's row. In a write transaction it also
	// keeps other writers off the session until the transaction ends.
	LoadSession(ctx context.Context, id string) (*SessionRow, error)
	// InsertSession adds row, or reports false when its id is taken.
	InsertSession(ctx context.Context, row *SessionRow) (bool, error)
	// SaveSession writes the columns of row that change: the compaction
	// model, version, updated_at, first_pos, n_messages, next_msg,
	// next_rev, rewritten_version and title.
	SaveSession(ctx context.Context, row *SessionRow) error
	// DeleteSession deletes the session with all it holds and returns how
	// many sessions went (0 or 1).
	DeleteSession(ctx context.Context, id string) (int64, error)
	// ListSessions reads the rows of the sessions f lets through (the
	// side calls only with f.SideCalls, filtered in the query), the most
	// recently updated first. LoadSession and ListSessions fill the row's
	// Gateway and SideCall.
	ListSessions(ctx context.Context, f kompact.SessionFilter) ([]SessionRow, error)

	// ReadRefs returns the ids and body ids of the session's live messages
	// at positions [from, to), in order.
	ReadRefs(ctx context.Context, id string, from, to int64) ([]Ref, error)
	// EachBody passes on the stored bodies of the session's live messages
	// at positions [from, to), in order, reading no other (an index range
	// of (session_id, pos)). body is valid only during the call, unless
	// OwnedBodies says otherwise.
	EachBody(ctx context.Context, id string, from, to int64, fn func(body []byte) error) error
	// OwnedBodies reports whether EachBody and EachRevisionBody hand each
	// body over in a buffer of its own, fresh for the row and shared with
	// nothing: fn may then keep it and write it (SQLite's driver allocates
	// one per row; pgx reuses one).
	OwnedBodies() bool
	// EachBodyOf passes on the stored bodies with the given ids, in order.
	EachBodyOf(ctx context.Context, bodyIDs []int64, fn func(i int, body []byte) error) error
	// InsertMessages puts msgs in the session at positions pos, pos+1, ...
	// as rows born at revision born, storing each one's body and the
	// length of its text (Message.TextLen), or using the stored body
	// reuse[i] when reuse is not nil and reuse[i] is not 0.
	InsertMessages(ctx context.Context, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error
	// TakenID returns the index of the first of msgs whose id a live
	// message of the session has at a position from minPos on, or -1. It
	// looks the ids up in the index on (session_id, id).
	TakenID(ctx context.Context, id string, msgs []kompact.Message, minPos int64) (int, error)
	// RetireMessages marks the session's live messages at positions from
	// (the session's first live position) up to before as removed by
	// revision rev. Both bounds keep the statement to the (session_id,
	// pos) index range: with only the upper one, PostgreSQL read every
	// live row of the session.
	RetireMessages(ctx context.Context, id string, rev, from, before int64) error

	// InsertRevision records info as a revision of the session, with
	// fidelity, the stored form of its fidelity report (fidelityColumn).
	InsertRevision(ctx context.Context, id string, info *kompact.RevisionInfo, fidelity any) error
	// PruneRevisions deletes the session's revisions up to and including
	// upTo, the message rows only they hold, and the bodies nothing else
	// refers to.
	PruneRevisions(ctx context.Context, id string, upTo int64) error
	// ListRevisions describes the session's revisions, the newest first.
	ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error)
	// LoadRevision describes revision rev; legacy reports one recorded by
	// an older kompact with its own copy of the message list.
	LoadRevision(ctx context.Context, id string, rev int64) (info *kompact.RevisionInfo, legacy bool, err error)
	// RevisionRefs returns the ids and body ids of the messages revision
	// rev (not a legacy one) holds, in order.
	RevisionRefs(ctx context.Context, id string, rev int64) ([]Ref, error)
	// EachRevisionBody passes on the body ids and bodies of the messages
	// revision rev holds, in order; body is EachBody's.
	EachRevisionBody(ctx context.Context, id string, rev int64, legacy bool, fn func(bodyID int64, body []byte) error) error
	// RemovedBy returns the rows revision rev removed, and AddedBy those it
	// added before position before, in position order.
	RemovedBy(ctx context.Context, id string, rev int64) ([]PosRef, error)
	AddedBy(ctx context.Context, id string, rev, before int64) ([]PosRef, error)
	// LiveMessage returns the position and body id of the session's live
	// message with the id msgID.
	LiveMessage(ctx context.Context, id, msgID string) (pos, bodyID int64, err error)

	// LiveTextLen returns the sum of the stored text lengths
	// (Message.TextLen) of the session's live messages, from the lengths
	// kept with their bodies: no body is read. ok is false when a body
	// stored before the lengths were kept has none.
	LiveTextLen(ctx context.Context, id string) (chars int64, ok bool, err error)
	// Tokens reads the session's token columns.
	Tokens(ctx context.Context, id string) (TokenRow, error)
	// SetTokens writes them after a rewrite, and zeroes the failures when
	// closeBreaker.
	SetTokens(ctx context.Context, id string, count, pending int64, closeBreaker bool) error
	// AddPending adds n to the pending figure unless it is UnknownPending,
	// and returns the token columns and the session's agent.
	AddPending(ctx context.Context, id string, n int) (TokenRow, string, error)
	// SetTokenCount sets the count to n and pending to 0, and returns how
	// many sessions it changed.
	SetTokenCount(ctx context.Context, id string, n int) (int64, error)
	// AddAutoFailure counts one more failure, sets the failure log to log
	// (a JSON array), and returns the new count.
	AddAutoFailure(ctx context.Context, id string, log []byte) (int64, error)
	// AutoFailureLog reads the failure log (a JSON array).
	AutoFailureLog(ctx context.Context, id string) ([]byte, error)

	// HoldPreviews reports whether the session exists, and keeps it and
	// the preview budget from changing under the transaction.
	HoldPreviews(ctx context.Context, sessionID string) (bool, error)
	// PreviewTotals deletes the previews expired at now (and forgets the
	// evicted ones that would have) and returns how many of the budget of
	// gateway's previews, or of people's, are kept, and their bytes.
	PreviewTotals(ctx context.Context, now time.Time, gateway bool) (int, int64, error)
	// DropFirstPreview deletes the preview of that budget that expires
	// first, remembers it as evicted until its expiry, and returns its
	// size.
	DropFirstPreview(ctx context.Context, gateway bool) (int64, error)
	// PreviewEvicted reports whether the session's preview id was dropped
	// to make room (and would not have expired yet).
	PreviewEvicted(ctx context.Context, sessionID, id string) (bool, error)
	// InsertPreview keeps p of size bytes, or reports false when its id is
	// taken.
	InsertPreview(ctx context.Context, p *kompact.Preview, size int64) (bool, error)
	// TakePreview deletes and returns the session's preview id.
	TakePreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error)
	// GetPreview returns the session's preview id.
	GetPreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error)
	// ListPreviews describes the session's previews that expire after now,
	// the one that expires last first, without their bodies.
	ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error)
	// CountPreviews counts the previews that expire after now by session.
	CountPreviews(ctx context.Context, now time.Time) (map[string]int, error)

	KimiTx
	GatewayTx
}

// TokenRow is a session's stored token columns.
type TokenRow struct{ Count, Pending, Failures int64 }
