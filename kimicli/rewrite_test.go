package kimicli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kompact/internal/atomicfile"
	"kompact/kimicli"
)

// rewrite rewrites the context file p with data, as read just now.
func rewrite(t *testing.T, p string, data []byte) (string, error) {
	t.Helper()
	_, fp, err := atomicfile.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return kimicli.RewriteContext(p, data, fp)
}

// contextFile writes data as context.jsonl, with mode perm, in a folder of
// its own and returns the folder and the file's path.
func contextFile(t *testing.T, data string, perm os.FileMode) (dir, p string) {
	t.Helper()
	dir = t.TempDir()
	p = filepath.Join(dir, "context.jsonl")
	if err := os.WriteFile(p, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	return dir, p
}

func TestRewriteContextRotates(t *testing.T) {
	dir, p := contextFile(t, "old\n", 0o600)
	os.WriteFile(filepath.Join(dir, "context_1.jsonl"), []byte("older\n"), 0o600)
	rotated, err := rewrite(t, p, []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rotated != filepath.Join(dir, "context_2.jsonl") {
		t.Fatalf("rotated to %s", rotated)
	}
	for name, want := range map[string]string{"context.jsonl": "new\n", "context_1.jsonl": "older\n", "context_2.jsonl": "old\n"} {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	// Writing to the new file must not change the rotated one (no shared link).
	os.WriteFile(p, []byte("appended\n"), 0o600)
	if got, _ := os.ReadFile(rotated); string(got) != "old\n" {
		t.Fatalf("rotated copy changed: %q", got)
	}
	if _, err := kimicli.RewriteContext(filepath.Join(dir, "missing.jsonl"), []byte("x"), atomicfile.Fingerprint{}); err == nil {
		t.Fatal("rewriting a missing file succeeded")
	}
}

// TestRewriteContextCrash kills a child process at each step of the
// rewrite and checks that the session is recoverable without loss: the
// context file holds either the whole old or the whole new content, and the
// old content survives somewhere.
func TestRewriteContextCrash(t *testing.T) {
	if os.Getenv("KOMPACT_CRASH_CHILD") != "" {
		return
	}
	oldData := "{\"role\":\"user\",\"content\":\"old 1\"}\n{\"role\":\"assistant\",\"content\":\"old 2\"}\n"
	newData := "{\"role\":\"user\",\"content\":\"new summary\"}\n"
	for _, stepName := range []string{"begin", "mid-write", "written", "rotated", "renamed"} {
		t.Run(stepName, func(t *testing.T) {
			dir, p := contextFile(t, oldData, 0o644)
			cmd := exec.Command(os.Args[0], "-test.run=^TestRewriteContextCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "KOMPACT_CRASH_CHILD="+stepName, "KOMPACT_CRASH_PATH="+p, "KOMPACT_CRASH_DATA="+newData)
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 42 {
				t.Fatalf("child did not die at %s: %v\n%s", stepName, err, out)
			}
			cur, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("context file missing after a crash at %s: %v", stepName, err)
			}
			if string(cur) != oldData && string(cur) != newData {
				t.Fatalf("context file half-written after a crash at %s: %q", stepName, cur)
			}
			found := string(cur) == oldData
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "context_") {
					b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
					if string(b) != oldData {
						t.Fatalf("rotated file %s is not the old content: %q", e.Name(), b)
					}
					found = true
				}
			}
			if !found {
				t.Fatalf("the old content is lost after a crash at %s", stepName)
			}
			// Running the rewrite again completes it.
			if _, err := rewrite(t, p, []byte(newData)); err != nil {
				t.Fatal(err)
			}
			if cur, _ := os.ReadFile(p); string(cur) != newData {
				t.Fatalf("rerun left %q", cur)
			}
			// ... and removes the temporary file the killed run left.
			entries, _ = os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".context.jsonl.tmp-") {
					t.Errorf("the temporary file %s of the killed run is still there", e.Name())
				}
			}
		})
	}
}

// TestRewriteContextCrashChild is the child of TestRewriteContextCrash.
func TestRewriteContextCrashChild(t *testing.T) {
	at := os.Getenv("KOMPACT_CRASH_CHILD")
	if at == "" {
		return // only does something as the child of TestRewriteContextCrash
	}
	kimicli.SetCrashHook(func(step string) {
		if step == at {
			os.Exit(42)
		}
	})
	p := os.Getenv("KOMPACT_CRASH_PATH")
	_, fp, err := atomicfile.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	kimicli.RewriteContext(p, []byte(os.Getenv("KOMPACT_CRASH_DATA")), fp)
	os.Exit(0)
}
