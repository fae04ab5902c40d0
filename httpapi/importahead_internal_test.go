package httpapi

import (
	"errors"
	"testing"
	"time"

	"kompact"
)

// batches returns a next function that hands out n batches of one message
// (its text the batch's number), then end: none, or the error when it is
// not nil. calls counts the calls.
func batches(n int, end error, calls *int) func() ([]kompact.Message, error) {
	return func() ([]kompact.Message, error) {
		*calls++
		if *calls > n {
			return nil, end
		}
		return []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(string(rune('a' + *calls - 1)))}}}, nil
	}
}

// TestReadAheadKeepsOrder: the batches come out in order, then the end or
// the error that ended them; next is not called past it.
func TestReadAheadKeepsOrder(t *testing.T) {
	for _, end := range []error{nil, errors.New("cut")} {
		calls := 0
		a := readAhead(batches(5, end, &calls))
		got := ""
		for {
			msgs, err := a.next()
			if err != nil || len(msgs) == 0 {
				if err != end {
					t.Fatalf("ended with %v, want %v", err, end)
				}
				break
			}
			got += msgs[0].Content[0].Text
		}
		a.stop()
		if got != "abcde" || calls != 6 {
			t.Fatalf("got %q in %d calls, want abcde in 6", got, calls)
		}
		if _, err := a.next(); err == nil {
			t.Fatal("a batch past the end")
		}
	}
}

// TestReadAheadStopsEarly: a store that stops taking batches (it failed)
// ends the read-ahead, which reads at most a batch more than was taken.
func TestReadAheadStopsEarly(t *testing.T) {
	calls := 0
	a := readAhead(batches(1000, nil, &calls))
	if _, err := a.next(); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	go func() { a.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not return")
	}
	if calls > 2 {
		t.Fatalf("next called %d times for one batch taken", calls)
	}
}

// TestReadAheadPanics: a panic of the decoder is raised where the batch is
// taken, in the handler, as if it had been decoded there.
func TestReadAheadPanics(t *testing.T) {
	a := readAhead(func() ([]kompact.Message, error) { panic("decoder bug") })
	defer a.stop()
	defer func() {
		if p := recover(); p != "decoder bug" {
			t.Fatalf("recovered %v", p)
		}
	}()
	_, _ = a.next()
	t.Fatal("no panic")
}
