package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
	"kompact/postgres"
)

// TestGatewayConcurrentFirstRequests (issue 38, Medium): identical first
// requests of a conversation that come at once make one session, which
// all of them continue, on SQLite and on PostgreSQL: bursts of 2 (20 of
// them, each a conversation of its own) and one burst of 20. On 33b084b
// 2 at once made 2 sessions in 13 of 20 bursts on SQLite, 20 of 20 on
// PostgreSQL.
func TestGatewayConcurrentFirstRequests(t *testing.T) {
	stores := map[string]func(t *testing.T) kompact.Store{
		"sqlite": func(t *testing.T) kompact.Store { return testserver.SQLite(t) },
		"postgres": func(t *testing.T) kompact.Store {
			st, err := postgres.Open(context.Background(), testenv.PostgresSchema(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			up := apitest.NewFakeUpstream(t)
			srv := newGatewayServer(t, open(t), up, 0)
			bursts := []int{}
			for range 20 {
				bursts = append(bursts, 2)
			}
			bursts = append(bursts, 20)
			for b, n := range bursts {
				body := fmt.Sprintf(`{"model":"m","messages":[{"role":"system","content":"You are careful."},{"role":"user","content":"burst %d: hello"}]}`, b)
				ids := make([]string, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						resp, err := http.Post(srv.URL+"/gateway/gw/v1/chat/completions", "application/json", strings.NewReader(body))
						if err != nil {
							t.Error(err)
							return
						}
						defer resp.Body.Close()
						_, _ = io.ReadAll(resp.Body)
						ids[i] = resp.Header.Get("X-Kompact-Session")
					}()
				}
				wg.Wait()
				for _, id := range ids {
					if id == "" || id != ids[0] {
						t.Fatalf("burst %d of %d identical first requests: sessions %q, want one", b, n, ids)
					}
				}
			}
			var list struct {
				Sessions []struct {
					ID string `json:"id"`
				} `json:"sessions"`
			}
			apitest.GetJSON(t, srv.URL, "/v1/sessions?limit=100", &list)
			if len(list.Sessions) != len(bursts) {
				t.Errorf("%d sessions for %d conversations", len(list.Sessions), len(bursts))
			}
		})
	}
}
