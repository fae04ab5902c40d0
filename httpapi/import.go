package httpapi

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"

	"kompact"
	"kompact/sessionjson"
)

// importBatchBytes is about how much of an imported session's messages
// list a batch covers. The server holds two batches at a time: the one
// being stored and the next, read ahead (readAhead).
const importBatchBytes = 512 << 10

// streamedImport reports whether an import with query q is a session
// document's (no format, or format=session), which importStream streams;
// the other formats are read whole, under --max-body.
func streamedImport(q url.Values) bool {
	f := q.Get("format")
	return f == "" || f == "session"
}

// importStream imports a session document read a batch of messages at a
// time (sessionjson.SessionStream) and stored as it is read, in one write
// (Store.ImportSession): the server never holds the whole session. The
// document is checked as a whole-body decode would check it; the one form
// it refuses that such a decode takes is a document giving "id", "agent"
// or "compaction_model" after "messages" (unless the query overrides it),
// since the session is stored under its id and agent before its messages
// are read. The document is decoded a batch ahead of the store's writing
// (readAhead).
func (s *Server) importStream(w http.ResponseWriter, r *http.Request, q url.Values) error {
	body, err := s.spoolBody(w, r)
	if err != nil {
		return err
	}
	defer body.close()
	err = s.importSpooled(w, r, q, body)
	var ue *sessionjson.UTF8Error
	if errors.As(err, &ue) {
		// Where the bad byte sits: the spooled body is read again.
		where := ""
		if _, serr := body.f.Seek(0, io.SeekStart); serr == nil {
			where = sessionjson.MessageAt(body.f, ue.At)
		}
		return invalidUTF8At(ue.At, where)
	}
	if kompact.ErrorCodeOf(err) == kompact.EInvalid {
		return kimiBody(body, err)
	}
	return err
}

// importSpooled imports the spooled body (see importStream).
func (s *Server) importSpooled(w http.ResponseWriter, r *http.Request, q url.Values, body *spooled) error {
	st := sessionjson.NewSessionStream(body.f, importBatchBytes)
	doc, err := st.Head()
	if err != nil {
		return streamError(err)
	}
	head := *doc
	if id := q.Get("id"); id != "" {
		head.ID = id
	}
	if agent := q.Get("agent"); agent != "" {
		head.Agent = agent
	}
	// Checked before the batches are read ahead, so that none is decoded
	// for a head that is refused (Sessions.Import checks it again).
	if err := s.sessions.CheckNew(&head); err != nil {
		return err
	}
	// No --max-request-messages: the store takes the batches one at a
	// time (its per-session limit holds), and --max-import-body bounds
	// the body.
	next := func() ([]kompact.Message, error) {
		msgs, err := st.Next()
		if err != nil {
			return nil, streamError(err)
		}
		if len(msgs) == 0 {
			return nil, lateFields(doc, st.Final(), q)
		}
		return msgs, nil
	}
	ahead := readAhead(next)
	defer ahead.stop()
	stored, err := s.sessions.Import(r.Context(), &head, ahead.next)
	if err != nil {
		return err
	}
	w.Header().Set("Location", sessionLocation(stored.ID))
	// The answer is the session read back as it is stored, streamed (a
	// later write may show in it too).
	return s.streamStored(w, r, stored.ID, http.StatusCreated, nil)
}

// batchAhead is a decoded batch of messages, or the error that ended the
// document.
type batchAhead struct {
	msgs []kompact.Message
	err  error
	pan  any // a panic of the decoder, raised again in the handler
}

// ahead decodes the batches of an import on a goroutine of its own, one
// batch ahead of the store that writes them: the decoding of a batch and
// the writing of the one before it run on two cores. The decoded batch
// waits to be taken before the next is read, so that the server holds two
// batches at most.
type ahead struct {
	ch   chan batchAhead
	quit chan struct{}
	done sync.WaitGroup
}

// readAhead starts calling next, a batch ahead of the calls of the
// returned ahead's next, until next returns an error or no messages. The
// batches and the error come out in the order next gave them. stop must
// be called once the batches are no longer wanted.
func readAhead(next func() ([]kompact.Message, error)) *ahead {
	a := &ahead{ch: make(chan batchAhead), quit: make(chan struct{})}
	a.done.Add(1)
	go func() {
		defer a.done.Done()
		defer close(a.ch)
		for {
			b := decodeBatch(next)
			select {
			case a.ch <- b:
			case <-a.quit:
				return
			}
			if b.err != nil || b.pan != nil || len(b.msgs) == 0 {
				return
			}
		}
	}()
	return a
}

