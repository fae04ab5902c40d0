package service_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"kompact/internal/testing/testserver"
	"kompact/service"
)

// TestGatewayAnswerShortRequestReadsLittle (issue 38, Low): a short
// compaction request that names a 100,000-message gateway session by
// X-Kompact-Session (its history is not the session's) is refused
// without reading the session: it allocates a bounded amount, not the
// session's size (33b084b read it whole twice, 376 MB).
func TestGatewayAnswerShortRequestReadsLittle(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{})
	ctx := context.Background()
	pairs := make([]string, 0, 200000)
	for i := range 50000 {
		pairs = append(pairs, "user", fmt.Sprintf("step %d: run the tests again and say what failed", i), "assistant", fmt.Sprintf("done %d: all passed", i))
	}
	big := e.turn("big", chat(t, pairs...))
	if !big.Stored {
		t.Fatalf("the big session was not stored: %+v", big)
	}
	short := chat(t, "user", "step 0: hi", "assistant", "ok")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sum := e.s.GatewayAnswerCompaction(ctx, e.a, service.GatewayNaming{SessionID: "big"}, short, service.GatewayAsk{Wait: true})
	runtime.ReadMemStats(&after)
	if sum != nil {
		t.Fatalf("a short history got the big session's summary")
	}
	const bound = 1 << 20
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("the refusal allocated %d bytes", got)
	if got > bound {
		t.Errorf("the refusal allocated %d bytes, want at most %d (the session is read)", got, bound)
	}
}
