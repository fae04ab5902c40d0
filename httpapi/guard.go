package httpapi

import (
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/jsonscan"
	"kompact/internal/jsontext"
	"kompact/service"
	"kompact/sessionjson"
)

// BodyTimeout is how long a client has to send a request body, from the
// moment its headers arrived. It frees connections whose body trickles in
// or never comes; responses (Server-Sent Events included) are not bounded.
const BodyTimeout = 2 * time.Minute

// RetryAfter is the Retry-After a busy answer carries, in seconds.
const RetryAfter = 5

// MinTokenLen is the shortest bearer token serve accepts.
const MinTokenLen = 16

// DefaultMaxActions is the cap on concurrent actions when
// Limits.MaxActions is 0: two per CPU.
func DefaultMaxActions() int { return 2 * runtime.NumCPU() }

// Limits says whom the server answers and how much it does at once.
type Limits struct {
	// AllowedHosts are the Host names the server answers besides its
	// listen address and localhost, 127.0.0.1 and [::1] with its port,
	// for a reverse proxy in front of it: "name" (any port) or
	// "name:port".
	AllowedHosts []string
	// MaxActions caps the compactions and turns that call an LLM running
	// at once (actions, continues, and the gateway's, precompute and
	// background compactions, which share service.ActionSlots); 0 means
	// DefaultMaxActions.
	MaxActions int
	// MaxRequestMessages caps the messages one request may bring (a
	// create, an import, an append); 0 means DefaultMaxRequestMessages.
	MaxRequestMessages int
	// MaxMessageParts and MaxRequestParts cap the parts of one message
	// and of all the messages of one request (jsonscan.PartLimits; the
	// same requests as MaxRequestMessages); 0 means
	// DefaultMaxMessageParts and DefaultMaxRequestParts.
	MaxMessageParts, MaxRequestParts int
}

// DefaultMaxRequestMessages is the cap on the messages of one request when
// Limits.MaxRequestMessages is 0: ten thousand, so that one request holds
// the store's writer for well under a second (a create of 10,000 messages
// made another session's append wait at most 0.15 s on SQLite; 2 million,
// 21.8 s), while a longer session is built by appends (up to the store's
// per-session limit, kompact.DefaultMaxSessionMessages).
const DefaultMaxRequestMessages = 10_000

// The default bounds on parts (Limits.MaxMessageParts, MaxRequestParts),
// far above what real clients send (a Claude Code or Kimi Code message
// holds a few blocks, one per parallel tool result at most) and low
// enough that the decoded parts of one request stay in tens of megabytes.
const (
	DefaultMaxMessageParts = 1_000
	DefaultMaxRequestParts = 100_000
)

// guard holds the server's request checks and its action slots.
type guard struct {
	// hosts are the allowed host names in lower case, "name" or
	// "name:port".
	hosts map[string]bool
	// actions are the server's action slots, which the Sessions' own
	// compactions (the gateway's, background ones) take too.
	actions     service.ActionSlots
	bodyTimeout time.Duration
	// maxMessages is Limits.MaxRequestMessages, or its default.
	maxMessages int
	// parts are Limits.MaxMessageParts and MaxRequestParts, or their
	// defaults.
	parts jsonscan.PartLimits
}

func newGuard(l Limits) *guard {
	g := &guard{hosts: map[string]bool{}, bodyTimeout: BodyTimeout}
	for _, h := range l.AllowedHosts {
		g.hosts[strings.ToLower(strings.TrimSuffix(h, "."))] = true
	}
	n := l.MaxActions
	if n <= 0 {
		n = DefaultMaxActions()
	}
	g.actions = service.NewActionSlots(n)
	g.maxMessages = l.MaxRequestMessages
	if g.maxMessages <= 0 {
		g.maxMessages = DefaultMaxRequestMessages
	}
	g.parts = jsonscan.PartLimits{Message: orDefault(l.MaxMessageParts, DefaultMaxMessageParts),
		Request: orDefault(l.MaxRequestParts, DefaultMaxRequestParts)}
	return g
}

