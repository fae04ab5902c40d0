package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"kompact"
)

// metrics are the server's Prometheus metrics (GET /metrics). Each Server
// has its own registry.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	outcomes    *prometheus.CounterVec
	llmSeconds  *prometheus.HistogramVec
	llmRetries  prometheus.Counter
	appended    prometheus.Counter
	storeErrors *prometheus.CounterVec
	// writes follows whether the store's writes fail (health.go).
	writes writeHealth
	// gateway are the gateway's (gateway_metrics.go).
	gateway *gatewayMetrics
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_http_requests_total", Help: "HTTP requests by route (the pattern that served them) and status.",
		}, []string{"route", "status"}),
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_action_outcomes_total", Help: "Action outcomes by status (compacted, preview, noop, error) and error code.",
		}, []string{"status", "code"}),
		llmSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kompact_llm_call_seconds", Help: "LLM call latency, retries included, by result (ok or the error code).",
			Buckets: []float64{0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320, 600},
		}, []string{"result"}),
		llmRetries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kompact_llm_retries_total", Help: "LLM requests sent again after a retryable failure.",
		}),
		appended: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kompact_appended_messages_total", Help: "Messages appended to sessions.",
		}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_store_errors_total", Help: "Store calls that failed with an internal error or an outage, by operation.",
		}, []string{"op"}),
	}
	m.reg.MustRegister(m.requests, m.outcomes, m.llmSeconds, m.llmRetries, m.appended, m.storeErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.gateway = newGatewayMetrics(m.reg)
	return m
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *metrics) request(route string, status int) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
}

func (m *metrics) outcome(out kompact.Outcome) {
	code := ""
	if out.Err != nil {
		code = string(out.Err.Code)
	}
	m.outcomes.WithLabelValues(string(out.Status), code).Inc()
}

// storeFailed counts err when it is an internal error or an outage (not
// a not-found, a conflict or a rejected input, which are the caller's),
// and notes whether a write failed for an outage or succeeded.
func (m *metrics) storeFailed(op string, err error) {
	code := kompact.ErrorCodeOf(err)
	if code == kompact.EInternal || code == kompact.EUnavailable {
		m.storeErrors.WithLabelValues(op).Inc()
	}
	m.writes.note(op, code)
}

// measuredLLM times an LLM's calls and counts their retries (the progress
// reports that say the client waits before sending again).
type measuredLLM struct {
	kompact.LLM
	m *metrics
}

func (l measuredLLM) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	start := time.Now()
	a, err := l.LLM.Complete(ctx, cfg, msgs, func(p kompact.Progress) {
		if p.Waiting != "" {
			l.m.llmRetries.Inc()
		}
		if progress != nil {
			progress(p)
		}
	})
	result := "ok"
	if err != nil {
		result = string(kompact.ErrorCodeOf(err))
	}
	l.m.llmSeconds.WithLabelValues(result).Observe(time.Since(start).Seconds())
	return a, err
}

// measuredStore counts a store's appended messages and internal errors.
// It embeds no Store: each method is its own, so that none goes unmeasured
// (TestMeasuredStoreWrapsEveryMethod).
type measuredStore struct {
	st kompact.Store
	m  *metrics
}

var _ kompact.Store = measuredStore{}

func (s measuredStore) CreateSession(ctx context.Context, in *kompact.Session) (*kompact.SessionInfo, error) {
	out, err := s.st.CreateSession(ctx, in)
	s.m.storeFailed("create_session", err)
	return out, err
}

func (s measuredStore) ImportSession(ctx context.Context, head *kompact.Session, next func() ([]kompact.Message, error)) (*kompact.SessionInfo, error) {
	out, err := s.st.ImportSession(ctx, head, next)
	s.m.storeFailed("import_session", err)
	return out, err
}

func (s measuredStore) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	out, err := s.st.GetSession(ctx, id)
	s.m.storeFailed("get_session", err)
	return out, err
}

func (s measuredStore) GetSessionHead(ctx context.Context, id string) (*kompact.StoredSession, error) {
	out, err := s.st.GetSessionHead(ctx, id)
	s.m.storeFailed("get_session_head", err)
	return out, err
}

func (s measuredStore) ListSessions(ctx context.Context, f kompact.SessionFilter) ([]kompact.SessionInfo, error) {
	out, err := s.st.ListSessions(ctx, f)
	s.m.storeFailed("list_sessions", err)
	return out, err
}

func (s measuredStore) DeleteSession(ctx context.Context, id string) error {
	err := s.st.DeleteSession(ctx, id)
	s.m.storeFailed("delete_session", err)
	return err
}

func (s measuredStore) AppendMessages(ctx context.Context, id string, msgs []kompact.Message) (*kompact.Appended, error) {
	out, err := s.st.AppendMessages(ctx, id, msgs)
	s.m.storeFailed("append_messages", err)
	if err == nil {
		s.m.appended.Add(float64(len(out.Messages)))
	}
	return out, err
}

