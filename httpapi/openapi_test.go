package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/golden"
)

// TestOpenAPIJSON: openapi.json, which the server serves at
// /v1/openapi.json, is openapi.yaml as JSON (-update writes it).
func TestOpenAPIJSON(t *testing.T) {
	got := append(apitest.MustJSON(yamlToJSON(httpapi.OpenAPI())), '\n')
	if golden.Update() {
		if err := os.WriteFile("openapi.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("openapi.json is not openapi.yaml as JSON: run go test ./httpapi/ -run OpenAPIJSON -update")
	}
}

// TestOpenAPIServed: the document is served as YAML and as JSON, behind
// the token like the rest of /v1.
func TestOpenAPIServed(t *testing.T) {
	e := newAPIEnv(t, apiOptions{token: "tok"})
	for _, c := range []struct{ path, ctype, file string }{
		{"/v1/openapi.yaml", "application/yaml", "openapi.yaml"},
		{"/v1/openapi.json", "application/json", "openapi.json"},
	} {
		r := e.do("GET", c.path, nil)
		want, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != 200 || r.header.Get("Content-Type") != c.ctype || !bytes.Equal(r.body, want) {
			t.Errorf("GET %s: %d %s, %d bytes (want %s, %d bytes)", c.path, r.status, r.header.Get("Content-Type"), len(r.body), c.file, len(want))
		}
	}
	e.token = ""
	wantError(t, e.do("GET", "/v1/openapi.yaml", nil), 401, "unauthorized")
	wantError(t, e.do("GET", "/v1/openapi.json", nil), 401, "unauthorized")
}

// goldenExample matches an example taken from a golden file: the
// x-golden line naming it, then its value on the next line.
var goldenExample = regexp.MustCompile(`(?m)^( *)x-golden: (.*)\n( *)value: (.*)$`)

// TestOpenAPIExamples: each example marked x-golden is the content of its
// golden file (testdata/NAME.golden; "error_bodies REQUEST -> STATUS" is
// the body under that line of error_bodies.golden), and every outcome and
// the stored session appear among the examples. -update copies the golden
// files into the document.
func TestOpenAPIExamples(t *testing.T) {
	doc := httpapi.OpenAPI()
	used := map[string]bool{}
	var failed bool
	out := goldenExample.ReplaceAllFunc(doc, func(m []byte) []byte {
		g := goldenExample.FindSubmatch(m)
		indent, name, value := string(g[1]), strings.Trim(string(g[2]), `"`), g[4]
		want, err := goldenJSON(name)
		if err != nil {
			t.Error(err)
			failed = true
			return m
		}
		used[strings.Fields(name)[0]] = true
		if !golden.Update() && !sameJSON(t, value, want) {
			t.Errorf("the example %s differs from its golden file (run with -update to copy it in)", name)
		}
		return fmt.Appendf(nil, "%sx-golden: %s\n%svalue: %s", indent, g[2], g[3], want)
	})
	if golden.Update() && !failed {
		if err := os.WriteFile("openapi.yaml", out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob("testdata/outcome_*.golden")
	for _, f := range append(files, "testdata/stored_session.golden", "testdata/message_window.golden") {
		name := strings.TrimSuffix(filepath.Base(f), ".golden")
		if !used[name] {
			t.Errorf("no example of the document is %s", f)
		}
	}
}

// goldenJSON returns the JSON of golden example name, compacted.
func goldenJSON(name string) ([]byte, error) {
	file, entry, _ := strings.Cut(name, " ")
	data, err := os.ReadFile(filepath.Join("testdata", file+".golden"))
	if err != nil {
		return nil, err
	}
	if entry != "" {
		head := []byte(entry + "\n")
		i := bytes.Index(data, head)
		if i < 0 {
			return nil, fmt.Errorf("error_bodies.golden has no %q", entry)
		}
		data, _, _ = bytes.Cut(data[i+len(head):], []byte("\n"))
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return b.Bytes(), nil
}

// sameJSON reports whether YAML text value (an example) and JSON want hold
// the same value.
func sameJSON(t testing.TB, value, want []byte) bool {
	t.Helper()
	var y, j any
	if err := yaml.Unmarshal(value, &y); err != nil {
		t.Errorf("an example: %v", err)
		return false
	}
	if err := json.Unmarshal(apitest.MustJSON(y), &y); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &j); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(y, j)
}

// orderedJSON is a JSON object that keeps its keys' order.
type orderedJSON struct {
	keys []string
	vals []any
}

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// yamlToJSON returns YAML document data as a value that marshals to the
// same document in JSON, keys in the order of the YAML.
func yamlToJSON(data []byte) any {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		panic(err)
	}
	return nodeValue(&n)
}

func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		return nodeValue(n.Content[0])
	case yaml.MappingNode:
		var o orderedJSON
		for i := 0; i+1 < len(n.Content); i += 2 {
			o.keys = append(o.keys, n.Content[i].Value)
			o.vals = append(o.vals, nodeValue(n.Content[i+1]))
		}
		return o
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			out = append(out, nodeValue(c))
		}
		return out
	case yaml.AliasNode:
		return nodeValue(n.Alias)
	}
	var v any
	if err := n.Decode(&v); err != nil {
		panic(err)
	}
	return v
}

