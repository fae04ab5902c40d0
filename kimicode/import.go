package kimicode

import (
	"bytes"
	"context"

	"kompact"
)

// ImportWire reads data, a Kimi Code session's agents/main/wire.jsonl, as a kompact session
// with no id: the session's system prompt (the last profile.bind's) as a leading system
// message, then its context folded as Kimi Code folds it (compactions rebuilt with texts).
// The Wire it read is returned too. kompact sessions import --kimi-code and the server's
// import with format=kimi-code both make their session here.
func ImportWire(data []byte, texts *Texts) (*kompact.Session, *Wire, error) {
	return ImportWireContext(context.Background(), data, texts, Limits{})
}

// ImportWireContext is ImportWire within lim, until ctx is done (ReadWireContext).
func ImportWireContext(ctx context.Context, data []byte, texts *Texts, lim Limits) (*kompact.Session, *Wire, error) {
	w, err := ReadWireContext(ctx, bytes.NewReader(data), texts, lim)
	if err != nil {
		return nil, nil, err
	}
	doc := &kompact.Session{}
	if w.SystemPrompt != "" {
		doc.Messages = append(doc.Messages, kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(w.SystemPrompt)}})
	}
	doc.Messages = append(doc.Messages, ToKompact(w.Context)...)
	return doc, w, nil
}

// ReadSession is ImportWireContext with the type's texts (CurrentTexts), at most
// maxMessages context messages (0: no limit): the server's import of a wire.jsonl
// (format=kimi-code) rebuilds compactions with the texts its compactions use, and stops
// when its request is done.
func ReadSession(ctx context.Context, data []byte, maxMessages int) (*kompact.Session, error) {
	texts, _ := CurrentTexts()
	s, _, err := ImportWireContext(ctx, data, texts, Limits{MaxMessages: maxMessages})
	return s, err
}
