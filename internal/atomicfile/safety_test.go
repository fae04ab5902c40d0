package atomicfile_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/atomicfile"
)

// TestBackupCrashLeavesNoPartialBackup kills a child process at each step
// of a backup: no .bak ever holds anything but the whole original, and
// the next run removes the temporary file the dead one left (issue 9,
// item 3).
func TestBackupCrashLeavesNoPartialBackup(t *testing.T) {
	if os.Getenv("KOMPACT_BACKUP_CRASH") != "" {
		return
	}
	original := strings.Repeat(`{"role":"user","content":"old"}`+"\n", 2000)
	for _, step := range []string{"temp-created", "temp-half-written", "temp-written", "backup-published"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "s.json")
			if err := os.WriteFile(p, []byte(original), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestBackupCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "KOMPACT_BACKUP_CRASH="+step, "KOMPACT_BACKUP_PATH="+p)
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 42 {
				t.Fatalf("child did not die at %s: %v\n%s", step, err, out)
			}
			if b, err := os.ReadFile(p + ".bak"); err == nil && string(b) != original {
				t.Fatalf("a crash at %s left a partial backup (%d of %d bytes)", step, len(b), len(original))
			}
			// The next run: a whole backup, and no temporary file left.
			name, err := atomicfile.Backup(p)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(name); string(b) != original {
				t.Fatalf("backup %s after the crash holds %d bytes", name, len(b))
			}
			if err := atomicfile.Write(p, []byte("new"), 0o600); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary file left after a crash at %s and a rerun: %s", step, e.Name())
				}
			}
		})
	}
}

// TestBackupCrashChild is the child of TestBackupCrashLeavesNoPartialBackup.
func TestBackupCrashChild(t *testing.T) {
	at := os.Getenv("KOMPACT_BACKUP_CRASH")
	if at == "" {
		return
	}
	atomicfile.SetCrashHook(func(step string) {
		if step == at {
			os.Exit(42)
		}
	})
	_, _ = atomicfile.Backup(os.Getenv("KOMPACT_BACKUP_PATH"))
	os.Exit(0)
}

// TestWriteRemovesStaleTemps: a write removes the temporary files of its
// own target left by dead processes, and keeps those of running ones and
// of other targets (issue 9, item 3).
func TestWriteRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	os.WriteFile(p, []byte("old"), 0o644)
	// A process that has exited.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	files := map[string]bool{ // name: survives
		".s.json.tmp-" + dead + "-123":                    false,
		".s.json.tmp-" + dead + "-456":                    false,
		".s.json.tmp-" + strconv.Itoa(os.Getpid()) + "-7": true, // a concurrent write
		".s.json.tmp-1-8":                                 true, // init runs
		".other.json.tmp-" + dead + "-9":                  true,
		".s.json.tmp-notapid":                             true,
	}
	for name := range files {
		os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o644)
	}
	if err := atomicfile.Write(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, survives := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if (err == nil) != survives {
			t.Errorf("%s: exists=%v, want %v", name, err == nil, survives)
		}
	}
}

// TestWriteThroughSymlink: a symlinked target is written through, the
// link stays a link (issue 9, item 3).
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	target := filepath.Join(dir, "real", "context.jsonl")
	os.WriteFile(target, []byte("old\n"), 0o600)
	link := filepath.Join(dir, "context.jsonl")
	if err := os.Symlink(filepath.Join("real", "context.jsonl"), link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.jsonl")
	os.Symlink("context.jsonl", chain)
	if err := atomicfile.Write(chain, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, chain} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symbolic link: %v %v", l, st, err)
		}
	}
	st, _ := os.Stat(target)
	if got, _ := os.ReadFile(target); string(got) != "new\n" || st.Mode().Perm() != 0o600 {
		t.Fatalf("target %q mode %v", got, st.Mode().Perm())
	}
	// A dangling link gets its target created.
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink(filepath.Join("real", "new.json"), dangling)
	if err := atomicfile.Write(dangling, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "real", "new.json")); string(got) != "x" {
		t.Fatalf("dangling link target %q", got)
	}
	// A loop is an error, not a hang.
	os.Symlink("loop2", filepath.Join(dir, "loop1"))
	os.Symlink("loop1", filepath.Join(dir, "loop2"))
	if err := atomicfile.Write(filepath.Join(dir, "loop1"), []byte("x"), 0o644); err == nil {
		t.Fatal("writing through a link loop succeeded")
	}
}

// TestReplaceWithBackupDetectsChange: a file changed since it was read
// is not replaced (EConflict, no backup); an unchanged one is replaced in
// place with a backup of what was read (issue 9, item 3).
func TestReplaceWithBackupDetectsChange(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "context.jsonl")
	os.WriteFile(p, []byte("line 1\n"), 0o644)
	data, fp, err := atomicfile.ReadFile(p)
	if err != nil || string(data) != "line 1\n" || fp.Size != 7 {
		t.Fatalf("%q %+v %v", data, fp, err)
	}
	// kimi-cli appends a line during the LLM call.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("line 2\n")
	f.Close()
	_, err = atomicfile.ReplaceWithBackup(p, []byte("summary\n"), fp)
	if kompact.ErrorCodeOf(err) != kompact.EConflict || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err %v (code %s)", err, kompact.ErrorCodeOf(err))
	}
	if got, _ := os.ReadFile(p); string(got) != "line 1\nline 2\n" {
		t.Fatalf("file changed: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
	// Same size, other content: still a change.
	os.WriteFile(p, []byte("line 1\n"), 0o644)
	_, fp, _ = atomicfile.ReadFile(p)
	os.WriteFile(p, []byte("line X\n"), 0o644)
	if err := atomicfile.Check(p, fp); kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Fatalf("same-size change: %v", err)
	}
	// Unchanged: replaced, with a backup.
	_, fp, _ = atomicfile.ReadFile(p)
	backup, err := atomicfile.ReplaceWithBackup(p, []byte("summary\n"), fp)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "summary\n" {
		t.Fatalf("file %q", got)
	}
	if got, _ := os.ReadFile(backup); backup != p+".bak" || string(got) != "line X\n" {
		t.Fatalf("backup %s: %q", backup, got)
	}
}
