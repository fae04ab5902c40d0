package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/bytesize"
	"kompact/internal/jsonscan"
	"kompact/internal/jsontext"
)

// readBody reads the request body, up to the server's limit, and checks
// that it is valid UTF-8.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	data, err := s.readRawBody(w, r)
	if err != nil {
		return nil, err
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	return data, nil
}

// readRawBody reads the request body, up to the server's limit, without
// checking it. A body of declared length is read into one buffer of that
// size (plus room to see its end), not grown to it.
func (s *Server) readRawBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, s.maxBody)
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= s.maxBody {
		buf.Grow(int(n) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(body); err != nil {
		return nil, bodyReadError(err, "--max-body")
	}
	return buf.Bytes(), nil
}

// bodyReadError is the error of a request body that could not be read: too
// large (ETooLarge, the limit serve's flag sets) or broken off.
func bodyReadError(err error, flag string) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return bodyTooLarge(mbe.Limit, flag)
	}
	return kompact.Errorf(kompact.EInvalid, "read the request body: %v", err)
}

// bodyTooLarge is the error of a request body over the server's limit,
// which serve's flag sets, whether its Content-Length says so or its
// bytes do. The limit is written for people ("32 MiB").
func bodyTooLarge(limit int64, flag string) error {
	return kompact.Errorf(ETooLarge, "the request body exceeds the server's limit of %s (%s)", bytesize.FormatBytes(limit), flag).
		WithFixes("Send a smaller body, or restart the server with a larger " + flag + ".")
}

// decodeBody reads a JSON object into v, rejecting unknown fields and
// trailing data. An empty body is an error unless optional is set, in which
// case v is left as it is.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	data, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	return decodeJSON(data, v, optional)
}

// decodeJSON is decodeBody without the reading.
func decodeJSON(data []byte, v any, optional bool) error {
	if len(bytes.TrimSpace(data)) == 0 {
		if optional {
			return nil
		}
		return kompact.Errorf(kompact.EInvalid, "the request body is empty; it must be a JSON object").
			WithFixes("See docs/http-api.md for this route's body.")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err, v)
	}
	if _, err := dec.Token(); err != io.EOF {
		return kompact.Errorf(kompact.EInvalid, "the request body has more data after the JSON object").
			WithFixes("Send exactly one JSON object.")
	}
	return strictObject(data)
}

// strictObject refuses what encoding/json takes silently in a request
// body's fields: a field given twice (it keeps the last) and a lone
// surrogate escape in a string (it reads U+FFFD), as the session decoders
// refuse them in messages (jsontext.ObjectFault; the messages of a body are
// checked by kompact.DecodeMessage).
func strictObject(data []byte) error {
	key, escape := jsontext.ObjectFault(data)
	switch {
	case key == "":
		return nil
	case escape == "":
		return kompact.Errorf(kompact.EInvalid, "the request body has the field %q twice; a JSON object names each field once", truncate(key, 100)).
			WithFixes("Give each field once.")
	}
	return kompact.Errorf(kompact.EInvalid, "field %q holds the lone surrogate escape %s, which stands for no character", truncate(key, 100), escape).
		WithFixes("Send text as UTF-8; an escaped surrogate must be one half of a pair (\\ud83d\\ude00).")
}

