package httpapi

import (
	"bufio"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"kompact"
)

// getMessages answers a window of the session's messages (Sessions.Window):
// {"version", "total", "offset", "messages": [{"number", "message"}]},
// each message's stored body written as the store reads it, so that the
// answer holds the window, never the session. number is the message's
// 1-based number in the session (the page's #N, a dry run's first and
// last): offset+1 for the window's first.
func (s *Server) getMessages(w http.ResponseWriter, r *http.Request) error {
	win, err := windowParams(r.URL.Query())
	if err != nil {
		return err
	}
	var (
		bw     *bufio.Writer
		number int64
		n      int
		buf    []byte
	)
	err = s.sessions.Window(r.Context(), r.PathValue("id"), win, func(h *kompact.WindowHead) error {
		bw = startStream(w, http.StatusOK)
		number = h.Offset
		buf = append(buf[:0], `{"version":`...)
		buf = strconv.AppendInt(buf, h.Session.Version, 10)
		buf = append(buf, `,"total":`...)
		buf = strconv.AppendInt(buf, h.Total, 10)
		buf = append(buf, `,"offset":`...)
		buf = strconv.AppendInt(buf, h.Offset, 10)
		return written(bw.Write(append(buf, `,"messages":[`...)))
	}, func(body []byte) error {
		number++
		buf = appendMessageSep(buf[:0], n)
		n++
		buf = append(buf, `{"number":`...)
		buf = strconv.AppendInt(buf, number, 10)
		if _, err := bw.Write(append(buf, `,"message":`...)); err != nil {
			return errClientGone
		}
		if _, err := bw.Write(body); err != nil {
			return errClientGone
		}
		return written(0, bw.WriteByte('}'))
	})
	if err == nil {
		tail := "]}\n"
		if n > 0 {
			tail = "\n]}\n"
		}
		_, _ = bw.WriteString(tail)
		err = written(0, bw.Flush())
	}
	return s.streamEnded(r, bw, err, "a streamed window of messages failed midway")
}

// windowParams reads the window of GET …/messages from the query: offset
// (default 0), limit (default kompact.DefaultWindowMessages) and around.
// Their bounds are the service's (checkWindow, service/window_check.go).
func windowParams(q url.Values) (kompact.MessageWindow, error) {
	win := kompact.MessageWindow{Limit: kompact.DefaultWindowMessages, Around: q.Get("around")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return win, kompact.Errorf(kompact.EInvalid, "limit %q is not a whole number", v).
				WithFixes(fmt.Sprintf("Give limit=N, N from 1 to %d (the default is %d).", kompact.MaxWindowMessages, kompact.DefaultWindowMessages))
		}
		win.Limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return win, kompact.Errorf(kompact.EInvalid, "offset %q is not a whole number", v).
				WithFixes("Give offset=N, the number of messages before the window (0 for the first).")
		}
		win.Offset = n
	}
	return win, nil
}
