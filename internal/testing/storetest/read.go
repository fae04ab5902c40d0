package storetest

import (
	"context"
	"encoding/json"

	"kompact"
)

// This file holds the reads and writes tests make through the port in one
// call, where the port itself has only the streaming or the general form.

// Revision reads revision rev of session id with its messages (Revision.Before), through
// StreamRevision: the port keeps no call that holds a revision in memory, since the API
// streams it.
func Revision(ctx context.Context, st kompact.RevisionStore, id string, rev int64) (*kompact.Revision, error) {
	out := &kompact.Revision{}
	err := st.StreamRevision(ctx, id, rev, func(info *kompact.RevisionInfo) error {
		out.RevisionInfo = *info
		out.Before = make([]kompact.Message, 0, info.Messages)
		return nil
	}, func(raw []byte) error {
		var m kompact.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return kompact.Errorf(kompact.EInternal, "a stored message of revision %d of session %q does not decode: %v", rev, id, err)
		}
		out.Before = append(out.Before, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Model is the settings change (kompact.SessionSettings) that sets the session's
// compaction model to model ("" clears it).
func Model(model string) kompact.SessionSettings {
	return kompact.SessionSettings{CompactionModel: &model}
}

// Title is the settings change that renames the session ("" gives it its default title).
func Title(title string) kompact.SessionSettings {
	return kompact.SessionSettings{Title: &title}
}