// orDefault is n, or def when n is not positive.
func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// partsError is the ETooLarge error of a request past a part bound
// (err a *jsonscan.TooManyPartsError), naming the bound's flag; any other
// err is returned as it is.
func partsError(err error) error {
	var tooMany *jsonscan.TooManyPartsError
	if !errors.As(err, &tooMany) {
		return err
	}
	if tooMany.Request {
		return kompact.Errorf(ETooLarge, "the request brings more than %d content parts (past them at messages[%d]); the server takes at most %d in one request (--max-request-parts)", tooMany.Max, tooMany.Index, tooMany.Max).
			WithFixes("Send fewer parts: split the messages over several requests, or join text parts into one.",
				"Or restart the server with a larger --max-request-parts.")
	}
	return kompact.Errorf(ETooLarge, "messages[%d] has more than %d content parts; the server takes at most %d in one message (--max-message-parts)", tooMany.Index, tooMany.Max, tooMany.Max).
		WithFixes("Send the message with fewer parts: join its text parts into one.",
			"Or restart the server with a larger --max-message-parts.")
}

// checkMessages refuses a request that brings n messages, more than the
// server takes in one request, with ETooLarge (413) naming the limit.
func (g *guard) checkMessages(n int) error {
	return g.messageLimit(n, "Send the messages in several requests: create or import the first ones, then append the rest in batches.",
		"Or restart the server with a larger --max-request-messages.")
}

// checkChatMessages is checkMessages for a chat request of the gateway,
// which brings its conversation whole every time.
func (g *guard) checkChatMessages(n int) error {
	return g.messageLimit(n, "A chat client sends its whole conversation with every request: restart the server with a larger --max-request-messages for conversations this long.",
		"Or start a new conversation.")
}

// messageLimit is the error of a request that brings n messages when that
// is over the limit, with fixes; nil otherwise.
func (g *guard) messageLimit(n int, fixes ...string) error {
	if n <= g.maxMessages {
		return nil
	}
	return kompact.Errorf(ETooLarge, "the request brings %d messages or more; the server takes at most %d in one request (--max-request-messages)", n, g.maxMessages).
		WithFixes(fixes...)
}

// checkPathIDs applies the id rules to the ids in the path of a route
// whose pattern has them, before any store sees them: a session id that
// breaks kompact.SessionIDRule (NUL, bytes that are not UTF-8, a slash,
// 129 bytes) is 400 invalid on every store, and so is a preview id that
// is not of the form the server gives.
func checkPathIDs(pattern string, h handlerFunc) handlerFunc {
	hasID, hasPreview := strings.Contains(pattern, "{id}"), strings.Contains(pattern, "{preview}")
	if !hasID && !hasPreview {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		if hasID {
			if err := kompact.ValidateSessionID(r.PathValue("id")); err != nil {
				return err
			}
		}
		if hasPreview && kompact.ValidateSessionID(r.PathValue("preview")) != nil {
			return kompact.Errorf(kompact.EInvalid, "the preview id is not one the server gives: a preview id is 1 to 128 bytes of ASCII letters, digits, '-', '_', '.' and ':'").
				WithFixes("Use the preview_id of an action's answer, or list the session's previews with GET /v1/sessions/{id}/previews.")
		}
		return h(w, r)
	}
}

