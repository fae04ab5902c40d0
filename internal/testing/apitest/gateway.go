package apitest

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/openapicheck"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// GatewayServer starts a server of the agents in yaml over a throwaway
// SQLite store, the LLM and the upstream reached with no key and no
// retries, its warnings going to logs, every request and answer held to
// the OpenAPI document (openapicheck).
func GatewayServer(t *testing.T, yaml string, logs io.Writer) *httptest.Server {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	s := httpapi.New(httpapi.Config{
		Store: testserver.SQLite(t), Agents: cfg,
		LLM:      &openai.Client{Getenv: getenv, MaxRetries: -1},
		Upstream: &openai.Upstream{Getenv: getenv},
		Logger:   slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	srv := httptest.NewServer(openapicheck.Handler(t, s.Handler()))
	t.Cleanup(srv.Close)
	return srv
}
