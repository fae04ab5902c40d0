package httpapi

import (
	_ "embed" // the OpenAPI document
	"net/http"
)

// openAPIYAML is the OpenAPI 3.1 document of the API, written by hand; the
// tests hold the server to it (openapi_test.go).
//
//go:embed openapi.yaml
var openAPIYAML []byte

// openAPIJSON is openAPIYAML as JSON, generated from it by the tests
// (go test ./httpapi/ -run OpenAPIJSON -update), so that httpapi needs no
// YAML library.
//
//go:embed openapi.json
var openAPIJSON []byte

// OpenAPI returns the OpenAPI 3.1 document of the API, as YAML.
func OpenAPI() []byte { return append([]byte(nil), openAPIYAML...) }

func serveOpenAPIYAML(w http.ResponseWriter, _ *http.Request) error {
	return serveDocument(w, "application/yaml", openAPIYAML)
}

func serveOpenAPIJSON(w http.ResponseWriter, _ *http.Request) error {
	return serveDocument(w, "application/json", openAPIJSON)
}

// serveDocument answers 200 with the document data of type contentType.
func serveDocument(w http.ResponseWriter, contentType string, data []byte) error {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
	return nil
}
