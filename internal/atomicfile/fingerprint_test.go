package atomicfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"kompact"
)

// later makes ReadFile read as if a minute had passed since the test wrote
// its files, so that they are not racy, and counts the content
// comparisons Check makes.
func later(t *testing.T) *int {
	t.Helper()
	if !idOf(statOf(t, t.TempDir())).known {
		t.Skip("this system has no inodes and change times: every file is racy")
	}
	compared := 0
	now = func() time.Time { return time.Now().Add(time.Minute) }
	crashHook = func(step string) {
		if step == "content-compared" {
			compared++
		}
	}
	t.Cleanup(func() { now, crashHook = time.Now, func(string) {} })
	return &compared
}

func statOf(t *testing.T, path string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantConflict(t *testing.T, what string, err error) {
	t.Helper()
	if kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Fatalf("%s: got %v, want a conflict", what, err)
	}
}

// TestFingerprintOldFileNeverReread: a file modified long enough before it
// was read is checked by stat alone: Check never reads it again, and the
// fingerprint keeps no copy of it.
func TestFingerprintOldFileNeverReread(t *testing.T) {
	compared := later(t)
	p := filepath.Join(t.TempDir(), "context.jsonl")
	writeFile(t, p, "line 1\n")
	data, fp, err := ReadFile(p)
	if err != nil || string(data) != "line 1\n" {
		t.Fatalf("%q %v", data, err)
	}
	if fp.racy || fp.content != nil {
		t.Fatalf("a file written a minute before it was read is racy: %+v", fp)
	}
	for range 3 {
		if err := Check(p, fp); err != nil {
			t.Fatal(err)
		}
	}
	if *compared != 0 {
		t.Fatalf("Check read the file %d times", *compared)
	}
}

// TestFingerprintSeesRewriteKeepingTimes: a same-size rewrite is a
// conflict even when the writer sets the modification time back (the
// change time moved), and an append is one by its size.
func TestFingerprintSeesRewriteKeepingTimes(t *testing.T) {
	compared := later(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "context.jsonl")
	writeFile(t, p, "line 1\n")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	_, fp, err := ReadFile(p)
	if err != nil || fp.racy {
		t.Fatalf("%+v %v", fp, err)
	}
	// The change time has a clock tick's resolution: let one pass.
	time.Sleep(20 * time.Millisecond)
	writeFile(t, p, "line X\n")
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if st := statOf(t, p); st.Size() != fp.Size || !st.ModTime().Equal(fp.ModTime) {
		t.Fatalf("the rewrite did not keep size and time: %v %v", st.Size(), st.ModTime())
	}
	err = Check(p, fp)
	wantConflict(t, "same size, time set back", err)
	if want := fmt.Sprintf("%s changed while it was being compacted (written again or replaced, with the same size and modification time); nothing was written", p); err.Error() != want {
		t.Errorf("the error does not say what changed:\n%v\nwant\n%s", err, want)
	}
	wantConflict(t, "same size, time set back (stat only)", CheckStat(p, fp))

	writeFile(t, p, "line 1\n")
	_, fp, _ = ReadFile(p)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("line 2\n")
	f.Close()
	wantConflict(t, "append", Check(p, fp))
	// Replaced by another file (kimi-cli's own rotation): another inode.
	writeFile(t, p+".new", "line 1\n")
	_, fp, _ = ReadFile(p + ".new")
	os.Rename(p, p+".new")
	wantConflict(t, "replaced", Check(p+".new", fp))
	if *compared != 0 {
		t.Fatalf("Check read the file %d times", *compared)
	}
}

// TestFingerprintRacyFileComparedByContent: a file modified just before it
// was read is racy: Check compares its content, and sees a change that
// left every time and the size as they were (a write within the same
// tick).
func TestFingerprintRacyFileComparedByContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "context.jsonl")
	writeFile(t, p, "line 1\n")
	data, fp, err := ReadFile(p)
	if err != nil || !fp.racy || string(fp.content) != "line 1\n" || string(data) != "line 1\n" {
		t.Fatalf("a file written just before it was read is not racy: %+v %v", fp, err)
	}
	if err := Check(p, fp); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, "line X\n")
	// As if the write had kept every time: the fingerprint says what stat
	// says now.
	same := fingerprintOf(statOf(t, p))
	fp.ModTime, fp.id = same.ModTime, same.id
	if err := CheckStat(p, fp); err != nil {
		t.Fatalf("stat alone cannot tell: %v", err)
	}
	wantConflict(t, "same stat, other content", Check(p, fp))
	writeFile(t, p, "line 1\n")
	same = fingerprintOf(statOf(t, p))
	fp.ModTime, fp.id = same.ModTime, same.id
	if err := Check(p, fp); err != nil {
		t.Fatalf("same content: %v", err)
	}
	// Longer or shorter with the same stat size cannot happen, but the
	// comparison does not rely on it.
	for _, content := range []string{"line 1\nmore\n", "line"} {
		writeFile(t, p, content)
		if same, err := sameContent(openFile(t, p), fp.content); same || err != nil {
			t.Errorf("%q compared equal to %q (%v)", content, fp.content, err)
		}
	}
}

func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFingerprintRelinked: a hard link moves the file's change time, so
// the fingerprint is taken anew after the rotation's link; any other
// change is still a conflict.
func TestFingerprintRelinked(t *testing.T) {
	later(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "context.jsonl")
	writeFile(t, p, "line 1\n")
	_, fp, _ := ReadFile(p)
	time.Sleep(20 * time.Millisecond)
	if err := os.Link(p, filepath.Join(dir, "context_1.jsonl")); err != nil {
		t.Skip("no hard links here:", err)
	}
	wantConflict(t, "stale change time", Check(p, fp))
	fp2, err := fp.Relinked(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(p, fp2); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("line 2\n")
	f.Close()
	_, err = fp.Relinked(p)
	wantConflict(t, "relinked after an append", err)
}

// TestReplaceWithBackupOldFile: the in-place write of a file that is not
// racy reads it only to copy it to its backup.
func TestReplaceWithBackupOldFile(t *testing.T) {
	compared := later(t)
	p := filepath.Join(t.TempDir(), "s.json")
	writeFile(t, p, "old\n")
	_, fp, _ := ReadFile(p)
	backup, err := ReplaceWithBackup(p, []byte("new\n"), fp)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new\n" {
		t.Fatalf("file %q", got)
	}
	if got, _ := os.ReadFile(backup); string(got) != "old\n" {
		t.Fatalf("backup %q", got)
	}
	if *compared != 0 {
		t.Fatalf("compared the content %d times", *compared)
	}
}

// TestReadFileLargeInHalves: a file large enough to be read in two halves
// at once comes back whole and in order, on two cores and on one, with
// its fingerprint; a later append is seen by Check.
func TestReadFileLargeInHalves(t *testing.T) {
	want := make([]byte, halvesMin+12345)
	for i := range want {
		want[i] = byte(i*7 + i/4096)
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{2, 1} {
		prev := runtime.GOMAXPROCS(procs)
		got, fp, err := ReadFile(path)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || fp.Size != int64(len(want)) {
			t.Fatalf("%d cores: read %d bytes (equal: %v), fingerprint size %d", procs, len(got), bytes.Equal(got, want), fp.Size)
		}
	}
	_, fp, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("more\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := Check(path, fp); kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Errorf("Check after an append: %v, want a conflict", err)
	}
}
