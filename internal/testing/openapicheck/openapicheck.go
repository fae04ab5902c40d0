// Package openapicheck holds kompact's HTTP API to its OpenAPI document
// (httpapi/openapi.yaml) in the tests of httpapi and of integration: a
// client, a server's client or a handler whose requests and answers the
// document's validator checks.
package openapicheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// The httpapi tests hold the server to its OpenAPI document
// (openapi.yaml): every request they send through an env's client, and
// every answer, goes through the document's validator
// (pb33f/libopenapi-validator), and what the document does not allow fails
// the test that sent it. The events of a Server-Sent Events answer are
// checked one by one against the schema the document gives their data.
// The gateway's routes (under /gateway/) are held to it the same way; its
// own errors, which the document gives with the upstream's answers of the
// same status, are held to GatewayError on their own (gatewayOwnError).

// invalidRequests are the tests that send requests the document does not
// allow, on purpose, and why. Their requests are not held to the document;
// the server must refuse each such request with a 4xx answer, which is
// held to it like any other. Every other test's requests must be valid.
var invalidRequests = map[string]string{
	"TestHealthAgentsAndPage":                    "PUT /v1/sessions, a route that does not exist",
	"TestSessionLifecycle":                       "bodies with an unknown role, an empty or both message lists, a bad content, an unknown field",
	"TestMalformedBodies":                        "malformed JSON, unknown fields, wrong types, an unknown action, revision numbers that are not numbers",
	"TestErrorBodies":                            "an unknown field, an unknown route (GET /v1/nothing-here)",
	"TestUnknownFieldSuggests":                   "bodies with misspelt fields, and a message posted as the body",
	"TestWrongMethodNamesTheMethods":             "paths of the API asked with methods they do not answer",
	"TestSessionTitlesAndSearch":                 "a title longer than 200 characters",
	"TestKCPD01ContextRoute":                     "a negative token_count",
	"TestSettingsRefusedWritesNothing":           "a title longer than 200 characters, a negative token_count, each with valid settings",
	"TestSettingsInstructions":                   "instructions longer than 4000 characters",
	"TestPruneToolResultsRefusals":               "keep_recent and min_chars out of bounds, an unknown field",
	"TestBrowserStandingInstructions":            "instructions longer than 4000 characters, saved from the page for the error it shows",
	"TestBodiesMustBeJSON":                       "bodies that are not declared application/json",
	"TestGatewayRouteBeforeBodyType":             "form-encoded gateway bodies, to unknown agents and routes too",
	"TestImportKimiContext":                      "an unknown format, kimi-cli files without a record",
	"TestImportStreamed":                         "documents with an unknown role or an unknown field far into them",
	"TestImportSlowClientHoldsNoWrite":           "a document with an unknown role",
	"TestUndoAndRestorePreview":                  "revision 0",
	"TestOpenAPICheckerCatchesDrift":             "a request the document does not allow, to see it caught",
	"TestBrowserTokenImportAndErrors":            "a document with an unknown role, imported from the page",
	"TestBrowserCrossSitePageCannotReadOrChange": "another site's page posting text/plain bodies and preflight OPTIONS requests",
	"TestImportKimiContextWithoutFormat":         "kimi-cli files sent as session documents, for the error that says so",
	"TestPathIDsOneRule":                         "session ids outside the rule on every route",
	"TestActionCap":                              "a continue's body sent to an action, refused as busy before it is read",
	"TestGatewayErrors":                          "a chat request without messages",
	"TestSessionListSideCallsQuery":              "side_calls=maybe, not a boolean",
	"TestMessagesWrongFace":                      "a Messages request without messages",
	"TestGatewaySessionHeaderRule":               "X-Kompact-Session ids outside the session id rule",
	"TestGatewayGuardErrors":                     "a chat request declared text/plain",
	"TestGatewayCheckerCatchesDrift":             "a chat request without messages, to see it caught",
	"TestGatewayErrorBodies":                     "an X-Kompact-Session outside the session id rule, a chat request without messages",
	"TestGatewaySafetyHeaders":                   "a gateway path that does not exist, a chat request declared text/html",
	"TestMessagesWindowBounded":                  "windows whose limit, offset or around is out of bounds",
}

