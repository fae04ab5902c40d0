package sessionjson

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/internal/jsontext"
	"kompact/internal/jsonwrite"
)

// SessionStream reads a session document, DecodeSessionUTF8's input, from a
// reader a batch of messages at a time, so that a long session is never
// held in memory whole. Its result is DecodeSessionUTF8's: the same
// messages, or the same error. The messages of the list are cut out one by
// one and read by the fast decoder; whatever it is not sure about (and
// whatever is wrong) sends the stream to the reference decoder, which reads
// the rest of the document with stand-ins for the messages already passed
// on, so errors are worded, and index messages, exactly as a decoding of
// the whole document would.
//
// Head must be called first; then Next until it returns no messages.
type SessionStream struct {
	r     io.Reader
	batch int
	buf   []byte // the window over the body being read
	i     int    // the cursor in buf
	off   int64  // the body offset of buf[0]
	eof   bool
	bom   int
	// prefix is the document up to the messages list's '[' (the BOM
	// left out); head the fields it gives.
	prefix []byte
	head   kompact.Session
	final  kompact.Session
	// n counts the messages passed on; ids maps their ids to their index;
	// stand holds a stand-in for each (its id only), comma-separated.
	n     int
	ids   map[string]int
	stand []byte
	mark  int // buf position after the last message read (or the '[')
	ms    MessageScanner
	state int
	whole []kompact.Message // the messages decoded in one piece, to pass on at once
}

const (
	streamStart = iota
	streamList
	streamDone
)

// UTF8Error is SessionStream's error for a body that is not valid UTF-8:
// DecodeSessionUTF8's valid false. At is the offset of the first bad byte.
type UTF8Error struct{ At int64 }

func (e *UTF8Error) Error() string { return "the body is not valid UTF-8" }

// NewSessionStream reads a session document from r; batchBytes is about
// how much of the messages list a batch covers.
func NewSessionStream(r io.Reader, batchBytes int) *SessionStream {
	return &SessionStream{r: r, batch: max(batchBytes, 1), ids: map[string]int{}}
}

// Head reads the document up to its messages list and returns the fields
// given before it (id, agent, compaction_model, pinned).
func (s *SessionStream) Head() (*kompact.Session, error) {
	for {
		switch s.tryPrefix() {
		case prefixDone:
			h := s.head
			return &h, nil
		case prefixMore:
			if !s.eof {
				if err := s.fill(); err != nil {
					return nil, err
				}
				continue
			}
		}
		// A form the stream does not read: decode the whole document.
		if err := s.readAll(); err != nil {
			return nil, err
		}
		sess, err := s.decode(s.buf, 0, 0)
		if err != nil {
			return nil, err
		}
		s.whole, s.head, s.final = sess.Messages, *sess, *sess
		s.head.Messages, s.final.Messages = nil, nil
		s.state = streamDone
		h := s.head
		return &h, nil
	}
}

// Final returns the document's fields once Next has returned no messages:
// those given after the messages list count too.
func (s *SessionStream) Final() kompact.Session { return s.final }

// Count returns how many messages Next has passed on.
func (s *SessionStream) Count() int { return s.n }

type prefixResult int

const (
	prefixDone prefixResult = iota
	prefixMore
	prefixOther
)

// tryPrefix reads the top-level object from its start up to the '[' of
// "messages" in what buf holds: plain keys, values passed over whole.
func (s *SessionStream) tryPrefix() prefixResult {
	b := s.buf
	if len(b) < 3 && !s.eof {
		return prefixMore
	}
	s.bom = 0
	if bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) {
		s.bom = 3
	}
	sc := &jsonscan.Cursor{B: b, I: s.bom}
	if !sc.Tok('{') {
		return s.more()
	}
	for {
		if sc.Peek() != '"' {
			return s.more()
		}
		start := sc.I + 1
		end, stop, _ := jsonscan.PlainRun(b, start)
		if stop != '"' {
			return s.more()
		}
		sc.I = end + 1
		if !sc.Tok(':') {
			return s.more()
		}
		if string(b[start:end]) == "messages" && sc.Peek() == '[' {
			return s.headFrom(b[s.bom:sc.I], sc.I+1)
		}
		if !sc.Skip(2) || sc.Peek() == 0 || !sc.Tok(',') {
			return s.more()
		}
	}
}

