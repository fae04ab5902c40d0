package service

import (
	"strconv"
	"sync"
	"testing"
)

// TestRunningSetConcurrent starts one id from many goroutines at once:
// exactly one start wins, the others see it running, and done frees it.
// Run with -race: the set is shared by every caller of a Sessions.
func TestRunningSetConcurrent(t *testing.T) {
	var r runningSet
	const n = 50
	var wg sync.WaitGroup
	won := make(chan bool, n)
	for i := range n {
		wg.Go(func() {
			won <- r.start("s")
			r.has("s")
			r.start("other" + strconv.Itoa(i%2))
		})
	}
	wg.Wait()
	close(won)
	wins := 0
	for w := range won {
		if w {
			wins++
		}
	}
	if wins != 1 {
		t.Errorf("%d starts of one id succeeded, want 1", wins)
	}
	if !r.has("s") || r.size() != 3 {
		t.Errorf("has(s) %v, size %d; want true, 3", r.has("s"), r.size())
	}
	for _, id := range []string{"s", "other0", "other1"} {
		wg.Go(func() { r.done(id) })
	}
	wg.Wait()
	if r.has("s") || r.size() != 0 {
		t.Errorf("after done: has(s) %v, size %d; want false, 0", r.has("s"), r.size())
	}
	if !r.start("s") {
		t.Error("a done id does not start again")
	}
}

// TestRunCountConcurrent counts runs started and ended from many
// goroutines at once, while others read the count.
func TestRunCountConcurrent(t *testing.T) {
	var r runCount
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		id := "s" + strconv.Itoa(i%3)
		wg.Go(func() { r.start(id) })
		wg.Go(func() { r.has(id); r.total() })
	}
	wg.Wait()
	if got := r.total(); got != n {
		t.Errorf("total %d after %d starts", got, n)
	}
	for i := range n - 1 {
		wg.Go(func() { r.done("s" + strconv.Itoa(i%3)) })
	}
	wg.Wait()
	if r.total() != 1 || !r.has("s"+strconv.Itoa((n-1)%3)) {
		t.Errorf("total %d, has the last run %v; want 1, true", r.total(), r.has("s"+strconv.Itoa((n-1)%3)))
	}
	r.done("s" + strconv.Itoa((n-1)%3))
	r.done("s0") // an end with no run left counts nothing
	if r.total() != 0 || r.has("s0") {
		t.Errorf("total %d, has(s0) %v; want 0, false", r.total(), r.has("s0"))
	}
	r.start("s0")
	if !r.has("s0") || r.total() != 1 {
		t.Errorf("a start after an unmatched done: has %v, total %d; want true, 1", r.has("s0"), r.total())
	}
}

// TestRunningCompactionsCounts adds the actions and the automatic
// compactions running on every session; the gateway's are not counted.
func TestRunningCompactionsCounts(t *testing.T) {
	s := NewSessions(SessionsConfig{})
	s.actions.start("a")
	s.actions.start("a")
	s.auto.start("b")
	s.gateway.start("c")
	if got := s.RunningCompactions(); got != 3 {
		t.Errorf("RunningCompactions %d, want 3", got)
	}
	if !s.Running("a") || !s.Running("b") || !s.Running("c") || s.Running("d") {
		t.Error("running does not follow the runs")
	}
}
