package service

import (
	"context"
	"slices"

	"kompact"
)

// The one-step workflows of stored sessions: create, import, delete, the
// revision list and the streamed reads. Each is the Store's method behind
// the checks that belong to it, so that a surface (httpapi) calls no store
// method itself.

// CheckNew checks session sess before it is stored as a new session: its
// agent must be one of Agents (Agent; "" is the default agent, and
// sess.Agent is set to the agent's name), then the session must meet
// ValidateSession's rules (the store applies them too): its id, when it has
// one, and its messages. The first failure is the error.
func (s *Sessions) CheckNew(sess *kompact.Session) error {
	a, err := s.Agent(sess.Agent)
	if err != nil {
		return err
	}
	sess.Agent = a.Name
	return kompact.ValidateSession(sess)
}

// Create stores sess as a new session (Store.CreateSession) once CheckNew
// accepts it.
func (s *Sessions) Create(ctx context.Context, sess *kompact.Session) (*kompact.SessionInfo, error) {
	if err := s.CheckNew(sess); err != nil {
		return nil, err
	}
	return s.store.CreateSession(ctx, sess)
}

// Import stores a new session whose messages come in batches from next
// (Store.ImportSession), once CheckNew accepts head. A surface that reads
// the batches ahead may call CheckNew first, so as not to start for a head
// that is refused; the check is pure, and passes again here.
func (s *Sessions) Import(ctx context.Context, head *kompact.Session, next func() ([]kompact.Message, error)) (*kompact.SessionInfo, error) {
	if err := s.CheckNew(head); err != nil {
		return nil, err
	}
	return s.store.ImportSession(ctx, head, next)
}

// Delete deletes session id (Store.DeleteSession).
func (s *Sessions) Delete(ctx context.Context, id string) error {
	return s.store.DeleteSession(ctx, id)
}

// Revisions lists the revisions of session id, without their messages
// (Store.ListRevisions), in the store's order.
func (s *Sessions) Revisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	return s.store.ListRevisions(ctx, id)
}

// AutoFailures returns session id's failure log (Store.AutoFailureLog):
// the automatic compactions that failed or whose summary the quality gate
// refused, newest first.
func (s *Sessions) AutoFailures(ctx context.Context, id string) ([]kompact.AutoFailure, error) {
	log, err := s.store.AutoFailureLog(ctx, id)
	slices.Reverse(log)
	return log, err
}

// Stream reads session id in one snapshot without holding its messages
// (Store.StreamSession): head gets the session's description, then body
// each stored message's body in order.
func (s *Sessions) Stream(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	return s.store.StreamSession(ctx, id, head, body)
}

// Window reads the window w of session id's messages without reading the
// rest of the session (Store.StreamWindow), once MessageWindow.Check
// accepts w: head gets the window's description, then body each of its
// stored message bodies in order.
func (s *Sessions) Window(ctx context.Context, id string, w kompact.MessageWindow, head func(*kompact.WindowHead) error, body func([]byte) error) error {
	if err := checkWindow(w); err != nil {
		return err
	}
	return s.store.StreamWindow(ctx, id, w, head, body)
}

// StreamRevision reads revision rev of session id without holding its
// messages (Store.StreamRevision): head gets the revision's description,
// then body each stored message body of its list (Revision.Before).
func (s *Sessions) StreamRevision(ctx context.Context, id string, rev int64, head func(*kompact.RevisionInfo) error, body func([]byte) error) error {
	return s.store.StreamRevision(ctx, id, rev, head, body)
}
