// Package httpapi serves kompact's HTTP API (docs/http-api.md) and its web
// page: sessions kept in a kompact.Store, the compaction actions with
// progress over Server-Sent Events, previews, revisions (undo) and a "continue"
// call that lets a session go on with its agent's LLM.
package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/service"
)

// DefaultMaxBody is the request body limit when Config.MaxBody is 0.
const DefaultMaxBody = 32 << 20

// DefaultMaxImportBody is the limit of an imported session document's body
// when Config.MaxImportBody is 0: 1 GiB. Such a body is kept in a
// temporary file and stored in batches, so its size costs disk, not
// memory.
const DefaultMaxImportBody = 1 << 30

// ShutdownTimeout is how long Serve waits for in-flight requests once its
// context is done; requests still running then are cancelled.
const ShutdownTimeout = 30 * time.Second

// Config configures a Server.
type Config struct {
	// Store keeps the sessions.
	Store kompact.Store
	// Agents are the agents sessions may use, e.g. a config.Config; nil
	// means none.
	Agents kompact.Agents
	// LLM serves the compaction and "continue" calls.
	LLM kompact.LLM
	// Prompt resolves an agent's compaction prompt, e.g. kimicli's
	// Finder.AgentPrompt; nil means the agent's inline prompt, else the
	// built-in one.
	Prompt func(*kompact.Agent) (kompact.Prompt, error)
	// KimiContext reads a kimi-cli context.jsonl for an import with
	// format=kimi, e.g. kimicli.ImportContext: the session its records
	// make (nil when it has none) and what was wrong with each line it
	// skipped. Nil refuses format=kimi.
	KimiContext func(data []byte) (*kompact.Session, []string)
	// KimiCodeWire reads a Kimi Code session's agents/main/wire.jsonl for
	// an import with format=kimi-code, e.g. kimicode.ReadSession: the
	// session its records make (no id), or why it could not be read. It
	// stops when ctx is done and is ETooLarge as soon as the context holds
	// more than maxMessages messages. Nil refuses format=kimi-code.
	KimiCodeWire func(ctx context.Context, data []byte, maxMessages int) (*kompact.Session, error)
	// Token, when not empty, is the bearer token every /v1 request must
	// carry.
	Token string
	// MaxBody limits request bodies, in bytes; 0 means DefaultMaxBody.
	MaxBody int64
	// MaxImportBody limits, in bytes, the body of an import of a session
	// document (POST /v1/sessions/import without format=kimi) in place of
	// MaxBody; 0 means DefaultMaxImportBody. It is streamed to a
	// temporary file and stored in batches, and no
	// Limits.MaxRequestMessages applies to it (the store's
	// per-session limit does).
	MaxImportBody int64
	// Logger receives one line per request and the details of internal
	// errors; nil discards them.
	Logger *slog.Logger
	// Version is reported by GET /v1/health.
	Version string
	// Previews bound the previews the store keeps (all sessions
	// together); a zero field takes kompact.DefaultPreviewLimits' value.
	Previews kompact.PreviewLimits
	// Limits says whom the server answers and how much it does at once
	// (guard.go).
	Limits
	// ContextSize returns the context size of an agent's model in tokens
	// (0: unknown), e.g. from openai.Models; nil means the agent's
	// llm.max_context_size.
	ContextSize func(ctx context.Context, a *kompact.Agent) (int, error)
	// Upstream sends the gateway's requests to agents' OpenAI-compatible
	// LLMs, e.g. openai.Upstream (whose Models serves the model list); nil
	// answers the gateway's routes with an error.
	Upstream Upstream
	// Messages sends the gateway's Messages requests (agents with
	// llm.api: anthropic), e.g. anthropic.Upstream; nil means an
	// anthropic.Upstream that reads keys with os.Getenv.
	Messages Upstream
}

