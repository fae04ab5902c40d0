package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// writeTemp writes data to a new synced temporary file next to target and
// returns its name.
func writeTemp(target string, data []byte, perm fs.FileMode) (string, error) {
	return fillTemp(target, perm, func(tmp *os.File) error {
		half := len(data) / 2
		_, err := tmp.Write(data[:half])
		crashHook("temp-half-written")
		if err == nil {
			_, err = tmp.Write(data[half:])
		}
		return err
	})
}

// copyTemp copies src, size bytes by stat, to a new synced temporary file
// next to target and returns its name. The kernel copies where it can
// (copy_file_range): the content does not pass through memory.
func copyTemp(target string, src *os.File, size int64, perm fs.FileMode) (string, error) {
	return fillTemp(target, perm, func(tmp *os.File) error {
		_, err := io.CopyN(tmp, src, size/2)
		crashHook("temp-half-written")
		if err == io.EOF {
			err = nil // shorter now: the caller's check finds the change
		}
		if err == nil {
			_, err = io.Copy(tmp, src)
		}
		return err
	})
}

// fillTemp creates a temporary file next to target, fills it with fill,
// gives it perm, syncs it and returns its name. On failure it removes it.
func fillTemp(target string, perm fs.FileMode, fill func(*os.File) error) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), tempPrefix(target)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	crashHook("temp-created")
	err = errors.Join(fill(tmp), tmp.Chmod(perm), tmp.Sync(), tmp.Close())
	if err != nil {
		os.Remove(name)
		return "", err
	}
	crashHook("temp-written")
	return name, nil
}