func (s measuredStore) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	out, info, err := s.st.CommitCompaction(ctx, id, c)
	s.m.storeFailed("commit_compaction", err)
	return out, info, err
}

func (s measuredStore) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	out, err := s.st.ListRevisions(ctx, id)
	s.m.storeFailed("list_revisions", err)
	return out, err
}

func (s measuredStore) StreamRevision(ctx context.Context, id string, rev int64, head func(*kompact.RevisionInfo) error, body func([]byte) error) error {
	err := s.st.StreamRevision(ctx, id, rev, head, body)
	s.m.storeFailed("stream_revision", err)
	return err
}

func (s measuredStore) PreviewRestore(ctx context.Context, id string, rev int64) (*kompact.RestorePreview, error) {
	out, err := s.st.PreviewRestore(ctx, id, rev)
	s.m.storeFailed("preview_restore", err)
	return out, err
}

func (s measuredStore) RestoreRevision(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	out, info, err := s.st.RestoreRevision(ctx, id, rev)
	s.m.storeFailed("restore_revision", err)
	return out, info, err
}

func (s measuredStore) PutPreview(ctx context.Context, p *kompact.Preview, now time.Time, lim kompact.PreviewLimits) error {
	err := s.st.PutPreview(ctx, p, now, lim)
	s.m.storeFailed("put_preview", err)
	return err
}

func (s measuredStore) TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	out, err := s.st.TakePreview(ctx, sessionID, id, now)
	s.m.storeFailed("take_preview", err)
	return out, err
}

func (s measuredStore) GetPreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	out, err := s.st.GetPreview(ctx, sessionID, id, now)
	s.m.storeFailed("get_preview", err)
	return out, err
}

func (s measuredStore) ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error) {
	out, err := s.st.ListPreviews(ctx, sessionID, now)
	s.m.storeFailed("list_previews", err)
	return out, err
}

func (s measuredStore) CountPreviews(ctx context.Context, now time.Time) (map[string]int, error) {
	out, err := s.st.CountPreviews(ctx, now)
	s.m.storeFailed("count_previews", err)
	return out, err
}

func (s measuredStore) Ping(ctx context.Context) error {
	err := s.st.Ping(ctx)
	if err != nil {
		s.m.storeErrors.WithLabelValues("ping").Inc()
	}
	return err
}

func (s measuredStore) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	err := s.st.StreamSession(ctx, id, head, body)
	s.m.storeFailed("stream_session", err)
	return err
}

func (s measuredStore) StreamWindow(ctx context.Context, id string, w kompact.MessageWindow, head func(*kompact.WindowHead) error, body func([]byte) error) error {
	err := s.st.StreamWindow(ctx, id, w, head, body)
	s.m.storeFailed("stream_window", err)
	return err
}

func (s measuredStore) UpdateSettings(ctx context.Context, id string, set kompact.SessionSettings) (*kompact.SessionInfo, error) {
	out, err := s.st.UpdateSettings(ctx, id, set)
	s.m.storeFailed("update_settings", err)
	return out, err
}

func (s measuredStore) SetTokenCount(ctx context.Context, id string, n int) error {
	err := s.st.SetTokenCount(ctx, id, n)
	s.m.storeFailed("set_token_count", err)
	return err
}

func (s measuredStore) RecordAutoFailure(ctx context.Context, id string, f kompact.AutoFailure) (kompact.CompactionBreaker, error) {
	out, err := s.st.RecordAutoFailure(ctx, id, f)
	s.m.storeFailed("record_auto_failure", err)
	return out, err
}

func (s measuredStore) AutoFailureLog(ctx context.Context, id string) ([]kompact.AutoFailure, error) {
	out, err := s.st.AutoFailureLog(ctx, id)
	s.m.storeFailed("auto_failure_log", err)
	return out, err
}

func (s measuredStore) UndoCompaction(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	out, info, err := s.st.UndoCompaction(ctx, id, rev)
	s.m.storeFailed("undo_compaction", err)
	return out, info, err
}

func (s measuredStore) Close() error {
	err := s.st.Close()
	s.m.storeFailed("close", err)
	return err
}

// requestInfo is what the server knows of a request while it runs: its id
// and the route that serves it.
type requestInfo struct {
	id    string
	route string
}

type requestKey struct{}

func requestOf(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestKey{}).(*requestInfo)
	return info
}

// newRequestID returns 16 random hex digits.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// routed notes pattern as the request's route (for the metrics) before h
// serves it.
func routed(pattern string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := requestOf(r.Context()); info != nil {
			info.route = pattern
		}
		h.ServeHTTP(w, r)
	})
}

// requestIDHandler adds request_id to every record logged with a request's
// context.
type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, rec slog.Record) error {
	if info := requestOf(ctx); info != nil {
		rec.AddAttrs(slog.String("request_id", info.id))
	}
	return h.Handler.Handle(ctx, rec)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