// more is prefixMore while the body is not all read: a prefix cut short
// and a wrong one look alike until then.
func (s *SessionStream) more() prefixResult {
	if s.eof {
		return prefixOther
	}
	return prefixMore
}

// headFrom keeps prefix and its fields; the list's items start at at.
func (s *SessionStream) headFrom(prefix []byte, at int) prefixResult {
	doc := append(append([]byte(nil), prefix...), "[]}"...)
	sess, ok := scanSession(doc)
	if !ok {
		return prefixOther
	}
	s.prefix = doc[:len(prefix)]
	s.head = kompact.Session{ID: sess.ID, Agent: sess.Agent, CompactionModel: sess.CompactionModel, Pinned: sess.Pinned}
	s.final = s.head
	s.i, s.mark, s.state = at, at, streamList
	return prefixDone
}

// Next returns the next batch of messages, or none at the end of the
// document, once the rest of it has been checked.
func (s *SessionStream) Next() ([]kompact.Message, error) {
	switch s.state {
	case streamStart:
		return nil, errors.New("sessionjson: SessionStream.Next before Head")
	case streamDone:
		w := s.whole
		s.whole = nil
		s.n += len(w)
		return w, nil
	}
	s.restart()
	n0, stand0 := s.n, len(s.stand)
	var out []kompact.Message
	for s.i < s.batch || len(out) == 0 {
		m, state, ok, err := s.item()
		if err != nil {
			return nil, err
		}
		if !ok {
			s.unwind(out, n0, stand0)
			return s.slow()
		}
		if state == streamDone {
			return out, s.end()
		}
		if state == streamList && m == nil {
			continue // more was read
		}
		out = append(out, *m)
		s.addStandIn(m)
	}
	return out, nil
}

// restart moves the part not yet read to a window of its own, so that the
// messages passed on (which share the old window) keep theirs.
func (s *SessionStream) restart() {
	rest := s.buf[s.mark:]
	nb := make([]byte, len(rest), max(2*s.batch, 2*len(rest), 4096))
	copy(nb, rest)
	s.off += int64(s.mark)
	s.i -= s.mark
	s.buf, s.mark = nb, 0
}

// item reads the next list item: a message (ok), the list's end (state
// streamDone), nothing yet (more was read: m nil), or a form for the
// reference decoder (not ok).
func (s *SessionStream) item() (m *kompact.Message, state int, ok bool, err error) {
	sc := &jsonscan.Cursor{B: s.buf, I: s.i}
	c := sc.Peek()
	if c == 0 {
		return nil, streamList, !s.eof, s.fillIfOpen()
	}
	if c == ']' && s.n == 0 {
		s.i = sc.I + 1
		return nil, streamDone, true, nil
	}
	if s.n > 0 {
		// After a message: ',' or ']'.
		if c == ']' {
			s.i = sc.I + 1
			return nil, streamDone, true, nil
		}
		if c != ',' {
			return nil, 0, false, nil
		}
		sc.I++
		if c = sc.Peek(); c == 0 {
			return nil, streamList, !s.eof, s.fillIfOpen()
		}
	}
	if c != '{' {
		return nil, 0, false, nil
	}
	end := jsonscan.ElementEnd(s.buf, sc.I)
	if end < 0 {
		return nil, streamList, !s.eof, s.fillIfOpen()
	}
	msg, ok := s.ms.Scan(s.buf[sc.I:end], "")
	if !ok || !rawValuesUTF8([]kompact.Message{msg}) {
		return nil, 0, false, nil
	}
	if _, dup := s.ids[msg.ID]; dup && msg.ID != "" || !kompact.ValidMessageID(msg.ID) {
		return nil, 0, false, nil
	}
	s.i, s.mark = end, end
	return &msg, streamList, true, nil
}

func (s *SessionStream) fillIfOpen() error {
	if s.eof {
		return nil
	}
	return s.fill()
}

