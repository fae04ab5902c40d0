package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"kompact"
	"kompact/internal/urlsecret"
)

// Client calls a kompact server's HTTP API (docs/http-api.md). It decodes
// the answers into the types the server encodes, and an error answer into a
// *kompact.Error with the server's code, message and fixes. It never
// follows redirects (a redirect is an error), checks session ids before
// sending them, and checks that a session it fetched is the one it asked
// for.
type Client struct {
	// BaseURL is the server's address, such as http://127.0.0.1:8484.
	BaseURL string
	// Token, when not empty, is sent as the bearer token.
	Token string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// ListSessions returns the stored sessions, the most recently updated
// first, the gateway's side calls aside (ListSessionsWith).
func (c *Client) ListSessions(ctx context.Context) ([]kompact.SessionInfo, error) {
	return c.ListSessionsWith(ctx, kompact.SessionFilter{})
}

// ListSessionsWith returns the stored sessions f lets through (with
// f.SideCalls, the gateway's side calls too, SessionInfo.SideCall), the
// most recently updated first.
func (c *Client) ListSessionsWith(ctx context.Context, f kompact.SessionFilter) ([]kompact.SessionInfo, error) {
	var resp struct {
		Sessions []kompact.SessionInfo `json:"sessions"`
	}
	path := "/v1/sessions"
	if f.SideCalls {
		path += "?side_calls=true"
	}
	if err := c.do(ctx, http.MethodGet, path, nil, &resp); err != nil {
		return nil, err
	}
	return resp.Sessions, nil
}

// GetSession returns the stored session id.
func (c *Client) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	path, err := sessionPath(id)
	if err != nil {
		return nil, err
	}
	var s storedJSON
	if err := c.do(ctx, http.MethodGet, path, nil, &s); err != nil {
		return nil, err
	}
	if s.s == nil || s.s.ID != id {
		got := ""
		if s.s != nil {
			got = s.s.ID
		}
		return nil, kompact.Errorf(kompact.EInternal, "asked the server for session %q, it answered with session %q", id, got).
			WithFixes("Check that the address points at a kompact server, not at a proxy that rewrites paths.")
	}
	return s.s, nil
}

// sessionPath returns the API path of session id, after checking that id
// is a valid session id (so that no id such as "." or ".." can name
// another path).
func sessionPath(id string) (string, error) {
	if err := kompact.ValidateSessionID(id); err != nil {
		return "", err
	}
	return "/v1/sessions/" + url.PathEscape(id), nil
}

// CreateSession stores a new session; the server assigns the id when
// sess.ID is empty, and ids to the messages without one.
func (c *Client) CreateSession(ctx context.Context, sess *kompact.Session) (*kompact.StoredSession, error) {
	var s storedJSON
	if err := c.do(ctx, http.MethodPost, "/v1/sessions", sess.AppendJSON(nil), &s); err != nil {
		return nil, err
	}
	return s.s, nil
}

// ImportSession stores a session document (the JSON form kompact compact
// reads) as a new session.
func (c *Client) ImportSession(ctx context.Context, doc []byte) (*kompact.StoredSession, error) {
	var s storedJSON
	if err := c.do(ctx, http.MethodPost, "/v1/sessions/import", doc, &s); err != nil {
		return nil, err
	}
	return s.s, nil
}

// ImportKimiContext stores data, a kimi-cli context.jsonl, as a new
// session (format=kimi), with id and agent in place of the defaults when
// they are not empty.
func (c *Client) ImportKimiContext(ctx context.Context, data []byte, id, agent string) (*kompact.StoredSession, error) {
	q := url.Values{"format": {"kimi"}}
	if id != "" {
		q.Set("id", id)
	}
	if agent != "" {
		q.Set("agent", agent)
	}
	var s storedJSON
	if err := c.do(ctx, http.MethodPost, "/v1/sessions/import?"+q.Encode(), data, &s); err != nil {
		return nil, err
	}
	return s.s, nil
}

// DeleteSession deletes the session id and its revisions.
func (c *Client) DeleteSession(ctx context.Context, id string) error {
	path, err := sessionPath(id)
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodDelete, path, nil, nil)
}

// do sends a request with an optional JSON body and decodes a JSON answer
// into out (unless out is nil).
func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	resp, err := c.send(ctx, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("read the server's answer: %w", err)
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return redirectError(method, path, resp)
	}
	if resp.StatusCode >= 300 {
		return answerError(resp.Status, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the server's answer to %s %s is not what kompact expects: %w", method, path, err)
	}
	return nil
}

// send sends one request. A server that cannot be reached is an
// EUnreachable error.
func (c *Client) send(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	if body == nil {
		return c.sendFrom(ctx, method, path, nil, 0)
	}
	return c.sendFrom(ctx, method, path, bytes.NewReader(body), int64(len(body)))
}

// sendFrom is send with a JSON body of size bytes read from body (none
// when body is nil), streamed as it is sent.
func (c *Client) sendFrom(ctx context.Context, method, path string, body io.Reader, size int64) (*http.Response, error) {
	// The base URL is shown only without its credentials and query.
	base := urlsecret.RedactURL(strings.TrimSuffix(c.BaseURL, "/"))
	target, err := c.endpoint(path)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the server address %s is not a URL", base).
			WithFixes("Give the server's address, such as http://127.0.0.1:8484.")
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, fmt.Errorf("request %s: %s", path, urlsecret.RedactURL(err.Error()))
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.ContentLength = size
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := http.Client{}
	if c.HTTP != nil {
		hc = *c.HTTP
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		cause := errors.Unwrap(err)
		if cause == nil {
			cause = err
		}
		return nil, kompact.Errorf(EUnreachable, "cannot reach the kompact server at %s: %v", base, cause).
			WithFixes("Check that the server runs and that the address is right.")
	}
	return resp, nil
}

// endpoint returns the URL of the API path on the server: path goes after
// the base URL's own path, and the base URL's query, if any, stays a
// query.
func (c *Client) endpoint(path string) (string, error) {
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return "", err
	}
	p, q, _ := strings.Cut(path, "?") // p is escaped already (sessionPath)
	escaped := strings.TrimSuffix(u.EscapedPath(), "/") + p
	if u.Path, err = url.PathUnescape(escaped); err != nil {
		return "", err
	}
	u.RawPath = escaped
	if u.RawQuery != "" && q != "" {
		u.RawQuery += "&" + q
	} else if q != "" {
		u.RawQuery = q
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// redirectError is the error for a redirect, which the client never
// follows: a kompact server answers its API paths itself.
func redirectError(method, path string, resp *http.Response) error {
	to := urlsecret.RedactURL(resp.Header.Get("Location"))
	if to == "" {
		to = "nowhere"
	}
	return kompact.Errorf(kompact.EInternal, "the server answered %s %s with %s, redirecting to %s; kompact does not follow redirects", method, path, resp.Status, to).
		WithFixes("Check that the address points at a kompact server itself, not at a proxy or page that redirects.")
}

// answerError turns an error answer into the server's *kompact.Error; an
// answer without the error body is an internal error.
func answerError(status string, data []byte) error {
	var e kompact.ErrorBody
	if json.Unmarshal(data, &e) != nil || e.Code == "" {
		return kompact.Errorf(kompact.EInternal, "the server answered %s", status).
			WithFixes("Check that the address points at a kompact server.")
	}
	return &kompact.Error{Code: e.Code, Message: e.Message, Fixes: e.Fixes}
}