// bodyCheckLimit is the largest body checked against its schema: the
// tests of big imports send and read sessions of several megabytes, whose
// schema check would take seconds, while their shape is that of the small
// ones every other test checks. Their paths, parameters, statuses and
// headers are still checked.
const bodyCheckLimit = 1 << 20

// validator returns the validator for a body of n bytes.
func (o *openAPI) validator(n int64) validator.Validator {
	if n > bodyCheckLimit {
		return o.big()
	}
	return o.v
}

// openAPI is the document's validator, built once for the package's tests.
type openAPI struct {
	// mu serialises the validator's calls: it keeps caches of its own.
	mu sync.Mutex
	v  validator.Validator
	// big checks what is not a body, for the requests and answers whose
	// body is over bodyCheckLimit (built when first needed).
	big func() validator.Validator
	sv  schema_validation.SchemaValidator
	// events are the schemas of the events of an action's stream, by
	// event name; errorBody is the schema of an error answer.
	events    map[string]*base.Schema
	errorBody *base.Schema
	// gatewayError is the schema of the gateway's own errors, chunk that
	// of an event of a streamed chat answer.
	gatewayError, chunk *base.Schema
}

// documentDir is httpapi's folder, which holds the document (openapi.yaml,
// and openapi.json generated from it), as httpapi embeds it.
func documentDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "httpapi")
}

var loadOpenAPI = sync.OnceValues(func() (*openAPI, error) {
	openAPIYAML, err := os.ReadFile(filepath.Join(documentDir(), "openapi.yaml"))
	if err != nil {
		return nil, err
	}
	doc, err := libopenapi.NewDocument(openAPIYAML)
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, fmt.Errorf("the document's validator: %v", errs)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, err
	}
	schemas := model.Model.Components.Schemas
	schema := func(name string) (*base.Schema, error) {
		p := schemas.GetOrZero(name)
		if p == nil {
			return nil, fmt.Errorf("the document has no schema %s", name)
		}
		return p.Schema(), nil
	}
	o := &openAPI{v: v, sv: schema_validation.NewSchemaValidator(), events: map[string]*base.Schema{}}
	o.big = sync.OnceValue(func() validator.Validator {
		v, _ := validator.NewValidator(doc, config.WithoutRequestBodyValidation(), config.WithoutResponseBodyValidation())
		return v
	})
	if o.errorBody, err = schema("Error"); err != nil {
		return nil, err
	}
	if o.gatewayError, err = schema("GatewayError"); err != nil {
		return nil, err
	}
	if o.chunk, err = schema("ChatCompletionChunk"); err != nil {
		return nil, err
	}
	events, err := eventSchemas()
	if err != nil {
		return nil, err
	}
	for event, name := range events {
		if o.events[event], err = schema(name); err != nil {
			return nil, err
		}
	}
	return o, nil
})

