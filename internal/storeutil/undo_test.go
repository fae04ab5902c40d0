package storeutil

import (
	"reflect"
	"testing"
)

func TestSplitCompaction(t *testing.T) {
	pr := func(id string, body, pos int64) PosRef { return PosRef{Ref{id, body}, pos} }
	// The compaction replaced sys, u1, a1 with sys (kept, written again)
	// and the summary.
	removed := []PosRef{pr("sys", 1, 0), pr("u1", 2, 1), pr("a1", 3, 2)}
	added := []PosRef{pr("sys", 1, 1), pr("sum", 9, 2)}
	restored, summary, pinned, ok := SplitCompaction(removed, added)
	if !ok || summary != (Ref{"sum", 9}) || !reflect.DeepEqual(restored, []Ref{{"u1", 2}, {"a1", 3}}) || pinned != nil {
		t.Fatalf("SplitCompaction = %v, %v, %v, %v; want u1, a1 restored and the summary sum", restored, summary, pinned, ok)
	}
	// The same with a1 pinned: kept, written again, after the summary.
	restored, summary, pinned, ok = SplitCompaction(removed, append(added, pr("a1", 3, 3)))
	if !ok || summary != (Ref{"sum", 9}) || !reflect.DeepEqual(restored, []Ref{{"u1", 2}, {"a1", 3}}) || !reflect.DeepEqual(pinned, []Ref{{"a1", 3}}) {
		t.Fatalf("SplitCompaction with a pin = %v, %v, %v, %v", restored, summary, pinned, ok)
	}
	for name, c := range map[string][2][]PosRef{
		"nothing removed": {nil, added},
		"nothing added":   {removed, nil},
		"more added":      {removed[:1], added},
		// A kimi-code compaction: the kept user message, the summary, the
		// continuation note, all new.
		"several new": {removed, []PosRef{pr("sys", 1, 1), pr("k", 7, 2), pr("sum", 9, 3), pr("cont", 10, 4)}},
	} {
		if _, _, _, ok := SplitCompaction(c[0], c[1]); ok {
			t.Errorf("%s: ok, want not a compaction", name)
		}
	}
	if _, _, err := RestoredRows([]Ref{{"a", 1}, {"a", 2}}); err == nil {
		t.Fatal("RestoredRows accepted an id twice")
	}
}

func TestUndoNote(t *testing.T) {
	for restored, want := range map[int]string{1: "undid the compaction of revision 3 (1 message back)", 4: "undid the compaction of revision 3 (4 messages back)"} {
		if got := UndoNote(3, restored); got != want {
			t.Errorf("UndoNote(3, %d) = %q, want %q", restored, got, want)
		}
	}
}
