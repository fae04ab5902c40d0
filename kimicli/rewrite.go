package kimicli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// crashHook, when set (by tests), is called at each step of RewriteContext.
var crashHook func(step string)

func step(name string) {
	if crashHook != nil {
		crashHook(name)
	}
}

// RotatedName returns the first free name for the old copy of path, the
// way kimi-cli rotates: context.jsonl -> context_1.jsonl, context_2.jsonl, ...
func RotatedName(path string) (string, error) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 1; i < 100000; i++ {
		name := stem + "_" + strconv.Itoa(i) + ext
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		} else if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("no free rotation name for %s", path)
}

// RewriteContext replaces the context file at path with data and keeps the
// old file beside it as the next free context_N.jsonl, as kimi-cli does. It
// never leaves path missing or half-written: the new content goes to a
// temporary file first, the old file gets its rotated name as a second link
// (a copy where links are not possible), and only then is the new file
// renamed over path. It returns the rotated name.
func RewriteContext(path string, data []byte) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	tmpName := tmp.Name()
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	step("begin")
	half := len(data) / 2
	if _, err := tmp.Write(data[:half]); err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	step("mid-write")
	if _, err := tmp.Write(data[half:]); err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	step("written")
	rotated, err := RotatedName(path)
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := os.Link(path, rotated); err != nil {
		if err := copyFile(path, rotated, st.Mode().Perm()); err != nil {
			return "", fmt.Errorf("rewrite %s: keep the old file as %s: %w", path, rotated, err)
		}
	}
	step("rotated")
	if err := os.Rename(tmpName, path); err != nil {
		return rotated, fmt.Errorf("rewrite %s: %w", path, err)
	}
	done = true
	step("renamed")
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return rotated, nil
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}
