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
	restored, anchor, after, pinned, ok := SplitCompaction(removed, added)
	if !ok || anchor != (Ref{"sum", 9}) || !reflect.DeepEqual(restored, []Ref{{"u1", 2}, {"a1", 3}}) || after != nil || pinned != 0 {
		t.Fatalf("SplitCompaction = %v, %v, %v, %v, %v; want u1, a1 restored and the summary sum", restored, anchor, after, pinned, ok)
	}
	// The same with a1 pinned: kept, written again, after the summary.
	restored, anchor, after, pinned, ok = SplitCompaction(removed, append(added, pr("a1", 3, 3)))
	if !ok || anchor != (Ref{"sum", 9}) || !reflect.DeepEqual(restored, []Ref{{"u1", 2}, {"a1", 3}}) || !reflect.DeepEqual(after, []Ref{{"a1", 3}}) || pinned != 1 {
		t.Fatalf("SplitCompaction with a pin = %v, %v, %v, %v, %v", restored, anchor, after, pinned, ok)
	}
	// A kimi-code compaction: after the system message, its own messages (the kept user
	// message), the summary, a pin and the continuation note. The first new one is the
	// anchor; the undo replaces it and every row after it.
	kc := []PosRef{pr("sys", 1, -1), pr("k", 7, 0), pr("sum", 9, 1), pr("a1", 3, 2), pr("cont", 10, 3)}
	restored, anchor, after, pinned, ok = SplitCompaction(removed, kc)
	if !ok || anchor != (Ref{"k", 7}) || !reflect.DeepEqual(restored, []Ref{{"u1", 2}, {"a1", 3}}) ||
		!reflect.DeepEqual(after, []Ref{{"sum", 9}, {"a1", 3}, {"cont", 10}}) || pinned != 1 {
		t.Fatalf("SplitCompaction of a kimi-code compaction = %v, %v, %v, %v, %v", restored, anchor, after, pinned, ok)
	}
	for name, c := range map[string][2][]PosRef{
		"nothing removed": {nil, added},
		"nothing added":   {removed, nil},
		"nothing new":     {removed, added[:1]},
		"nothing back":    {removed[:1], added},
	} {
		if _, _, _, _, ok := SplitCompaction(c[0], c[1]); ok {
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