// addStandIn counts m as passed on.
func (s *SessionStream) addStandIn(m *kompact.Message) {
	if s.n > 0 {
		s.stand = append(s.stand, ',')
	}
	s.stand = append(s.stand, `{"role":"user","name":"\u0000kompact:stand-in\u0000"`...)
	if m.ID != "" {
		id := strings.Clone(m.ID)
		s.ids[id] = s.n
		s.stand = append(s.stand, `,"id":`...)
		s.stand = jsonwrite.AppendString(s.stand, id)
	}
	s.stand = append(s.stand, '}')
	s.n++
}

// unwind forgets the messages of a batch not passed on.
func (s *SessionStream) unwind(out []kompact.Message, n0, stand0 int) {
	for i := range out {
		if out[i].ID != "" && s.ids[out[i].ID] >= n0 {
			delete(s.ids, out[i].ID)
		}
	}
	s.n, s.stand = n0, s.stand[:stand0]
	s.mark = 0 // restart put the batch's start at 0
}

// end checks the rest of the document after the messages list.
func (s *SessionStream) end() error {
	if err := s.readAll(); err != nil {
		return err
	}
	rest := bytes.TrimLeft(s.buf[s.i:], " \t\r\n")
	if len(rest) == 1 && rest[0] == '}' {
		s.state = streamDone
		return nil
	}
	more, err := s.slow()
	if err == nil && len(more) > 0 {
		err = kompact.RepeatedSessionField("messages")
	}
	return err
}

// slow decodes the rest of the document from the last message passed on
// with the reference decoder, as DecodeSessionUTF8 would the whole: the
// messages passed on are stand-ins. It returns the messages after them.
func (s *SessionStream) slow() ([]kompact.Message, error) {
	if err := s.readAll(); err != nil {
		return nil, err
	}
	tail := s.buf[s.mark:]
	doc := make([]byte, 0, len(s.prefix)+1+len(s.stand)+len(tail))
	doc = append(append(append(doc, s.prefix...), '['), s.stand...)
	doc = append(doc, tail...)
	sess, err := s.decode(doc, len(s.prefix)+1+len(s.stand), s.off+int64(s.mark))
	if err != nil {
		return nil, err
	}
	if len(sess.Messages) < s.n || !s.standIns(sess.Messages[:s.n]) {
		return nil, kompact.RepeatedSessionField("messages")
	}
	s.final = kompact.Session{ID: sess.ID, Agent: sess.Agent, CompactionModel: sess.CompactionModel, Pinned: sess.Pinned}
	s.state = streamDone
	out := sess.Messages[s.n:]
	s.n = len(sess.Messages)
	return out, nil
}

// standInName marks the stand-ins, telling them from messages of a second
// "messages" list (which the reference decoder would read instead).
const standInName = "\x00kompact:stand-in\x00"

// standIns reports whether msgs are the stand-ins of the messages passed on.
func (s *SessionStream) standIns(msgs []kompact.Message) bool {
	for i := range msgs {
		m := &msgs[i]
		if m.Role != kompact.RoleUser || len(m.Content) != 0 || m.ToolCalls != nil || m.Name != standInName || m.HasToolCallID {
			return false
		}
		if j, ok := s.ids[m.ID]; m.ID != "" && (!ok || j != i) {
			return false
		}
	}
	return true
}

// decode is DecodeSessionUTF8 over doc, whose bytes from tailAt on are the
// body's from tailOff on (those before are the body's prefix, after the
// BOM, and valid stand-ins).
func (s *SessionStream) decode(doc []byte, tailAt int, tailOff int64) (*kompact.Session, error) {
	sess, valid, err := DecodeSessionUTF8(doc)
	if valid {
		return sess, err
	}
	if at := jsontext.FirstBadUTF8(doc[:tailAt]); at >= 0 && tailAt > 0 {
		return nil, &UTF8Error{At: int64(s.bom + at)}
	}
	return nil, &UTF8Error{At: tailOff + int64(max(jsontext.FirstBadUTF8(doc[tailAt:]), 0))}
}

// fill reads more of the body into buf, growing it when it is full.
func (s *SessionStream) fill() error {
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), max(2*cap(s.buf), 2*s.batch, 4096))
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err == io.EOF {
		s.eof = true
		return nil
	}
	return err
}

// readAll reads the rest of the body into buf.
func (s *SessionStream) readAll() error {
	for !s.eof {
		if err := s.fill(); err != nil {
			return err
		}
	}
	return nil
}
