package storeutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"kompact"
	"kompact/sessionjson"
)

// PreviewRestore says what restoring revision rev would do now
// (RestoreEffectOf), in one read: it reads the ids and body ids of
// the session's live messages and of the revision's list, and compares
// bodies only for an id both hold under two body ids (bodies never
// change, so one body id is one JSON form).
func (c *Core) PreviewRestore(ctx context.Context, id string, rev int64) (*kompact.RestorePreview, error) {
	var out *kompact.RestorePreview
	err := c.db.Read(ctx, "preview restore", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		info, then, thenBodies, err := c.revisionRefs(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		now, err := tx.ReadRefs(ctx, id, row.FirstPos, row.FirstPos+row.N)
		if err != nil {
			return err
		}
		nowIDs, thenIDs := make([]string, len(now)), make([]string, len(then))
		for i := range now {
			nowIDs[i] = now[i].ID
		}
		for i := range then {
			thenIDs[i] = then[i].ID
		}
		var cmpErr error
		eff := RestoreEffectOf(nowIDs, thenIDs, func(i, j int) bool {
			if now[i].BodyID == thenBodies[j] {
				return true
			}
			same, err := c.sameBodies(ctx, tx, now[i].BodyID, thenBodies[j])
			cmpErr = errors.Join(cmpErr, err)
			return same
		})
		out = &kompact.RestorePreview{Effect: eff, Revision: *info, Version: row.Version}
		return cmpErr
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sameBodies reports whether two stored bodies are one message's JSON
// form: equal bytes, or (a body stored by an older kompact) equal once
// decoded and encoded again.
func (c *Core) sameBodies(ctx context.Context, tx Tx, a, b int64) (bool, error) {
	var bodies [2][]byte
	err := tx.EachBodyOf(ctx, []int64{a, b}, func(i int, body []byte) error {
		bodies[i] = bytes.Clone(body)
		return nil
	})
	if err != nil || bytes.Equal(bodies[0], bodies[1]) {
		return err == nil, err
	}
	var forms [2][]byte
	for i, body := range bodies {
		m, err := sessionjson.DecodeStoredMessage(body, 0)
		if err != nil {
			return false, Corrupt(c.name, fmt.Sprintf("the stored body %d", []int64{a, b}[i]), err)
		}
		forms[i] = m.AppendJSON(nil)
	}
	return bytes.Equal(forms[0], forms[1]), nil
}
