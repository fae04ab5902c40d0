package kimicli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/atomicfile"
	"kompact/kimicli"
)

// TestRotatedNameHighestPlusOne: the rotated name is the one kimi-cli's
// next_available_rotation picks: one more than the highest N of the
// folder's STEM_N.SUFFIX names, not the first free N. N is read as
// Python's \d+ and int() read it.
func TestRotatedNameHighestPlusOne(t *testing.T) {
	for _, tc := range []struct {
		name     string
		existing []string
		want     string
	}{
		{"context.jsonl", nil, "context_1.jsonl"},
		{"context.jsonl", []string{"context_1.jsonl", "context_5.jsonl"}, "context_6.jsonl"},
		{"context.jsonl", []string{"context_2.jsonl"}, "context_3.jsonl"},
		{"context.jsonl", []string{"context_0007.jsonl", "context_3.jsonl"}, "context_8.jsonl"},
		{"context.jsonl", []string{"context_9.jsonl.bak", "context_x.jsonl", "context_.jsonl", "context_-4.jsonl", "other_12.jsonl", "context_12.json"}, "context_1.jsonl"},
		{"context.jsonl", []string{"context_\u0669\u0669.jsonl"}, "context_100.jsonl"}, // Arabic-Indic 99
		{"context.jsonl", []string{"context_99999999999999999999.jsonl"}, "context_100000000000000000000.jsonl"},
		{"context.jsonl", []string{"context_4.jsonl\n"}, "context_5.jsonl"}, // Python's $ matches before a final line feed
		{".jsonl", []string{".jsonl_2"}, ".jsonl_3"},                        // pathlib: no suffix for a leading dot
		{"ctx.v2.jsonl", []string{"ctx.v2_1.jsonl"}, "ctx.v2_2.jsonl"},
	} {
		dir := t.TempDir()
		for _, e := range tc.existing {
			if err := os.WriteFile(filepath.Join(dir, e), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := kimicli.RotatedName(filepath.Join(dir, tc.name))
		if err != nil || got != filepath.Join(dir, tc.want) {
			t.Errorf("%s with %q: %q, %v; want %s", tc.name, tc.existing, filepath.Base(got), err, tc.want)
		}
	}
}

// TestRewriteContextRotatesAfterTheHighest: with context_1 and context_3
// present, the old file becomes context_4, as kimi-cli rotates.
func TestRewriteContextRotatesAfterTheHighest(t *testing.T) {
	dir, p := contextFile(t, "old\n", 0o644)
	os.WriteFile(filepath.Join(dir, "context_1.jsonl"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "context_3.jsonl"), []byte("three\n"), 0o644)
	rotated, err := rewrite(t, p, []byte("new\n"))
	if err != nil || rotated != filepath.Join(dir, "context_4.jsonl") {
		t.Fatalf("rotated to %s, %v; want context_4.jsonl", rotated, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "context_2.jsonl")); err == nil {
		t.Error("context_2.jsonl was created")
	}
}

// TestRewriteContextConflict: a file that changed since it was read is
// neither rewritten nor rotated; the error is a conflict.
func TestRewriteContextConflict(t *testing.T) {
	dir, p := contextFile(t, "old\n", 0o644)
	_, fp, err := atomicfile.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("old\nappended by kimi-cli\n"), 0o644)
	_, err = kimicli.RewriteContext(p, []byte("new\n"), fp)
	if kompact.ErrorCodeOf(err) != kompact.EConflict || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("error %v, want a conflict", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "old\nappended by kimi-cli\n" {
		t.Errorf("context.jsonl = %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}

// TestRewriteContextThroughSymlink: a symbolic link to the context file
// stays a link; its target gets the new content, and the old content is
// kept as the rotated file beside the link.
func TestRewriteContextThroughSymlink(t *testing.T) {
	real := filepath.Join(t.TempDir(), "real.jsonl")
	os.WriteFile(real, []byte("old\n"), 0o600)
	dir := t.TempDir()
	link := filepath.Join(dir, "context.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	rotated, err := rewrite(t, link, []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("context.jsonl is no longer a symbolic link (%v)", err)
	}
	if got, _ := os.ReadFile(real); string(got) != "new\n" {
		t.Errorf("target = %q", got)
	}
	if rotated != filepath.Join(dir, "context_1.jsonl") {
		t.Errorf("rotated to %s", rotated)
	}
	if got, _ := os.ReadFile(rotated); string(got) != "old\n" {
		t.Errorf("rotated = %q", got)
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v", st.Mode().Perm())
	}
}
