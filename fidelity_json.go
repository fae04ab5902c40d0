package kompact

import "encoding/json"

// UnmarshalJSON decodes a fidelity report. A report stored before sent_kept and sent_recall
// existed (issue 28) gets them from its counts and its lost list: exactly when the list names
// every lost artifact (at most MaxLost were lost), else counting each lost artifact it leaves
// out as sent, the lowest figure the report allows. An appendix without the model's sent
// figures gets the lowest its counts allow too: the model's summary kept at most the final
// one's kept artifacts that were not sent.
func (f *Fidelity) UnmarshalJSON(data []byte) error {
	type plain Fidelity
	var v struct {
		*plain
		SentKept *int `json:"sent_kept"`
	}
	v.plain = (*plain)(f)
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.SentKept != nil {
		f.SentKept = *v.SentKept
		return f.appendixFigures(data)
	}
	sent := f.Artifacts - f.NotSent
	lostSent := 0
	for _, a := range f.Lost {
		if a.Sent {
			lostSent++
		}
	}
	lostSent += max(f.Artifacts-f.Kept-len(f.Lost), 0) // not listed
	f.SentKept = max(sent-min(lostSent, sent), 0)
	f.SentRecall = Recall(f.SentKept, sent)
	return f.appendixFigures(data)
}

// appendixFigures gives an old report's appendix its model_sent_kept and model_sent_recall when
// data, the report, lacks them.
func (f *Fidelity) appendixFigures(data []byte) error {
	if f.Appendix == nil {
		return nil
	}
	var v struct {
		Appendix struct {
			ModelSentKept *int `json:"model_sent_kept"`
		} `json:"appendix"`
	}
	if err := json.Unmarshal(data, &v); err != nil || v.Appendix.ModelSentKept != nil {
		return err
	}
	a := f.Appendix
	a.ModelSentKept = max(a.ModelKept-(f.Kept-f.SentKept), 0)
	a.ModelSentRecall = Recall(a.ModelSentKept, f.Artifacts-f.NotSent)
	return nil
}
