package kompact_test

import (
	"errors"
	"testing"

	"kompact"
)

func TestErrorOutcome(t *testing.T) {
	e := kompact.Errorf(kompact.ENotFound, "no such message")
	if out := kompact.ErrorOutcome(e); out.Status != kompact.OutcomeError || out.Err != e {
		t.Errorf("outcome %+v", out)
	}
	foreign := errors.New("disk on fire")
	out := kompact.ErrorOutcome(foreign)
	if out.Err.Code != kompact.EInternal || out.Err.Message != "disk on fire" || !errors.Is(out.Err, foreign) {
		t.Errorf("foreign error as %+v", out.Err)
	}
}
