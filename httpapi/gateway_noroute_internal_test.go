package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact"
)

// TestGatewayNoRouteNamesEveryRoute: the 404 of a request to no gateway
// route, whether the mux's catch-all answers it or the body-type guard
// (gatewayRouteError), names in its fix every route of the one table
// (gatewayAPIRoutes), so that a new face's route is named without another
// edit. Today's fix named chat/completions and models only, not the
// Messages face's two routes.
func TestGatewayNoRouteNamesEveryRoute(t *testing.T) {
	s := New(Config{})
	var want []string
	for _, rt := range s.gatewayAPIRoutes() {
		want = append(want, strings.Replace(rt.pattern, "{agent}", "AGENT", 1))
	}
	caught := httptest.NewRecorder()
	s.Handler().ServeHTTP(caught, httptest.NewRequest(http.MethodGet, "/gateway/gw/v1/embeddings", nil))
	guarded := s.gatewayRouteError(httptest.NewRequest(http.MethodPost, "/gateway/gw/v1/embeddings", strings.NewReader("a=1")))
	if caught.Code != http.StatusNotFound || kompact.ErrorCodeOf(guarded) != kompact.ENotFound {
		t.Fatalf("no route: the catch-all answered %d, the guard %v; want 404 and not_found", caught.Code, guarded)
	}
	for where, fixes := range map[string]string{"the catch-all's answer": caught.Body.String(), "the guard's error": strings.Join(kompact.ErrorFixes(guarded), " ")} {
		for _, route := range want {
			if !strings.Contains(fixes, route+",") && !strings.Contains(fixes, route+" and ") && !strings.Contains(fixes, route+" (") {
				t.Errorf("%s does not name %s: %s", where, route, fixes)
			}
		}
	}
}
