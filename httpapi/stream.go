package httpapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"

	"kompact"
)

// streamBuffer is the size of the buffer a streamed answer goes out
// through: what a whole-session answer holds in memory at a time.
const streamBuffer = 64 << 10

// errClientGone ends a store read whose answer can no longer be written.
// Its code is not EInternal, so the store error metric does not count it.
var errClientGone = &kompact.Error{Code: "client_gone", Message: "the client went away"}

// startStream starts a JSON answer of unknown length and returns the
// buffered writer its body goes through.
func startStream(w http.ResponseWriter, status int) *bufio.Writer {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return bufio.NewWriterSize(w, streamBuffer)
}

// streamSession answers 200 with session id as the store holds it (see
// streamStored).
func (s *Server) streamSession(w http.ResponseWriter, r *http.Request, id string) error {
	return s.streamStored(w, r, id, http.StatusOK, nil)
}

// streamStored answers with status and session id as the store holds it,
// written as the store reads it: the stored message bodies are already in
// the form served, so none is decoded and the session is never whole in
// memory. before, when not empty, is written first, and the session is
// then the value of the key "session" in an object (before ends with
// `"session":`). A failure before the first byte is an error answer; after
// it, the connection is aborted, so the client sees a cut answer, never a
// short one that looks whole.
func (s *Server) streamStored(w http.ResponseWriter, r *http.Request, id string, status int, before []byte) error {
	return s.streamStoredWith(w, r, id, status, before, nil)
}

// streamStoredWith is streamStored whose session document also holds the
// fields extra appends (each after a comma) once the messages are written;
// extra gets the session's head.
func (s *Server) streamStoredWith(w http.ResponseWriter, r *http.Request, id string, status int, before []byte, extra func([]byte, *kompact.StoredSession) []byte) error {
	var (
		bw   *bufio.Writer
		head *kompact.StoredSession
		n    int
		sep  []byte
	)
	err := s.sessions.Stream(r.Context(), id, func(st *kompact.StoredSession) error {
		head = st
		bw = startStream(w, status)
		return written(bw.Write(appendStoredHead(before, st)))
	}, func(body []byte) error {
		sep = appendMessageSep(sep[:0], n)
		n++
		if _, err := bw.Write(sep); err != nil {
			return errClientGone
		}
		return written(bw.Write(body))
	})
	if err == nil {
		tail := appendStoredTail(nil, head, n)
		if extra != nil {
			tail = append(extra(append(tail[:len(tail)-1], ','), head), '}')
		}
		if len(before) > 0 {
			tail = append(tail, '}')
		}
		_, _ = bw.Write(append(tail, '\n'))
		err = written(0, bw.Flush())
	}
	return s.streamEnded(r, bw, err, "a streamed session failed midway")
}

// streamEnded ends a streamed answer whose store read returned err: nil
// when it succeeded, the error itself (for an error answer) when nothing
// was written yet (bw is nil), else the connection is aborted, so the
// client sees a cut answer, never a short one that looks whole; what
// failed is logged as msg unless the client went away.
func (s *Server) streamEnded(r *http.Request, bw *bufio.Writer, err error, msg string) error {
	switch {
	case err == nil:
		return nil
	case bw == nil:
		return err
	}
	if err != errClientGone {
		s.log.LogAttrs(r.Context(), slog.LevelError, msg, slog.String("error", err.Error()))
	}
	panic(http.ErrAbortHandler)
}

// streamRevision answers 200 with revision rev of session id, written as
// the store reads it: the revision's description, then "before", its
// message list, each message's stored body as it comes. The bytes are
// those of json.Marshal of the kompact.Revision, which escapes <, >, &,
// U+2028 and U+2029 in strings (json.HTMLEscape of each body), so the
// answer is what it was when the revision was built in memory; only the
// 64 KiB buffer and one message's escaped copy are held at a time.
func (s *Server) streamRevision(w http.ResponseWriter, r *http.Request, id string, rev int64) error {
	var (
		bw  *bufio.Writer
		n   int
		esc bytes.Buffer
	)
	err := s.sessions.StreamRevision(r.Context(), id, rev, func(info *kompact.RevisionInfo) error {
		head, err := json.Marshal(info)
		if err != nil {
			return err
		}
		bw = startStream(w, http.StatusOK)
		// The embedded RevisionInfo's fields, then Revision's own.
		return written(bw.Write(append(head[:len(head)-1], `,"before":[`...)))
	}, func(body []byte) error {
		if n > 0 {
			if err := bw.WriteByte(','); err != nil {
				return errClientGone
			}
		}
		n++
		esc.Reset()
		json.HTMLEscape(&esc, body)
		return written(bw.Write(esc.Bytes()))
	})
	if err == nil {
		_, _ = bw.WriteString("]}\n")
		err = written(0, bw.Flush())
	}
	return s.streamEnded(r, bw, err, "a streamed revision failed midway")
}

// written turns a write error into errClientGone.
func written(_ int, err error) error {
	if err != nil {
		return errClientGone
	}
	return nil
}

// streamRevised answers a restore or an undo: {"revision": info,
// "session": the session}, the session streamed from the store.
func (s *Server) streamRevised(w http.ResponseWriter, r *http.Request, id string, info *kompact.RevisionInfo) error {
	rev, err := json.Marshal(info)
	if err != nil {
		return err
	}
	before := append(append([]byte(`{"revision":`), rev...), `,"session":`...)
	return s.streamStored(w, r, id, http.StatusOK, before)
}
