package httpapi

import (
	"bufio"
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

// streamSession answers with session id as the store holds it, written as
// the store reads it: the stored message bodies are already in the form
// served, so none is decoded and the session is never whole in memory.
// A failure before the first byte is an error answer; after it, the
// connection is aborted, so the client sees a cut answer, never a short
// one that looks whole.
func (s *Server) streamSession(w http.ResponseWriter, r *http.Request, id string) error {
	var (
		bw   *bufio.Writer
		head *kompact.StoredSession
		n    int
		sep  []byte
	)
	err := s.cfg.Store.StreamSession(r.Context(), id, func(st *kompact.StoredSession) error {
		head = st
		bw = startStream(w, http.StatusOK)
		return written(bw.Write(appendStoredHead(nil, st)))
	}, func(body []byte) error {
		sep = appendMessageSep(sep[:0], n)
		n++
		if _, err := bw.Write(sep); err != nil {
			return errClientGone
		}
		return written(bw.Write(body))
	})
	if err == nil {
		_, _ = bw.Write(appendStoredTail(nil, head, n))
		_ = bw.WriteByte('\n')
		err = written(0, bw.Flush())
	}
	switch {
	case err == nil:
		return nil
	case bw == nil:
		return err
	}
	if err != errClientGone {
		s.log.LogAttrs(r.Context(), slog.LevelError, "a streamed session failed midway", slog.String("error", err.Error()))
	}
	panic(http.ErrAbortHandler)
}

// written turns a write error into errClientGone.
func written(_ int, err error) error {
	if err != nil {
		return errClientGone
	}
	return nil
}

// writeStored answers with a stored session the caller holds, through a
// small buffer rather than one copy of its whole JSON form. before, when
// not empty, is written first and the session is then the value of the
// key "session" in an object (before ends with `"session":`).
func writeStored(w http.ResponseWriter, status int, before []byte, st *kompact.StoredSession) {
	bw := startStream(w, status)
	buf := append(before, appendStoredHead(nil, st)...)
	for i := range st.Messages {
		buf = appendMessageSep(buf, i)
		buf = st.Messages[i].AppendJSON(buf)
		if len(buf) >= streamBuffer {
			if _, err := bw.Write(buf); err != nil {
				return
			}
			buf = buf[:0]
		}
	}
	buf = appendStoredTail(buf, st, len(st.Messages))
	if len(before) > 0 {
		buf = append(buf, '}')
	}
	buf = append(buf, '\n')
	_, _ = bw.Write(buf)
	_ = bw.Flush()
}

// writeRestored answers a restore: {"revision": info, "session": stored},
// the session streamed.
func writeRestored(w http.ResponseWriter, st *kompact.StoredSession, info *kompact.RevisionInfo) {
	rev, err := json.Marshal(info)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, nil)
		return
	}
	before := append(append([]byte(`{"revision":`), rev...), `,"session":`...)
	writeStored(w, http.StatusOK, before, st)
}
