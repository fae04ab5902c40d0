package httpapi

import (
	"net/http"
	"strings"

	"kompact"
)

// routeMethods are the methods a wrong-method error may name, in the
// order it lists them (methodsOf keeps those the path has a route for).
var routeMethods = []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete}

// noRoute answers a request under /v1 that no route takes: a 404 that,
// for a path the API has with other methods, names them.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) error {
	err := kompact.Errorf(kompact.ENotFound, "no route %s %s", r.Method, r.URL.Path)
	if m := s.methodsOf(r); len(m) > 0 {
		return err.WithFixes("This path answers "+andList(m)+", not "+r.Method+".",
			"See docs/http-api.md for the routes and their methods.")
	}
	return err.WithFixes("See docs/http-api.md for the routes and their methods.")
}

// pathMux is a mux of the API's route patterns alone, which methodsOf
// asks which pattern a request would reach.
func pathMux(routes []route) *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.Handle(rt.pattern, http.NotFoundHandler())
	}
	return mux
}

// methodsOf returns the methods with which the API has a route for r's
// path.
func (s *Server) methodsOf(r *http.Request) []string {
	var methods []string
	for _, m := range routeMethods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.apiPaths.Handler(probe); strings.HasPrefix(pattern, m+" ") {
			methods = append(methods, m)
		}
	}
	return methods
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
