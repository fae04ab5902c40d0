package kompact

import (
	"time"
)

// PreviewTTL is how long a preview lasts before it can no longer be applied.
const PreviewTTL = 30 * time.Minute

// DefaultPreviewLimits bound the previews a store keeps unless told otherwise: their count, and
// the bytes of their stored bodies.
var DefaultPreviewLimits = PreviewLimits{MaxCount: 256, MaxBytes: 512 << 20}

// PreviewLimits bound the previews a store keeps, all sessions together.
type PreviewLimits struct {
	MaxCount int
	// MaxBytes bounds the sum of the previews' Body lengths: every byte a preview holds is in
	// its body.
	MaxBytes int64
}

// Preview is a compaction that ran but was not committed (OutcomePreview), as a store keeps it
// until it is applied or expires.
type Preview struct {
	ID        string
	SessionID string
	// Version is the session's version the compaction read: applying the preview commits with
	// it (Commit.Version).
	Version int64
	// Generation is the session's generation the compaction read (Commit.Generation). A preview
	// goes with its session: TakePreview and GetPreview give the session's, and PutPreview
	// refuses, with EConflict, a preview whose Generation is not 0 and not the session's (the
	// session it read was deleted since).
	Generation int64
	// Body is the previewed outcome as EncodePreview wrote it.
	Body []byte
	// Counts are the messages the previewed summary replaces (Result.Counts), kept
	// beside the body so that a listing reads no body (PreviewInfo.Counts).
	Counts    PlanCounts
	ExpiresAt time.Time
	// Gateway marks the gateway's precomputed summary: the gateway's previews have
	// PreviewLimits to themselves, apart from people's, so that neither kind evicts the other
	// (PutPreview).
	Gateway bool
}

// PreviewInfo describes a kept preview without its body (Store.ListPreviews).
type PreviewInfo struct {
	ID        string
	SessionID string
	// Version is the session's version the compaction read.
	Version   int64
	ExpiresAt time.Time
	// Size is the length of the preview's body.
	Size int64
	// Counts is Preview.Counts; zero for a preview kept before stores kept it.
	Counts PlanCounts
}

// CreatedAt is when the preview was kept: every preview lasts PreviewTTL (a preview put back
// after a failed apply keeps its expiry).
func (p PreviewInfo) CreatedAt() time.Time { return p.ExpiresAt.Add(-PreviewTTL) }

// NoPreviewError is the ENotFound error for a preview a store does not have.
func NoPreviewError(sessionID, id string) *Error {
	return Errorf(ENotFound, "no preview %q for session %q: it was applied already, it expired (previews last %v), or it never existed", id, sessionID, PreviewTTL).
		WithFixes(`Run the action again with "preview": true.`)
}

// EvictedPreviewError is the ENotFound of a preview the store dropped before its expiry to make
// room for newer ones (PreviewLimits).
func EvictedPreviewError(sessionID, id string) *Error {
	return Errorf(ENotFound, "no preview %q for session %q: it was evicted to make room for newer previews (the server keeps a limited number and size of them)", id, sessionID).
		WithFixes(`Run the action again with "preview": true.`, "Apply or discard previews sooner, or raise the server's preview budget (kompact serve --max-preview-bytes).")
}

// PreviewTooLargeError is the ETooLarge error for a preview whose body alone exceeds the byte
// budget of previews.
func PreviewTooLargeError(size, budget int64) *Error {
	return Errorf(ETooLarge, "the preview holds %d bytes, more than the %d bytes all previews may hold together", size, budget).
		WithFixes(`Run the action without "preview", or raise the budget with kompact serve --max-preview-bytes.`)
}