// decodeBatch calls next, catching a panic to raise it again where the
// batch is taken, as if next had run there.
func decodeBatch(next func() ([]kompact.Message, error)) (b batchAhead) {
	defer func() {
		if p := recover(); p != nil {
			b = batchAhead{pan: p}
		}
	}()
	b.msgs, b.err = next()
	return b
}

// next returns the next batch.
func (a *ahead) next() ([]kompact.Message, error) {
	b, ok := <-a.ch
	switch {
	case !ok:
		return nil, kompact.Errorf(kompact.EInternal, "the imported document was read past its end")
	case b.pan != nil:
		panic(b.pan)
	}
	return b.msgs, b.err
}

// stop ends the read-ahead and waits until it no longer reads the body.
func (a *ahead) stop() {
	close(a.quit)
	a.done.Wait()
}

// kimiPeek bounds how much of a refused import's body is read to tell
// whether it is a kimi-cli file: its first line, the system prompt record,
// is seldom longer.
const kimiPeek = 256 << 10

// kimiBody is the answer to a session document import that was refused
// with err: when the body is a kimi-cli context.jsonl
// (sessionjson.LooksLikeKimiContext), an error that says so and how to import
// it, else err. The route does not import it as one unasked: a body is
// read in the format the query names.
func kimiBody(body *spooled, err error) error {
	head := make([]byte, kimiPeek)
	n, _ := body.f.ReadAt(head, 0)
	if !sessionjson.LooksLikeKimiContext(head[:n]) {
		return err
	}
	return kompact.Errorf(kompact.EInvalid, "the body is a kimi-cli context.jsonl (one JSON record a line), not a session document; "+
		"import it with ?format=kimi (POST /v1/sessions/import?format=kimi) or with kompact sessions import --kimi FILE").
		WithFixes("Send the same body to POST /v1/sessions/import?format=kimi (the query's id and agent still apply).")
}

// spooled is a request body kept in a temporary file.
type spooled struct{ f *os.File }

// spoolBody copies the request body, up to the server's limit, into a
// temporary file (in os.TempDir) and returns it rewound, so that the
// store's write that reads it never waits for a client still sending,
// while the server holds no more of it in memory than a batch. On Unix
// the file has no name from the start: it is gone once closed, even if
// the server is killed.
func (s *Server) spoolBody(w http.ResponseWriter, r *http.Request) (*spooled, error) {
	f, err := os.CreateTemp("", "kompact-import-*")
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "keep the imported body in a temporary file: %v", err).
			WithFixes("Check that the temporary folder ($TMPDIR, else /tmp) exists, is writable and has room for the body.")
	}
	_ = os.Remove(f.Name()) // fails on Windows while open: close removes it
	b := &spooled{f: f}
	if _, err := io.Copy(f, http.MaxBytesReader(w, r.Body, s.maxImport)); err != nil {
		b.close()
		return nil, bodyReadError(err, "--max-import-body")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		b.close()
		return nil, kompact.Errorf(kompact.EInternal, "read back the imported body: %v", err)
	}
	return b, nil
}

// close closes the file and removes it, if it still has a name.
func (b *spooled) close() {
	_ = b.f.Close()
	_ = os.Remove(b.f.Name())
}

// streamError words an error of reading an imported document.
func streamError(err error) error {
	var ue *sessionjson.UTF8Error
	var ke *kompact.Error
	switch {
	case errors.As(err, &ue):
		return ue // worded by importStream, which says where it sits
	case errors.As(err, &ke):
		return err
	}
	return bodyReadError(err, "--max-import-body")
}

// lateFields refuses a document whose fields after the messages list
// change what the session was stored under (head, read before the list).
func lateFields(head *kompact.Session, final kompact.Session, q url.Values) error {
	field := ""
	switch {
	case final.ID != head.ID && q.Get("id") == "":
		field = "id"
	case final.Agent != head.Agent && q.Get("agent") == "":
		field = "agent"
	case final.CompactionModel != head.CompactionModel:
		field = "compaction_model"
	case !slices.Equal(final.Pinned, head.Pinned):
		field = "pinned"
	}
	if field == "" {
		return nil
	}
	return kompact.Errorf(kompact.EInvalid, "session field %q comes after \"messages\"; an import reads the session in one pass", field).
		WithFixes(`Put "id", "agent", "compaction_model" and "pinned" before "messages", or give the id and agent in the query (?id=...&agent=...).`)
}