// recordTB records the errors a check reports instead of failing.
type recordTB struct {
	testing.TB
	errs []string
}

func (r *recordTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestOpenAPICheckerCatchesDrift: answers the document does not allow fail
// the test that caused them: a body without its required fields, a status
// the operation does not list, an event whose data is not its schema's, an
// unknown route's answer that is not an error body, and a request the
// document refuses that the server took.
func TestOpenAPICheckerCatchesDrift(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/health":
			_, _ = io.WriteString(w, `{"status":"ok"}`)
		case "/v1/agents":
			w.WriteHeader(http.StatusTeapot)
			_, _ = io.WriteString(w, `{"agents":[]}`)
		case "/v1/sessions/x/actions/compact_conversation":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "event: progress\ndata: {\"request\":\"one\"}\n\n: heartbeat\n\nevent: outcome\ndata: {\"status\":\"compacted\"}\n\n")
		case "/v1/sessions":
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"messages":[],"version":1,"created_at":"2000-01-01T00:00:00Z","updated_at":"2000-01-01T00:00:00Z"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":"no"}`)
		}
	}))
	defer ts.Close()
	for _, c := range []struct {
		method, path, body, accept, want string
	}{
		{"GET", "/v1/health", "", "", "missing properties 'store'"},
		{"GET", "/v1/agents", "", "", "418"},
		{"POST", "/v1/sessions/x/actions/compact_conversation", "", "text/event-stream", "event progress"},
		{"POST", "/v1/sessions/x/actions/compact_conversation", "", "text/event-stream", "event outcome"},
		{"GET", "/v1/nowhere", "", "", "missing properties 'code'"},
		{"POST", "/v1/sessions", `{"colour":1}`, "", "yet the server did not refuse it"},
	} {
		rec := &recordTB{TB: t}
		req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := httpapi.CheckedClient(rec, nil).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if !strings.Contains(strings.Join(rec.errs, "\n"), c.want) {
			t.Errorf("%s %s: the check did not report %q; it reported:\n%s", c.method, c.path, c.want, strings.Join(rec.errs, "\n"))
		}
	}
}

