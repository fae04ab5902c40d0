package service_test

import (
	"context"
	"strings"
	"testing"

	"kompact"
	"kompact/service"
)

// partialSummary has four of kimi's six sections: code_state and
// important_context are missing.
const partialSummary = "<current_focus>the test</current_focus>\n<environment>go</environment>\n" +
	"<completed_tasks>- none</completed_tasks>\n<active_issues>- none</active_issues>\n"

// TestAutoCompactionRefusesMissingSections (issue 39 §5; no KCP id covers the gate): an
// automatic compaction whose summary lacks sections kimi's prompt requires
// is tried once more, then not committed: the turn goes out on the session
// as it was, and the report names the sections.
func TestAutoCompactionRefusesMissingSections(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "auto")
	e.llm.summary = partialSummary
	rep, err := e.s.Continue(context.Background(), "s", strings.Repeat("x", 1000))
	if err != nil {
		t.Fatal(err)
	}
	auto := rep.AutoCompaction
	if auto == nil || auto.Status != service.AutoRejected || auto.Error == nil ||
		!strings.Contains(auto.Error.Message, "lacks 2 of the 6 required sections (code_state, important_context)") {
		t.Fatalf("auto compaction %+v", auto)
	}
	if e.llm.compactions != 2 {
		t.Errorf("%d compaction calls, want the first and one retry", e.llm.compactions)
	}
	if kinds := e.revisions("s"); len(kinds) != 0 {
		t.Errorf("revisions %v, want none", kinds)
	}
	if rep.Context == nil || rep.Context.AutoFailures != 1 {
		t.Errorf("context %+v, want one failure counted", rep.Context)
	}
	e.warnMu.Lock()
	w := strings.Join(e.warned, "\n")
	e.warnMu.Unlock()
	if !strings.Contains(w, "compaction failed trigger auto session s status rejected") ||
		!strings.Contains(w, "reason missing_sections missing_sections code_state,important_context") {
		t.Errorf("the log says %q, want the refusal with its reason and sections", w)
	}
	log, err := e.s.AutoFailures(context.Background(), "s")
	if err != nil || len(log) != 1 || log[0].Status != "rejected" || log[0].Reason != kompact.RefusedMissingSections || log[0].Trigger != "auto" ||
		strings.Join(log[0].MissingSections, ",") != "code_state,important_context" || log[0].Code != kompact.ELLM || log[0].At.IsZero() {
		t.Errorf("failure log %+v (%v)", log, err)
	}
}

// TestPreviewShowsARefusedSummary (issue 39 §5): a person's preview of the
// summaries the gate refuses still shows them, with what they lack and
// their warnings; nothing is committed.
func TestPreviewShowsARefusedSummary(t *testing.T) {
	for _, c := range []struct {
		summary string
		missing int
		warning kompact.WarningCode
	}{
		{partialSummary, 2, ""},
		{"ACK_21", 6, kompact.WarnAllSectionsMissing},
	} {
		e := newSessionsEnv(t, kompact.PreviewLimits{})
		e.create("s", "auto")
		e.llm.summary = c.summary
		out := e.run("s", service.ActionOptions{Preview: true})
		if out.Status != kompact.OutcomePreview || out.Result == nil || out.Result.Summary != c.summary || len(out.Result.MissingSections) != c.missing {
			t.Fatalf("%q: preview %s %+v", c.summary, out.Status, out.Err)
		}
		var codes []string
		for _, w := range out.Warnings() {
			codes = append(codes, string(w.Code))
		}
		if c.warning != "" && !strings.Contains(strings.Join(codes, ","), string(c.warning)) {
			t.Errorf("%q: warnings %v, want %s", c.summary, codes, c.warning)
		}
		if e.llm.compactions != 1 {
			t.Errorf("%q: %d compaction calls, want one (no gate, no retry)", c.summary, e.llm.compactions)
		}
		if kinds := e.revisions("s"); len(kinds) != 0 {
			t.Errorf("%q: revisions %v", c.summary, kinds)
		}
	}
}