// jsonError says what was wrong with a request body decoded into v.
func jsonError(err error, v any) error {
	fix := "See docs/http-api.md for this route's body."
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var fe *kompact.FieldError
	var ke *kompact.Error
	switch {
	case errors.As(err, &ke):
		return ke
	case errors.As(err, &syn):
		return kompact.Errorf(kompact.EInvalid, "the request body is not valid JSON (at byte %d): %v", syn.Offset, syn).
			WithFixes("Send a JSON object.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return kompact.Errorf(kompact.EInvalid, "the request body is not valid JSON: it ends too early").
			WithFixes("Send a complete JSON object.")
	case errors.As(err, &typ):
		if typ.Field == "" {
			return kompact.Errorf(kompact.EInvalid, "the request body must be a JSON object, not %s", typ.Value).WithFixes(fix)
		}
		return kompact.Errorf(kompact.EInvalid, "field %q must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value).WithFixes(fix)
	case errors.As(err, &fe):
		return kompact.Errorf(kompact.EInvalid, "invalid message: %v", fe).
			WithFixes("See the README's \"Session JSON\" section for the message form.")
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return unknownField(name, v)
	}
	return kompact.Errorf(kompact.EInvalid, "the request body is invalid: %s", strings.TrimPrefix(msg, "json: ")).WithFixes(fix)
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "a list"
	case "map", "struct", "ptr":
		return "an object"
	case "int", "int64", "float64":
		return "a number"
	}
	return k
}

// messageList is a request body's "messages", each message kept raw (for
// decodeMessages), at most the guard's limit of them: decoding stops at
// the first message past it with the guard's 413, so that a body of
// millions of messages is not split into millions of copies first. A
// list without a guard takes any number.
type messageList struct {
	raws  []json.RawMessage
	g     *guard
	parts jsonscan.PartBudget
}

// UnmarshalJSON keeps the messages of a list (null keeps none), counting
// them as it goes.
func (l *messageList) UnmarshalJSON(data []byte) error {
	if len(data) == 0 || data[0] != '[' {
		return json.Unmarshal(data, &l.raws) // null, or the error of a field that is not a list
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the '['
		return err
	}
	l.raws = []json.RawMessage{}
	if l.g != nil {
		l.parts.Limits = l.g.parts
	}
	for dec.More() {
		if l.g != nil && len(l.raws) >= l.g.maxMessages {
			return l.g.checkMessages(len(l.raws) + 1)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := l.parts.Take(len(l.raws), jsonscan.CountParts(raw, l.parts.Room())); err != nil {
			return partsError(err)
		}
		l.raws = append(l.raws, raw)
	}
	return nil
}

// decodeMessages decodes a list of messages, naming the one at fault:
// messages[i] for the list "messages", message for the one "message".
func decodeMessages(raws []json.RawMessage, field string) ([]kompact.Message, error) {
	msgs := make([]kompact.Message, len(raws))
	for i, raw := range raws {
		index := i
		if field == "message" {
			index = -1 // errors then name "message.FIELD"
		}
		m, err := kompact.DecodeMessage(raw, index)
		if err != nil {
			return nil, kompact.Errorf(kompact.EInvalid, "%v", err).
				WithFixes("See the README's \"Session JSON\" section for the message form.")
		}
		msgs[i] = m
	}
	return msgs, nil
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"code":"internal","message":"internal error","fixes":[]}`)
		return
	}
	writeRaw(w, status, data)
}

// writeRaw answers with status and a JSON body.
func writeRaw(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)+1))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// storedJSON is the JSON form of a stored session: the session document
// with version, created_at and updated_at.
type storedJSON struct{ s *kompact.StoredSession }

func (j storedJSON) MarshalJSON() ([]byte, error) { return appendStored(nil, j.s), nil }

// UnmarshalJSON reads what MarshalJSON writes.
func (j *storedJSON) UnmarshalJSON(data []byte) error {
	var v struct {
		ID              string               `json:"id"`
		Agent           string               `json:"agent"`
		CompactionModel string               `json:"compaction_model"`
		Pinned          []string             `json:"pinned"`
		Messages        []kompact.Message    `json:"messages"`
		Version         int64                `json:"version"`
		CreatedAt       time.Time            `json:"created_at"`
		UpdatedAt       time.Time            `json:"updated_at"`
		Kimi            *kompact.KimiContext `json:"kimi"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	j.s = &kompact.StoredSession{
		Session: kompact.Session{ID: v.ID, Agent: v.Agent, CompactionModel: v.CompactionModel, Pinned: v.Pinned, Messages: v.Messages, Kimi: v.Kimi},
		Version: v.Version, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt,
	}
	return nil
}

// appendStored appends the JSON form of a stored session to dst.
func appendStored(dst []byte, s *kompact.StoredSession) []byte {
	dst = appendStoredHead(dst, s)
	for i := range s.Messages {
		dst = appendMessageSep(dst, i)
		dst = s.Messages[i].AppendJSON(dst)
	}
	return appendStoredTail(dst, s, len(s.Messages))
}

// appendStoredHead appends the JSON form of a stored session up to its
// first message: the session document's fields, then "messages":[.
func appendStoredHead(dst []byte, s *kompact.StoredSession) []byte {
	return s.AppendJSONHead(dst)
}

// appendMessageSep appends what goes before message i of the list: a
// comma after the first, and each message on a line of its own.
func appendMessageSep(dst []byte, i int) []byte {
	if i > 0 {
		dst = append(dst, ',')
	}
	return append(dst, "\n  "...)
}

// appendStoredTail closes the message list of n messages and the stored
// session's document, with its version and times.
func appendStoredTail(dst []byte, s *kompact.StoredSession, n int) []byte {
	if n > 0 {
		dst = append(dst, '\n')
	}
	dst = append(dst, `],"version":`...)
	dst = strconv.AppendInt(dst, s.Version, 10)
	dst = append(dst, `,"created_at":"`...)
	dst = s.CreatedAt.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `","updated_at":"`...)
	dst = s.UpdatedAt.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	if s.Kimi != nil {
		// A kimi-cli session's context (docs/kimi-cli.md).
		dst = append(dst, `,"kimi":`...)
		dst = s.Kimi.AppendJSON(dst)
	}
	return append(dst, '}')
}
