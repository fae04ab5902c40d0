package kimicode_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/title"
	"kompact/kimicode"
)

// TestKimiCodeSummaryForm (issue 39 §4): the summary form belongs to the type. A
// kimi-code summary (the prefix of the type's texts) is a summary for kompact.IsSummary,
// so the title skips it; the type's form is its prefix with no XML sections; a kimi
// summary is not the type's own.
func TestKimiCodeSummaryForm(t *testing.T) {
	texts := kimicode.Builtin()
	kimicode.UseTexts(texts)
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(texts.Prefix() + "\nRead a.txt: it says hello.")}}
	if !kompact.IsSummary(summary) || !(kimicode.Type{}).IsSummary(summary) {
		t.Errorf("a kimi-code summary is not a summary")
	}
	kimi := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix + "\nx")}}
	if (kimicode.Type{}).IsSummary(kimi) || !kompact.IsSummary(kimi) {
		t.Errorf("a kimi summary: kimi-code's %v, kompact's %v", (kimicode.Type{}).IsSummary(kimi), kompact.IsSummary(kimi))
	}
	if plain := (kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Read a.txt.")}}); kompact.IsSummary(plain) {
		t.Errorf("a user message is a summary")
	}
	f := (kimicode.Type{}).SummaryForm()
	if f.Type != "kimi-code" || f.Prefix != texts.Prefix() || len(f.Sections) != 0 || f.Appendix != "" {
		t.Errorf("form %+v", f)
	}
	msgs := []kompact.Message{summary, {Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("Fix the build.")}}}
	if got := title.DefaultTitle(msgs); !strings.HasPrefix(got, "Fix the build") {
		t.Errorf("title %q: want the user's words, not the summary", got)
	}
}

// TestKimiCodeOffers (issue 39 §4): clients offer a kimi-code agent only what its type
// does: compact_conversation without start and end, the prune, and no compact_up_to_here.
func TestKimiCodeOffers(t *testing.T) {
	a := &kompact.Agent{Name: "kc", Compaction: kompact.CompactionConfig{Enabled: true, Type: kimicode.Name}}
	var ids, params []string
	for _, el := range kompact.UIElements(a) {
		ids = append(ids, el.ID)
		if el.ID == kompact.ActionCompactConversation {
			for _, p := range el.Params {
				params = append(params, p.Name)
			}
		}
	}
	if got := strings.Join(ids, ","); got != "compact_conversation,prune_tool_results" {
		t.Errorf("ui elements %s", got)
	}
	if got := strings.Join(params, ","); got != "instructions" {
		t.Errorf("compact_conversation takes %s", got)
	}
	if o := kompact.OffersOf(a); o.Range || o.UpToHere {
		t.Errorf("offers %+v", o)
	}
	a.Compaction.Type = "kimi"
	if n := len(kompact.UIElements(a)); n != 3 || len(kompact.UIElements(a)[0].Params) != 3 {
		t.Errorf("a kimi agent: %d elements", n)
	}
}
