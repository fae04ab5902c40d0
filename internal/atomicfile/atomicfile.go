// Package atomicfile writes files so that a reader sees either the old
// content or the new, never a mix, even if the process dies mid-write.
// Temporary files are named ".NAME.tmp-PID-RANDOM" next to their target;
// a later write of the same target removes those a dead process left.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// crashHook is called at each step of a write; tests make it kill the
// process there.
var crashHook = func(step string) {}

// maxLinks bounds the symbolic links followed to a target.
const maxLinks = 40

// Write replaces path with data: it writes a temporary file in the same
// folder, syncs it, renames it over path and syncs the folder. perm applies
// when path does not exist yet; an existing file keeps its mode. A
// symbolic link is written through: its target gets the new content and
// the link stays.
func Write(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if st, err := os.Stat(target); err == nil {
		perm = st.Mode().Perm()
	}
	removeStale(target)
	dir := filepath.Dir(target)
	name, err := writeTemp(target, data, perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	crashHook("write-renaming")
	if err := os.Rename(name, target); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return syncDir(dir)
}

// Resolve follows the symbolic links of path to the file they name (which
// need not exist yet): writing to that name writes through the links.
func Resolve(path string) (string, error) { return resolve(path) }

// CreateTemp creates a temporary file next to target, named so that a later
// write of target removes it if this process dies, after removing those
// that dead processes left. The caller renames or removes it.
func CreateTemp(target string) (*os.File, error) {
	removeStale(target)
	return os.CreateTemp(filepath.Dir(target), tempPrefix(target)+strconv.Itoa(os.Getpid())+"-*")
}

// resolve follows the symbolic links of path to the file they name (which
// need not exist yet).
func resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// tempPrefix is the name prefix of target's temporary files.
func tempPrefix(target string) string { return "." + filepath.Base(target) + ".tmp-" }

// removeStale removes target's temporary files left by processes that no
// longer run (a killed earlier run). Files of running processes (a
// concurrent write of the same target) stay.
func removeStale(target string) {
	dir := filepath.Dir(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(target)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // not all systems allow opening folders; the rename is done
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

// backupFrom copies path to the first free name among path+".bak",
// path+".bak.2", path+".bak.3", ... and returns that name. It never
// overwrites an earlier backup, and the backup appears whole or not at
// all: it is written to a temporary file first and then linked to its
// name. It copies src, path opened, from its start.
func backupFrom(path string, src *os.File) (string, error) {
	st, err := src.Stat()
	if err != nil {
		return "", fmt.Errorf("back up %s: %w", path, err)
	}
	removeStale(path)
	tmp, err := copyTemp(path, src, st.Size(), st.Mode().Perm())
	if err != nil {
		return "", fmt.Errorf("back up %s: %w", path, err)
	}
	defer os.Remove(tmp)
	for i := 1; i < 10000; i++ {
		name := path + ".bak"
		if i > 1 {
			name += "." + strconv.Itoa(i)
		}
		err := publish(tmp, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		crashHook("backup-published")
		return name, syncDir(filepath.Dir(path))
	}
	return "", fmt.Errorf("back up %s: too many backups already", path)
}

// publish gives the complete file tmp the name name, failing with
// fs.ErrExist when name exists. A hard link does that atomically; where
// the file system has none, a rename after a check does it nearly so.
func publish(tmp, name string) error {
	err := os.Link(tmp, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, serr := os.Lstat(name); serr == nil {
		return fs.ErrExist
	}
	return os.Rename(tmp, name)
}