// guardRequests answers 403 to a request for a Host the server does not
// serve (DNS rebinding) and to a state-changing request from another
// site's page (cross-site request forgery), 415 to a body that is not
// JSON (so no HTML form can reach the API), 413 to a body whose
// Content-Length is over the limit, and bounds the time a body may take to
// arrive. Its refusals of gateway requests are in OpenAI's error form
// (writeErrorFor), and every gateway answer has setGatewaySafety's
// headers.
func (s *Server) guardRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setGatewaySafety(w, r)
		if err := s.guard.check(r); err != nil {
			if kompact.ErrorCodeOf(err) == EUnsupportedMediaType && isGatewayPath(r.URL.Path) {
				if rerr := s.gatewayRouteError(r); rerr != nil {
					err = rerr // the route and the agent first, then the body
				}
			}
			s.writeErrorFor(w, r, err)
			return
		}
		if limit, flag := s.bodyLimit(r); r.ContentLength > limit { // refused before any of it is read
			s.writeErrorFor(w, r, bodyTooLarge(limit, flag))
			return
		}
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(s.guard.bodyTimeout)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, timeout: s.guard.bodyTimeout}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// bodyLimit returns the body limit of r and the serve flag that sets it:
// --max-import-body for the import of a session document, which is
// streamed to a temporary file (importStream), else --max-body.
func (s *Server) bodyLimit(r *http.Request) (int64, string) {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/sessions/import" && streamedImport(r.URL.Query()) {
		return s.maxImport, "--max-import-body"
	}
	return s.maxBody, "--max-body"
}

// check returns why r may not reach the API, or nil.
func (g *guard) check(r *http.Request) error {
	if !g.hostAllowed(r) {
		return kompact.Errorf(kompact.EForbidden, "this server does not answer requests for the host %q", truncate(r.Host, 100)).
			WithFixes("Use the address the server listens on (or localhost with its port).",
				"Behind a reverse proxy or under another name, restart the server with --allowed-host NAME.")
	}
	if safeMethod(r.Method) {
		return nil
	}
	if !sameOrigin(r) {
		return kompact.Errorf(kompact.EForbidden, "a %s from another site's page is refused", r.Method).
			WithFixes("Call the API from the server's own page or from a program (which sends no Origin header).")
	}
	return checkContentType(r)
}

// hostAllowed reports whether r's Host is one the server answers: its
// listen address, localhost, 127.0.0.1 or [::1] with the listening port,
// or a configured name. A request that did not come over a connection (an
// in-process call of the handler) has no listen address and passes.
func (g *guard) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return true
	}
	host := strings.ToLower(r.Host)
	if host == "" {
		return false
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, defaultPort(r)
	}
	name = strings.TrimSuffix(name, ".")
	if g.hosts[name] || g.hosts[net.JoinHostPort(name, port)] {
		return true
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil || port != lport {
		return false
	}
	if name == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(name)
	if err != nil {
		return false
	}
	lip, err := netip.ParseAddr(lhost)
	return ip.IsLoopback() || (err == nil && ip.Unmap() == lip.Unmap())
}

// defaultPort is the port a Host without one means.
func defaultPort(r *http.Request) string {
	if r.TLS != nil {
		return "443"
	}
	return "80"
}

// safeMethod reports whether method only reads.
func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// sameOrigin reports whether a state-changing request comes from the
// server's own page or from a program: its Origin names the Host it was
// sent to, or it has no Origin and its Sec-Fetch-Site (sent by browsers)
// says neither another site nor a sibling site.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		site := r.Header.Get("Sec-Fetch-Site")
		return site != "cross-site" && site != "same-site"
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return false // "null" (a sandboxed page, a file) included
	}
	return strings.EqualFold(withoutDefaultPort(u.Scheme, u.Host), withoutDefaultPort(u.Scheme, r.Host))
}

func withoutDefaultPort(scheme, host string) string {
	if scheme == "http" {
		return strings.TrimSuffix(host, ":80")
	}
	return strings.TrimSuffix(host, ":443")
}

