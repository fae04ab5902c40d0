package httpapi

import (
	"net/http"
	"strings"

	"kompact"
)

// gatewayRouteError is, for a gateway request the guard refuses for its
// body's type, what the gateway would answer before reading the body: no
// such route, or an agent the route does not serve (unknown, its gateway
// off, another protocol); nil when the route and the agent are good and
// the body's type is the one thing wrong. A request is told first about
// its route and agent, then about its body (issue 40 §3).
//
// Without the server's token, when it has one, nothing is said about the
// route or the agent (the body's type is refused, as before).
func (s *Server) gatewayRouteError(r *http.Request) error {
	if s.cfg.Token != "" && !s.gatewayToken(r) {
		return nil
	}
	rest := strings.TrimPrefix(r.URL.Path, gatewayPrefix)
	agent, tail, _ := strings.Cut(rest, "/")
	for _, rt := range s.gatewayAPIRoutes() {
		method, pattern, _ := strings.Cut(rt.pattern, " ")
		if method != r.Method || gatewayPrefix+"{agent}/"+tail != pattern {
			continue
		}
		r2 := r.WithContext(r.Context())
		r2.SetPathValue("agent", agent)
		if _, err := s.gatewayAgent(r2); kompact.ErrorCodeOf(err) != kompact.EInternal {
			return err
		}
		return nil
	}
	return s.noGatewayRoute(r)
}