// eventSchemas returns the component names of the schemas of an action's
// events, by event name, from the x-kompact-events of the action's
// text/event-stream answer.
func eventSchemas() (map[string]string, error) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	openAPIJSON, err := os.ReadFile(filepath.Join(documentDir(), "openapi.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		return nil, err
	}
	var op struct {
		Responses map[string]struct {
			Content map[string]struct {
				Events map[string]struct {
					Ref string `json:"$ref"`
				} `json:"x-kompact-events"`
			} `json:"content"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(doc.Paths["/v1/sessions/{id}/actions/{action}"]["post"], &op); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for name, ev := range op.Responses["200"].Content["text/event-stream"].Events {
		out[name] = strings.TrimPrefix(ev.Ref, "#/components/schemas/")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the action's event stream lists no events (x-kompact-events)")
	}
	return out, nil
}

// Client returns a client whose requests and answers are held to
// the document, failing t; base sends them (nil: a new http.Client).
func Client(t testing.TB, base *http.Client) *http.Client {
	hc := &http.Client{}
	if base != nil {
		*hc = *base
	}
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	hc.Transport = &checkedTransport{t: t, base: rt}
	return hc
}

// Server holds the requests of ts's own client (ts.Client()) and
// their answers to the document, failing t.
func Server(t testing.TB, ts *httptest.Server) {
	c := ts.Client()
	c.Transport = &checkedTransport{t: t, base: c.Transport}
}

// checkedTransport holds the requests under /v1 and /gateway/ and their
// answers to the document.
type checkedTransport struct {
	t    testing.TB
	base http.RoundTripper
}

// isGatewayPath reports whether path is under the gateway's routes
// (httpapi's gatewayPrefix).
func isGatewayPath(path string) bool { return strings.HasPrefix(path, "/gateway/") }

// documented reports whether the document describes the requests of path:
// the API's and the gateway's, not the page's or the metrics'.
func documented(path string) bool {
	return strings.HasPrefix(path, "/v1/") || isGatewayPath(path)
}

func (c *checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !documented(req.URL.Path) {
		return c.base.RoundTrip(req) // the page and the metrics are not the API
	}
	o, err := loadOpenAPI()
	if err != nil {
		c.t.Errorf("the OpenAPI document: %v", err)
		return c.base.RoundTrip(req)
	}
	sent, replayable := replayRequest(req)
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	what := fmt.Sprintf("%s %s -> %d", req.Method, req.URL.Path, resp.StatusCode)
	known := o.checkRequest(c.t, what, sent, replayable, resp.StatusCode)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		o.checkResponse(c.t, what, sent, withBody(resp, nil))
		resp.Body = &eventChecker{t: c.t, o: o, what: what, body: resp.Body, gateway: isGatewayPath(req.URL.Path)}
		return resp, nil
	}
	data, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), errReader{err}))
	if err != nil {
		return resp, nil // a cut answer is not an answer: the test sees it cut
	}
	o.checkAnswer(c.t, what, sent, known, withBody(resp, data), data)
	return resp, nil
}

// checkAnswer holds an answer that is not a stream, of body data, to the
// document: to its operation's answers when known, else to the error body
// (the gateway's, under /gateway/). The gateway's own errors are held to
// GatewayError besides.
func (o *openAPI) checkAnswer(t testing.TB, what string, req *http.Request, known bool, resp *http.Response, data []byte) {
	gateway := isGatewayPath(req.URL.Path)
	switch {
	case !known && gateway:
		o.checkSchema(t, what, o.gatewayError, data)
	case !known:
		o.checkSchema(t, what, o.errorBody, data)
	default:
		o.checkResponse(t, what, req, resp)
		if gateway && gatewayOwnError(req, resp, data) {
			o.checkSchema(t, what, o.gatewayError, data)
		}
	}
}

// gatewayOwnError reports whether a gateway answer of 400 or more is the
// gateway's own error rather than the upstream's, relayed: an answer to a
// chat request without X-Kompact-Forwarded (which every relayed chat
// answer has), or one whose error says it is kompact's.
func gatewayOwnError(req *http.Request, resp *http.Response, data []byte) bool {
	if resp.StatusCode < 400 {
		return false
	}
	if strings.HasSuffix(req.URL.Path, "/chat/completions") && resp.Header.Get("X-Kompact-Forwarded") == "" {
		return true
	}
	var body struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	return json.Unmarshal(data, &body) == nil && body.Error.Type == "kompact_error"
}

// errReader reads err (nil: io.EOF).
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err == nil {
		return 0, io.EOF
	}
	return 0, r.err
}

// replayRequest returns a copy of req to validate, with its body when it
// can be read again (a body that streams from a pipe cannot, and then the
// request is not validated). The body of an import with format=kimi (or
// kimi-code) is a kimi-cli context.jsonl (a Kimi Code wire.jsonl), JSON
// lines, which the document's JSON schema
// does not describe: its request is validated with an empty document for
// a body (its path, query and headers).
func replayRequest(req *http.Request) (*http.Request, bool) {
	cp := req.Clone(req.Context())
	cp.Body = http.NoBody
	if req.Body == nil || req.Body == http.NoBody {
		return cp, true
	}
	if kimiImport(req) {
		cp.Body, cp.ContentLength = io.NopCloser(strings.NewReader("{}")), 2
		return cp, true
	}
	if req.GetBody == nil {
		return cp, false
	}
	body, err := req.GetBody()
	if err != nil {
		return cp, false
	}
	cp.Body = body
	return cp, true
}

// kimiImport reports whether req imports a kimi-cli context.jsonl or a
// Kimi Code wire.jsonl.
func kimiImport(req *http.Request) bool {
	f := req.URL.Query().Get("format")
	return req.URL.Path == "/v1/sessions/import" && (f == "kimi" || f == "kimi-code")
}

// withBody returns a copy of resp with body data.
func withBody(resp *http.Response, data []byte) *http.Response {
	cp := *resp
	cp.Body, cp.ContentLength = io.NopCloser(bytes.NewReader(data)), int64(len(data))
	return &cp
}

// checkRequest holds a request to the document, unless its test is one of
// invalidRequests: then the server must have refused it (status 4xx). It
// reports whether the document has the request's operation.
func (o *openAPI) checkRequest(t testing.TB, what string, req *http.Request, replayable bool, status int) bool {
	o.mu.Lock()
	ok, errs := o.validator(req.ContentLength).ValidateHttpRequestSync(req)
	o.mu.Unlock()
	known := true
	for _, e := range errs {
		if e.IsPathMissingError() || e.IsOperationMissingError() {
			known = false
		}
	}
	if !replayable {
		return known // validated without its body, it would fail
	}
	if ok {
		return known
	}
	if why, exempt := invalidRequests[topTest(t)]; exempt {
		if status < 400 || status >= 500 {
			t.Errorf("%s: the document does not allow this request (%s), yet the server did not refuse it:\n%s", what, why, validationText(errs))
		}
		return known
	}
	t.Errorf("%s: the OpenAPI document does not allow this request (if the test means to send it, list it in invalidRequests):\n%s", what, validationText(errs))
	return known
}

// checkResponse holds an answer to the document.
func (o *openAPI) checkResponse(t testing.TB, what string, req *http.Request, resp *http.Response) {
	o.mu.Lock()
	ok, errs := o.validator(resp.ContentLength).ValidateHttpResponse(req, resp)
	o.mu.Unlock()
	if !ok {
		t.Errorf("%s: the OpenAPI document does not allow this answer:\n%s", what, validationText(errs))
	}
}

// checkSchema holds data to schema.
func (o *openAPI) checkSchema(t testing.TB, what string, schema *base.Schema, data []byte) {
	o.mu.Lock()
	ok, errs := o.sv.ValidateSchemaBytes(schema, data)
	o.mu.Unlock()
	if !ok {
		t.Errorf("%s: the OpenAPI document does not allow this:\n%s\n%s", what, validationText(errs), data)
	}
}

// topTest is the name of t's top-level test.
func topTest(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// validationText words the validator's errors, one a line.
func validationText(errs []*verrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  %s: %s", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "; %s at %s", f.Reason, f.FieldPath)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// eventChecker reads an action's event stream as the test reads it and
// holds each event's data to the schema of its event. A stream read to
// its end must end with one outcome event. With gateway, the stream is a
// streamed chat answer: each event's data is a ChatCompletionChunk, or
// the text [DONE].
type eventChecker struct {
	t       testing.TB
	o       *openAPI
	what    string
	body    io.ReadCloser
	gateway bool
	// line is the text of the current line so far; event and data those
	// of the current event.
	line     []byte
	event    string
	data     [][]byte
	outcomes int
	after    bool // an event came after the outcome
}

func (c *eventChecker) Read(p []byte) (int, error) {
	n, err := c.body.Read(p)
	c.feed(p[:n])
	if err == io.EOF {
		c.end()
	}
	return n, err
}

func (c *eventChecker) Close() error { return c.body.Close() }

// feed takes the next bytes of the stream.
func (c *eventChecker) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.line = append(c.line, p...)
			return
		}
		c.line = append(c.line, p[:i]...)
		c.takeLine(bytes.TrimSuffix(c.line, []byte("\r")))
		c.line = c.line[:0]
		p = p[i+1:]
	}
}

// takeLine takes one line of the stream (SSE: field lines, comments, a
// blank line ending an event).
func (c *eventChecker) takeLine(line []byte) {
	switch {
	case len(line) == 0:
		c.dispatch()
	case line[0] == ':': // a comment: the heartbeat
	default:
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			c.event = string(value)
		case "data":
			c.data = append(c.data, append([]byte(nil), value...))
		case "id", "retry":
			if !c.gateway {
				c.t.Errorf("%s: an event has the field %q, which the document does not describe", c.what, field)
			}
		default:
			c.t.Errorf("%s: an event has the field %q, which the document does not describe", c.what, field)
		}
	}
}

// dispatch checks the event read so far.
func (c *eventChecker) dispatch() {
	if c.event == "" && c.data == nil {
		return
	}
	event, data := c.event, bytes.Join(c.data, []byte("\n"))
	c.event, c.data = "", nil
	if c.gateway {
		if string(data) != "[DONE]" {
			c.o.checkSchema(c.t, c.what+" chunk", c.o.chunk, data)
		}
		return
	}
	if c.outcomes > 0 {
		c.after = true
	}
	schema, ok := c.o.events[event]
	if !ok {
		c.t.Errorf("%s: the event %q is not one the document describes\n%s", c.what, event, data)
		return
	}
	if event == "outcome" {
		c.outcomes++
	}
	c.o.checkSchema(c.t, c.what+" event "+event, schema, data)
}

// end checks a stream read to its end.
func (c *eventChecker) end() {
	if len(c.line) > 0 {
		c.takeLine(c.line)
		c.line = nil
	}
	c.dispatch()
	if c.gateway {
		return
	}
	if c.outcomes != 1 || c.after {
		c.t.Errorf("%s: the stream has %d outcome events (an event after it: %v); the document says it ends with one", c.what, c.outcomes, c.after)
	}
}

// Handler serves h, holding the requests under /v1 and /gateway/
// that reach it and h's answers to the document, failing t: for the tests
// whose client is not Go's, such as the page in a browser, or is many
// (the gateway's: SDKs, plain requests). A request's body is read whole
// before h sees it.
func Handler(t testing.TB, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o, err := loadOpenAPI()
		if !documented(r.URL.Path) || err != nil {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("%s %s: read the body: %v", r.Method, r.URL.Path, err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sent := r.Clone(r.Context())
		if kimiImport(r) {
			body = []byte("{}") // as replayRequest does
		}
		sent.Body, sent.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rec := &checkRecorder{ResponseWriter: w}
		rec.events = &eventChecker{t: t, o: o, what: r.Method + " " + r.URL.Path, gateway: isGatewayPath(r.URL.Path)}
		h.ServeHTTP(rec, r) // a handler that aborts (panics) is not checked
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		what := fmt.Sprintf("%s %s -> %d", r.Method, r.URL.Path, rec.status)
		known := o.checkRequest(t, what, sent, true, rec.status)
		resp := &http.Response{StatusCode: rec.status, Header: w.Header().Clone(), Request: sent}
		if rec.stream {
			o.checkResponse(t, what, sent, withBody(resp, nil))
			rec.events.what = what
			rec.events.end()
			return
		}
		o.checkAnswer(t, what, sent, known, withBody(resp, rec.body.Bytes()), rec.body.Bytes())
	})
}

// checkRecorder passes an answer on and keeps it: the status, the body, or
// the events of an event stream as they are written.
type checkRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	stream bool
	events *eventChecker
}

func (r *checkRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
		r.stream = strings.HasPrefix(r.Header().Get("Content-Type"), "text/event-stream")
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *checkRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if r.stream {
		r.events.feed(p)
	} else {
		r.body.Write(p)
	}
	return r.ResponseWriter.Write(p)
}

func (r *checkRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *checkRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// ValidateDocument validates the document as an OpenAPI 3.1 document
// (against the specification's schema), saying what is wrong one a line.
func ValidateDocument() error {
	o, err := loadOpenAPI()
	if err != nil {
		return err
	}
	if ok, errs := o.v.ValidateDocument(); !ok {
		return fmt.Errorf("%s", validationText(errs))
	}
	return nil
}