// TestOpenAPICheckedHandlerCatchesDrift: on the server's side too (the
// browser tests' server), an answer the document does not allow fails the
// test, an event stream's events included.
func TestOpenAPICheckedHandlerCatchesDrift(t *testing.T) {
	for _, c := range []struct {
		path, ctype, body, want string
	}{
		{"/v1/health", "application/json", `{"status":"fine","store":"ok","version":"1"}`, "status"},
		{"/v1/sessions/x/actions/compact_conversation", "text/event-stream", "event: progress\ndata: {}\n\n", "0 outcome events"},
	} {
		rec := &recordTB{TB: t}
		h := httpapi.CheckedHandler(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", c.ctype)
			_, _ = io.WriteString(w, c.body)
		}))
		req := httptest.NewRequest("POST", c.path, nil)
		if strings.Contains(c.path, "health") {
			req.Method = "GET"
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if got := strings.Join(rec.errs, "\n"); !strings.Contains(got, c.want) {
			t.Errorf("%s: the check did not report %q; it reported:\n%s", c.path, c.want, got)
		}
	}
}

// TestGatewayCheckerCatchesDrift: gateway answers the document does not
// allow fail the test that caused them: an error of the gateway's own
// that is not GatewayError, a relayed answer without X-Kompact-Forwarded,
// a stream chunk that is not a ChatCompletionChunk, an unknown gateway
// route's answer in the API's error form, and a request the document
// refuses that the server took, and an upstream answer relayed as text
// (the gateway relays JSON and event streams only: issue 29). The
// upstream's own error, relayed as it came, is not held to GatewayError.
func TestGatewayCheckerCatchesDrift(t *testing.T) {
	const chat = "/gateway/gw/v1/chat/completions"
	const valid = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		header                   []string
		answer, want             string
	}{
		{"an own error without fixes", "POST", chat, valid, 400, nil,
			`{"error":{"message":"no","type":"kompact_error","code":"invalid_request"}}`, "fixes"},
		{"an own error in the API's form", "POST", chat, valid, 404, nil,
			`{"code":"not_found","message":"no","fixes":[]}`, "error"},
		{"an answer without X-Kompact-Forwarded", "POST", chat, valid, 200, nil,
			`{"id":"c","object":"chat.completion","choices":[]}`, "X-Kompact-Forwarded"},
		{"a chunk whose choices are not a list", "POST", chat, valid, 200, []string{"X-Kompact-Forwarded", "as-sent", "Content-Type", "text/event-stream"},
			"data: {\"choices\":5}\n\ndata: [DONE]\n\n", "chunk"},
		{"an unknown route's answer in the API's form", "GET", "/gateway/gw/v1/embeddings", "", 404, nil,
			`{"code":"not_found","message":"no","fixes":[]}`, "error"},
		{"a request without messages taken", "POST", chat, `{"model":"m"}`, 200, []string{"X-Kompact-Forwarded", "as-sent"},
			`{"id":"c","object":"chat.completion","choices":[]}`, "yet the server did not refuse it"},
		{"the upstream's own 400, relayed", "POST", chat, valid, 400, []string{"X-Kompact-Forwarded", "as-sent"},
			`{"error":{"message":"bad request","type":"invalid_request_error","param":null,"code":null}}`, ""},
		{"the upstream's text, relayed", "POST", chat, valid, 503, []string{"X-Kompact-Forwarded", "as-sent", "Content-Type", "text/plain"},
			"upstream down", "text/plain"},
		{"the upstream's stream error, relayed", "POST", chat, valid, 503, []string{"X-Kompact-Forwarded", "as-sent", "Content-Type", "text/event-stream"},
			"data: {}\n\n", ""},
	} {
		rec := &recordTB{TB: t}
		h := httpapi.CheckedHandler(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			for i := 0; i+1 < len(c.header); i += 2 {
				w.Header().Set(c.header[i], c.header[i+1])
			}
			w.WriteHeader(c.status)
			_, _ = io.WriteString(w, c.answer)
		}))
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		got := strings.Join(rec.errs, "\n")
		switch {
		case c.want == "" && got != "":
			t.Errorf("%s: the check reported what the document allows:\n%s", c.name, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s: the check did not report %q; it reported:\n%s", c.name, c.want, got)
		}
	}
}