// checkContentType requires a state-changing request with a body (or a
// declared type) to send JSON, optionally with charset=utf-8.
func checkContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" && r.ContentLength == 0 {
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && mt == "application/json" {
		cs, has := params["charset"]
		if !has || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	what := "no Content-Type"
	if ct != "" {
		what = "Content-Type " + strconv.Quote(truncate(ct, 100))
	}
	return kompact.Errorf(EUnsupportedMediaType, "the request body has %s; it must be application/json", what).
		WithFixes("Send the header Content-Type: application/json with a JSON body.")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// deadlineBody is a request body read under a deadline. Once the body is
// read to its end, it lifts the deadline, so that a long response (an SSE
// stream) is never cut by it (net/http lifts it too when it starts
// watching the connection for a client that goes away).
type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration
	done    bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF && !b.done:
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The deadline stays, so that the server does not wait for the
		// rest of the body either and closes the connection.
		err = kompact.Errorf(kompact.EInvalid, "the request body did not arrive within %v", b.timeout).
			WithFixes("Send the whole body at once, right after the headers.")
	}
	return n, err
}

// limitActions runs h in one of the server's action slots, or answers
// 429 busy with Retry-After when all are taken.
func (s *Server) limitActions(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		release, err := s.actionSlot(w)
		if err != nil {
			return err
		}
		defer release()
		return h(w, r)
	}
}

// actionSlot takes one of the server's action slots, to be given back
// with release; when all are taken it sets Retry-After and returns the
// 429 busy error. Only LLM work takes a slot: a dry run does not.
func (s *Server) actionSlot(w http.ResponseWriter) (release func(), err error) {
	if release, ok := s.guard.actions.TryTake(); ok {
		return release, nil
	}
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
	return nil, kompact.Errorf(kompact.EBusy, "the server already runs %d actions, as many as it allows at once", s.guard.actions.Cap()).
		WithFixes("Retry in a few seconds (see the Retry-After header).",
			"Or restart the server with a larger --max-actions.")
}

// sessionLocation is the URL path of session id, percent-encoded.
func sessionLocation(id string) string { return "/v1/sessions/" + url.PathEscape(id) }

// CheckToken checks a bearer token for serve: at least MinTokenLen
// characters, no white space around it and no control characters (which
// no HTTP header can carry). The error never echoes the token.
func CheckToken(token string) error {
	fix := "Make a token with: openssl rand -hex 32"
	switch {
	case strings.TrimSpace(token) != token:
		return kompact.Errorf(kompact.EInvalid, "the token has white space around it").
			WithFixes("Remove the white space (a trailing newline from a file, say).", fix)
	case strings.ContainsFunc(token, func(c rune) bool { return c < 0x20 || c == 0x7f }):
		return kompact.Errorf(kompact.EInvalid, "the token holds a control character, which no HTTP header can carry").WithFixes(fix)
	case len(token) < MinTokenLen:
		return kompact.Errorf(kompact.EInvalid, "the token is %d characters long; it must have at least %d", len(token), MinTokenLen).WithFixes(fix)
	}
	return nil
}

// checkUTF8 refuses a request body that is not valid UTF-8, as JSON must
// be: a decoder would silently replace the bad bytes (or, in a data part,
// keep them), and the stored session would differ from what was sent.
func checkUTF8(body []byte) error {
	if at := jsontext.FirstBadUTF8(body); at >= 0 {
		return invalidUTF8At(int64(at), "")
	}
	return nil
}

// checkLinesUTF8 is checkUTF8 for a body of one JSON record a line (a
// kimi-cli context.jsonl, a Kimi Code wire.jsonl): the error names the
// line too.
func checkLinesUTF8(body []byte) error {
	if at := jsontext.FirstBadUTF8(body); at >= 0 {
		return invalidUTF8At(int64(at), "line "+strconv.Itoa(sessionjson.LineAt(body, at)))
	}
	return nil
}

// invalidUTF8At is the error of a request body that is not valid UTF-8
// from byte at on; where, when not "", names what holds it (a message,
// "messages[3]", or a line, "line 4").
func invalidUTF8At(at int64, where string) error {
	in := ""
	if where != "" {
		in = ", in " + where
	}
	return kompact.Errorf(kompact.EInvalid, "the request body is not valid UTF-8 (at byte %d%s)", at, in).
		WithFixes("Send the body as UTF-8; encode binary payloads (e.g. as base64) before putting them in a message.")
}
