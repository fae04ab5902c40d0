package httpapi

import (
	"bytes"
	"encoding/json"
	"kompact/internal/testing/openapicheck"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kompact"
)

// openAPIDoc is the part of openapi.json these tests read.
type openAPIDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas struct {
			ErrorCode struct {
				Enum     []kompact.ErrorCode       `json:"enum"`
				Statuses map[kompact.ErrorCode]int `json:"x-kompact-statuses"`
			} `json:"ErrorCode"`
		} `json:"schemas"`
	} `json:"components"`
}

func readOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	var doc openAPIDoc
	if err := json.Unmarshal(openAPIJSON, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	return doc
}

// documentedRoutes returns the document's operations as mux patterns
// ("GET /v1/sessions/{id}").
func documentedRoutes(doc openAPIDoc) []string {
	var out []string
	for path, item := range doc.Paths {
		for method := range item {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options", "trace":
				out = append(out, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestOpenAPIRoutes holds the server's routes and the document's paths to
// each other: every route of the tables (apiRoutes, and the gateway's
// gatewayAPIRoutes) is documented, every documented operation is a route,
// and the server's mux sends a request for each documented operation to
// that route.
func TestOpenAPIRoutes(t *testing.T) {
	doc := readOpenAPI(t)
	s := New(Config{})
	var served []string
	for _, rt := range append(s.apiRoutes(), s.gatewayAPIRoutes()...) {
		served = append(served, rt.pattern)
	}
	slices.Sort(served)
	documented := documentedRoutes(doc)
	for _, p := range served {
		if !slices.Contains(documented, p) {
			t.Errorf("the route %s is not in openapi.yaml", p)
		}
	}
	for _, p := range documented {
		if !slices.Contains(served, p) {
			t.Errorf("openapi.yaml documents %s, which the server does not serve", p)
		}
	}
	mux, ok := s.routes().(*http.ServeMux)
	if !ok {
		t.Fatal("routes is not a ServeMux")
	}
	param := regexp.MustCompile(`\{[a-z_]+\}`)
	values := map[string]string{"{id}": "s", "{rev}": "1", "{action}": "compact_conversation", "{preview}": "pv_1", "{agent}": "gw"}
	for _, p := range documented {
		method, path, _ := strings.Cut(p, " ")
		path = param.ReplaceAllStringFunc(path, func(name string) string { return values[name] })
		_, pattern := mux.Handler(httptest.NewRequest(method, path, nil))
		if pattern != p {
			t.Errorf("%s %s goes to the route %q, not %s", method, path, pattern, p)
		}
	}
}

// TestOpenAPIErrorCodes: the document's error codes and their statuses
// are httpapi's table (statusOf), the one truth.
func TestOpenAPIErrorCodes(t *testing.T) {
	codes := readOpenAPI(t).Components.Schemas.ErrorCode
	if !maps.Equal(codes.Statuses, statusOf) {
		t.Errorf("the document's x-kompact-statuses %v\nare not httpapi's table %v", codes.Statuses, statusOf)
	}
	listed := slices.Sorted(maps.Keys(statusOf))
	enum := slices.Clone(codes.Enum)
	slices.Sort(enum)
	if !slices.Equal(enum, listed) {
		t.Errorf("the document's error codes %v are not httpapi's %v", enum, listed)
	}
}

// TestOpenAPIDocument validates openapi.yaml as an OpenAPI 3.1 document
// (against the specification's schema).
func TestOpenAPIDocument(t *testing.T) {
	if !bytes.HasPrefix(openAPIYAML, []byte("openapi: 3.1.")) {
		t.Errorf("the document does not start with openapi: 3.1.x")
	}
	if err := openapicheck.ValidateDocument(); err != nil {
		t.Errorf("openapi.yaml is not a valid OpenAPI 3.1 document:\n%s", err)
	}
}
