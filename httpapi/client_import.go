package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// ImportedSession is what ImportSessionFrom tells of the session it
// stored: its id, its agent and how many messages it holds.
type ImportedSession struct {
	ID, Agent string
	Messages  int
}

// ImportSessionFrom stores the session document doc gives (size bytes) as
// a new session, with id and agent in place of the document's own when
// they are not empty (the route's query). The document is streamed to the
// server as it is read, and the answer, the stored session, is read a
// message at a time: the client holds buffers, not the session, however
// long it is.
func (c *Client) ImportSessionFrom(ctx context.Context, doc io.Reader, size int64, id, agent string) (*ImportedSession, error) {
	q := url.Values{}
	if id != "" {
		q.Set("id", id)
	}
	if agent != "" {
		q.Set("agent", agent)
	}
	path := "/v1/sessions/import"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	resp, err := c.sendFrom(ctx, http.MethodPost, path, doc, size)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("read the server's answer: %w", err)
		}
		if resp.StatusCode < 400 {
			return nil, redirectError(http.MethodPost, path, resp)
		}
		return nil, answerError(resp.Status, data)
	}
	s, err := readImported(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("the server's answer to POST %s is not what kompact expects: %w", path, err)
	}
	return s, nil
}

// readImported reads a stored session's JSON for its id, its agent and the
// length of its messages list, holding one message at a time.
func readImported(r io.Reader) (*ImportedSession, error) {
	dec := json.NewDecoder(bufio.NewReader(r))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	s := &ImportedSession{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "id":
			err = dec.Decode(&s.ID)
		case "agent":
			err = dec.Decode(&s.Agent)
		case "messages":
			s.Messages, err = countItems(dec)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, err
		}
	}
	if s.ID == "" {
		return nil, fmt.Errorf("no session id")
	}
	return s, nil
}

// countItems reads the JSON list dec is at and counts its items.
func countItems(dec *json.Decoder) (int, error) {
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return 0, fmt.Errorf("messages is not a list")
	}
	n := 0
	for ; dec.More(); n++ {
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return 0, err
		}
	}
	_, err := dec.Token() // the ']'
	return n, err
}
