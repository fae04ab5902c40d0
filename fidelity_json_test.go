package kompact_test

import (
	"encoding/json"
	"testing"

	"kompact"
)

// TestFidelityDecodesOldReports: a report stored before sent_kept and
// sent_recall existed gets them from its counts and lost list (exact when
// the list is whole; else each unlisted lost artifact counts as sent), and
// an old appendix the lowest model figures its counts allow.
func TestFidelityDecodesOldReports(t *testing.T) {
	for _, c := range []struct {
		stored          string
		sentKept        int
		sentRecall      float64
		modelSent       int
		modelSentRecall float64
	}{
		{`{"artifacts":9,"kept":5,"not_sent":4,"recall":0.55,"lost":[{"class":"path","text":"a/b.go","sent":false},` +
			`{"class":"path","text":"c/d.go","sent":false},{"class":"path","text":"e/f.go","sent":false},{"class":"path","text":"g/h.go","sent":true}]}`, 4, 0.8, -1, 0},
		// 3 lost, 1 listed (not sent): the 2 unlisted count as sent.
		{`{"artifacts":10,"kept":7,"not_sent":2,"recall":0.7,"lost":[{"class":"url","text":"https://x","sent":false}]}`, 6, 0.75, -1, 0},
		{`{"artifacts":0,"kept":0,"not_sent":0,"recall":1,"lost":[]}`, 0, 1, -1, 0},
		{`{"artifacts":4,"kept":4,"not_sent":1,"recall":1,"lost":[],"appendix":{"lines":3,"model_kept":2,"model_recall":0.5}}`, 3, 1, 1, 1.0 / 3},
		// New reports decode as they are.
		{`{"artifacts":4,"kept":4,"not_sent":1,"recall":1,"sent_kept":3,"sent_recall":1,"lost":[],` +
			`"appendix":{"lines":3,"model_kept":2,"model_recall":0.5,"model_sent_kept":2,"model_sent_recall":0.6667}}`, 3, 1, 2, 0.6667},
	} {
		var f kompact.Fidelity
		if err := json.Unmarshal([]byte(c.stored), &f); err != nil {
			t.Fatal(err)
		}
		if f.SentKept != c.sentKept || f.SentRecall != c.sentRecall || f.Artifacts == 0 && f.Recall != 1 {
			t.Errorf("%s: sent_kept %d, sent_recall %v; want %d, %v", c.stored, f.SentKept, f.SentRecall, c.sentKept, c.sentRecall)
		}
		if c.modelSent >= 0 && (f.Appendix == nil || f.Appendix.ModelSentKept != c.modelSent || f.Appendix.ModelSentRecall != c.modelSentRecall) {
			t.Errorf("%s: appendix %+v", c.stored, f.Appendix)
		}
	}
}