// Server serves the HTTP API. Create it with New.
type Server struct {
	cfg    Config
	agents kompact.Agents
	// sessions runs the workflows of stored sessions; the handlers decode
	// a request, call it and encode its answer.
	sessions *service.Sessions
	log      *slog.Logger
	maxBody  int64
	// maxImport is Config.MaxImportBody, or its default.
	maxImport int64
	tokenHash [sha256.Size]byte
	handler   http.Handler
	// heartbeat is the interval of SSE keep-alive comments.
	heartbeat time.Duration
	// sseBuffer bounds the unsent progress text of an SSE client
	// (DefaultSSEBuffer).
	sseBuffer int
	guard     *guard
	metrics   *metrics
	// apiPaths finds the API routes of a path (methodsOf).
	apiPaths *http.ServeMux
	// writes is cfg.Store's write check (before the metrics wrapper), nil
	// when the store has none: all the health check takes of the store
	// beside Ping.
	writes writeChecker
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	s := &Server{
		cfg:       cfg,
		agents:    cfg.Agents,
		log:       cfg.Logger,
		maxBody:   cfg.MaxBody,
		maxImport: cfg.MaxImportBody,
		heartbeat: 15 * time.Second,
		sseBuffer: DefaultSSEBuffer,
		guard:     newGuard(cfg.Limits),
		metrics:   newMetrics(),
	}
	s.writes, _ = cfg.Store.(writeChecker)
	if cfg.Store != nil {
		s.cfg.Store = measure(cfg.Store, s.metrics)
	}
	if cfg.LLM != nil {
		s.cfg.LLM = measuredLLM{LLM: cfg.LLM, m: s.metrics}
	}
	if s.agents == nil {
		s.agents = noAgents{}
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.log = slog.New(requestIDHandler{s.log.Handler()})
	s.sessions = service.NewSessions(service.SessionsConfig{
		Store:       s.cfg.Store,
		Compactor:   &service.Compactor{LLM: s.cfg.LLM, Prompt: cfg.Prompt},
		Agents:      s.agents,
		ContextSize: cfg.ContextSize,
		Previews:    cfg.Previews,
		Slots:       s.guard.actions,
		NewID:       randomID,
		Warn:        s.log.WarnContext,
		Info:        s.log.InfoContext,
	})
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	if s.maxImport <= 0 {
		s.maxImport = DefaultMaxImportBody
	}
	if cfg.Token != "" {
		s.tokenHash = sha256.Sum256([]byte(cfg.Token))
	}
	s.apiPaths = pathMux(s.apiRoutes())
	s.handler = s.logRequests(s.guardRequests(s.routes()))
	return s
}

// Handler returns the server's HTTP handler: the API under /v1 and the web
// page at /.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves on ln until ctx is done, then shuts down gracefully: it stops
// accepting connections and waits up to ShutdownTimeout for in-flight
// requests, cancelling those still running after that. It returns nil after
// a shutdown, or the error that stopped it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.ServeUntil(ctx, context.Background(), ln)
}

// RunningCompactions counts the compactions the server runs now (actions
// and automatic ones), e.g. for what a shutdown waits for.
func (s *Server) RunningCompactions() int { return s.sessions.RunningCompactions() }

// MaxHeaderBytes bounds a request's header (its request line and header
// fields together): a larger one is refused with 431 before any handler
// runs (net/http's default, named here: docs/http-api.md, "Limits and
// protection").
const MaxHeaderBytes = 1 << 20

// ServeUntil is Serve whose shutdown also ends at once when now is done:
// the requests still in flight are cancelled (a compaction not yet
// committed is then not committed; the session is unchanged).
func (s *Server) ServeUntil(ctx, now context.Context, ln net.Listener) error {
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 30 * time.Second,
		MaxHeaderBytes:    MaxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(now, ShutdownTimeout)
	defer scancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		// The drain timed out: cancel what still runs and close the
		// connections.
		cancel()
		_ = hs.Close()
		s.log.Warn("shutdown: in-flight requests cancelled", "error", err.Error())
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return nil
}

// route is one API route: its pattern (a method and a path under /v1) and
// its handler.
type route struct {
	pattern string
	handler handlerFunc
}

// apiRoutes is the table of the API's routes: routes registers them, and a
// test holds openapi.yaml's paths to them.
func (s *Server) apiRoutes() []route {
	return []route{
		{"GET /v1/health", s.health},
		{"GET /v1/openapi.yaml", serveOpenAPIYAML},
		{"GET /v1/openapi.json", serveOpenAPIJSON},
		{"GET /v1/agents", s.listAgents},
		{"GET /v1/ui-elements", s.globalUIElements},
		{"GET /v1/compaction", s.compactionFormat},

		{"GET /v1/sessions", s.listSessions},
		{"POST /v1/sessions", s.createSession},
		{"POST /v1/sessions/import", s.importSession},
		{"GET /v1/sessions/{id}", s.getSession},
		{"DELETE /v1/sessions/{id}", s.deleteSession},
		{"GET /v1/sessions/{id}/messages", s.getMessages},
		{"POST /v1/sessions/{id}/messages", s.appendMessages},
		{"PATCH /v1/sessions/{id}/settings", s.updateSettings},
		{"GET /v1/sessions/{id}/context", s.getContext},
		{"POST /v1/sessions/{id}/continue", s.limitActions(s.continueSession)},
		{"GET /v1/sessions/{id}/ui-elements", s.sessionUIElements},

		{"POST /v1/sessions/{id}/actions/prune_tool_results", s.runPrune}, // no LLM call; an action slot (Sessions.Prune)
		{"POST /v1/sessions/{id}/actions/{action}", s.runAction},          // takes an action slot unless a dry run
		{"GET /v1/sessions/{id}/previews", s.listPreviews},
		{"GET /v1/sessions/{id}/previews/{preview}", s.getPreview},
		{"POST /v1/sessions/{id}/previews/{preview}/apply", s.applyPreview},
		{"DELETE /v1/sessions/{id}/previews/{preview}", s.discardPreview},

		{"GET /v1/sessions/{id}/revisions", s.listRevisions},
		{"GET /v1/sessions/{id}/revisions/{rev}", s.getRevision},
		{"POST /v1/sessions/{id}/revisions/{rev}/restore", s.restoreRevision},
		{"GET /v1/sessions/{id}/revisions/{rev}/restore-preview", s.restorePreview},
		{"POST /v1/sessions/{id}/revisions/{rev}/undo", s.undoCompaction},
	}
}

