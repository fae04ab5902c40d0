package kimicli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"kompact/internal/atomicfile"
)

// crashHook, when set (by tests), is called at each step of RewriteContext.
var crashHook func(step string)

func step(name string) {
	if crashHook != nil {
		crashHook(name)
	}
}

// maxRotationTries bounds the names RewriteContext tries when another
// program takes the one it picked.
const maxRotationTries = 100

// RotatedName returns the name kimi-cli's next_available_rotation picks for
// the old copy of path: STEM_N.SUFFIX beside it, where N is one more than
// the highest N among the folder's names of that form (context.jsonl ->
// context_1.jsonl, then context_2.jsonl, ...; after context_1 and
// context_5, context_6). Like kimi-cli it splits the name as Python's
// pathlib does (see pySplit) and reads N as Python's re \d+ and int() do:
// any Unicode decimal digits, leading zeros allowed, no size limit.
func RotatedName(path string) (string, error) {
	dir := filepath.Dir(path)
	stem, suffix := pySplit(filepath.Base(path))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	highest := "0"
	for _, e := range entries {
		if n, ok := rotationNumber(e.Name(), stem, suffix); ok && decimalLess(highest, n) {
			highest = n
		}
	}
	return filepath.Join(dir, stem+"_"+decimalIncrement(highest)+suffix), nil
}

// pySplit splits a file name into Python pathlib's stem and suffix: the
// suffix starts at the last dot, unless that dot is the first or the last
// character, in which case there is none.
func pySplit(name string) (stem, suffix string) {
	i := strings.LastIndexByte(name, '.')
	if 0 < i && i < len(name)-1 {
		return name[:i], name[i:]
	}
	return name, ""
}

// rotationNumber matches name against kimi-cli's ^STEM_(\d+)SUFFIX$ and
// returns N in ASCII digits without leading zeros. Python's $ also matches
// before a final line feed.
func rotationNumber(name, stem, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(name, stem+"_")
	if !ok {
		return "", false
	}
	digits, ok := strings.CutSuffix(rest, suffix)
	if !ok {
		if digits, ok = strings.CutSuffix(rest, suffix+"\n"); !ok {
			return "", false
		}
	}
	if digits == "" {
		return "", false
	}
	var b strings.Builder
	for _, r := range digits {
		v, ok := digitValue(r)
		if !ok {
			return "", false
		}
		if b.Len() > 0 || v != 0 {
			b.WriteByte(byte('0' + v))
		}
	}
	if b.Len() == 0 {
		return "0", true
	}
	return b.String(), true
}

// digitValue returns the value of a Unicode decimal digit (category Nd,
// what Python's \d matches and int() reads). Decimal digits come in runs of
// ten starting at zero, so the value is the offset in its run.
func digitValue(r rune) (int, bool) {
	if !unicode.IsDigit(r) {
		return 0, false
	}
	first := r
	for first > 0 && unicode.IsDigit(first-1) {
		first--
	}
	return int(r-first) % 10, true
}

// decimalLess compares two ASCII decimal numbers without leading zeros.
func decimalLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// decimalIncrement adds one to an ASCII decimal number.
func decimalIncrement(n string) string {
	b := []byte(n)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// RewriteContext replaces the context file at path with data and keeps the
// old file beside it as context_N.jsonl (RotatedName), as kimi-cli does,
// provided the file still holds the content fp was taken of (by
// atomicfile.ReadFile when it was read): if another program (kimi-cli)
// wrote to it meanwhile, nothing is written or rotated and the error is
// kompact.EConflict. A symbolic link is written through: its target gets
// the new content and the link stays. It never leaves the file missing or
// half-written: the new content goes to a temporary file first, the old
// file gets its rotated name as a second link (a copy where links are not
// possible), and only then is the new file renamed over it. It returns the
// rotated name.
//
// The file is compared with fp by stat before the temporary file is
// written and right before the rotation, and fully (atomicfile.Check: its
// content too when fp is racy) right before the rename.
func RewriteContext(path string, data []byte, fp atomicfile.Fingerprint) (string, error) {
	target, err := atomicfile.Resolve(path)
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	st, err := os.Stat(target)
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if err := atomicfile.CheckStat(path, fp); err != nil {
		return "", err
	}
	step("begin")
	tmpName, err := writeTemp(target, data, st.Mode().Perm())
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmpName)
		}
	}()
	step("written")
	rotated, err := checkAndRotate(path, target, st.Mode().Perm(), &fp)
	if err != nil {
		return "", err
	}
	step("rotated")
	// Check once more, right before replacing the file, that it is still
	// what was read (the rotated name then holds that content too).
	if err := atomicfile.Check(path, fp); err != nil {
		os.Remove(rotated)
		return "", err
	}
	if err := os.Rename(tmpName, target); err != nil {
		return rotated, fmt.Errorf("rewrite %s: %w", path, err)
	}
	done = true
	step("renamed")
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return rotated, nil
}

// checkAndRotate compares the file with *fp by stat, rotates it and
// updates *fp for the new link, which moved the file's change time.
func checkAndRotate(path, target string, perm fs.FileMode, fp *atomicfile.Fingerprint) (string, error) {
	if err := atomicfile.CheckStat(path, *fp); err != nil {
		return "", err
	}
	rotated, err := rotate(path, target, perm)
	if err != nil {
		return "", fmt.Errorf("rewrite %s: %w", path, err)
	}
	if *fp, err = fp.Relinked(target); err != nil {
		os.Remove(rotated)
		return "", err
	}
	return rotated, nil
}

// writeTemp writes data to a new synced temporary file next to target and
// returns its name.
func writeTemp(target string, data []byte, perm fs.FileMode) (string, error) {
	tmp, err := atomicfile.CreateTemp(target)
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	half := len(data) / 2
	_, werr := tmp.Write(data[:half])
	if werr == nil {
		step("mid-write")
		_, werr = tmp.Write(data[half:])
	}
	if err := errors.Join(werr, tmp.Chmod(perm), tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// rotate gives the old file target its rotated name beside path (a second
// link, or a copy), taking the next name when another program takes the
// one picked, as kimi-cli does.
func rotate(path, target string, perm fs.FileMode) (string, error) {
	for range maxRotationTries {
		rotated, err := RotatedName(path)
		if err != nil {
			return "", err
		}
		err = os.Link(target, rotated)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			err = copyFile(target, rotated, perm)
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("keep the old file as %s: %w", rotated, err)
		}
		return rotated, nil
	}
	return "", fmt.Errorf("no free rotation name for %s after %d tries", path, maxRotationTries)
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
