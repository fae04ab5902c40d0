package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	if err := Write(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(got) != "two" || st.Mode().Perm() != 0o640 {
		t.Fatalf("content %q mode %v", got, st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	os.WriteFile(p, []byte("original"), 0o644)
	if err := Write(filepath.Join(dir, "missing", "x.json"), []byte("x"), 0o644); err == nil {
		t.Fatal("writing into a missing folder succeeded")
	}
	// A folder in the way of the rename: the original stays.
	if err := Write(dir, []byte("x"), 0o644); err == nil {
		t.Fatal("replacing a folder succeeded")
	}
	got, _ := os.ReadFile(p)
	if string(got) != "original" {
		t.Fatalf("original changed: %q", got)
	}
}

func TestBackupNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	os.WriteFile(p, []byte("v1"), 0o644)
	b1, err := Backup(p)
	if err != nil || b1 != p+".bak" {
		t.Fatalf("%q %v", b1, err)
	}
	os.WriteFile(p, []byte("v2"), 0o644)
	b2, err := Backup(p)
	if err != nil || b2 != p+".bak.2" {
		t.Fatalf("%q %v", b2, err)
	}
	g1, _ := os.ReadFile(b1)
	g2, _ := os.ReadFile(b2)
	if string(g1) != "v1" || string(g2) != "v2" {
		t.Fatalf("backups %q %q", g1, g2)
	}
	if _, err := Backup(filepath.Join(dir, "nope")); err == nil {
		t.Fatal("backing up a missing file succeeded")
	}
}