// routes registers every route: the API's (apiRoutes), the JSON 404 for
// the rest of /v1, the metrics and the web page.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h handlerFunc) {
		mux.Handle(pattern, routed(pattern, s.authorize(s.handle(checkPathIDs(pattern, h)))))
	}
	for _, rt := range s.apiRoutes() {
		api(rt.pattern, rt.handler)
	}
	// Anything else under /v1 is a JSON 404 rather than the mux's text.
	api("/v1/", s.noRoute)
	s.gatewayRoutes(mux)
	mux.Handle("GET /metrics", routed("GET /metrics", s.authorize(s.metrics.handler())))
	mux.Handle("/", routed("/", webHandler()))
	return mux
}

// handlerFunc is an API handler: it writes its answer, or returns the error
// that handle then writes. A handler that returns an error must not have
// written anything.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to an http.Handler that answers h's error with
// writeError.
func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// authorize checks the bearer token when the server has one.
func (s *Server) authorize(h http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if header := r.Header.Get("Authorization"); !s.validToken(header) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="kompact"`)
			s.writeError(w, r, tokenError(header != ""))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// tokenError is the answer to a request without the server's token: one
// that sent none is told apart from one that sent another (sent).
func tokenError(sent bool) error {
	if sent {
		return kompact.Errorf(EUnauthorized, "the bearer token sent is not this server's").
			WithFixes("Send the header Authorization: Bearer <token> with the token the server was started with (--token or $KOMPACT_TOKEN), not another.")
	}
	return kompact.Errorf(EUnauthorized, "this server needs a bearer token").
		WithFixes("Send the header Authorization: Bearer <token>, with the token the server was started with (--token or $KOMPACT_TOKEN).")
}

// validToken compares the header's token with the server's in constant
// time (hashing both first, so that not even the length leaks).
func (s *Server) validToken(header string) bool {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return s.isToken(strings.TrimSpace(token))
}

// isToken compares token with the server's in constant time (hashing both
// first, so that not even the length leaks).
func (s *Server) isToken(token string) bool {
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], s.tokenHash[:]) == 1
}

// logRequests gives every request an id (its X-Request-Id response
// header, and request_id on every log line of the request), logs one line
// per request (method, path, status and duration) and counts it by route
// and status. It never logs headers, query strings or bodies.
func (s *Server) logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: newRequestID()}
		w.Header().Set("X-Request-Id", info.id)
		r = r.WithContext(context.WithValue(r.Context(), requestKey{}, info))
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			route := info.route
			if route == "" {
				route = "unmatched"
			}
			s.metrics.request(route, status)
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", status), slog.Duration("duration", time.Since(start)))
		}()
		h.ServeHTTP(rec, r)
	})
}

// statusRecorder remembers the status a handler wrote. It passes Flush on
// (Server-Sent Events need it) and unwraps for http.ResponseController.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(p)
}

func (r *statusRecorder) Flush() {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// healthTimeout bounds how long GET /v1/health waits for the store.
const healthTimeout = 5 * time.Second

// health says whether the server runs and its store answers: 503 when the
// store does not answer within healthTimeout, or fails its writes
// (storeHealth).
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	if what, err := s.storeHealth(ctx); what != "" {
		msg := what
		if err != nil {
			msg += ": " + err.Error()
		}
		s.log.LogAttrs(r.Context(), slog.LevelError, "health: the store is "+what, slog.String("error", msg))
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "store": what, "version": s.cfg.Version})
		return nil
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "store": "ok", "version": s.cfg.Version})
	return nil
}

// randomID returns 32 random hex digits.
func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// noAgents is the Agents of a server configured without any.
type noAgents struct{}

func (noAgents) Agent(name string) (*kompact.Agent, error) {
	return nil, kompact.Errorf(kompact.ENotFound, "this server has no agents configured").
		WithFixes("Start the server with a configuration that defines agents.")
}

func (noAgents) Names() []string { return nil }
