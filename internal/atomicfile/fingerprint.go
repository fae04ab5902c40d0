package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"time"

	"kompact"
)

// RacyWindow is how recently a file may have been modified, before it was
// read, for its times to prove nothing: a later write within the same
// tick of the file system's clock leaves them as they were. It covers
// file systems that keep whole or even seconds (FAT keeps 2 s) and a
// small difference between this machine's clock and a file server's.
const RacyWindow = 3 * time.Second

// now is the clock ReadFile reads; tests move it.
var now = time.Now

// Fingerprint identifies a file as ReadFile read it: its size, its
// modification time and, where the system says them, its device, inode and
// change time. Check compares the file with it before the file is
// replaced, so that what another program wrote meanwhile (a line kimi-cli
// appended) is never silently dropped.
//
// Any write moves the modification or change time, so comparing them
// proves the file unchanged without reading it again, provided it was not
// modified within RacyWindow before it was read: such a "racy" file (git's
// term) could be written again within the same tick and keep its times.
// For a racy file, and on systems without inodes and change times, the
// fingerprint keeps the content read, and Check compares the file's
// content with it.
type Fingerprint struct {
	Size    int64
	ModTime time.Time
	id      fileID
	racy    bool
	// content is what was read, kept when racy.
	content []byte
}

// fileID is what stat says about a file besides its size and modification
// time: where it lives (device and inode) and when its inode last changed.
type fileID struct {
	dev, ino uint64
	// ctimeNs is the change time in nanoseconds since 1970. A write moves
	// it even when the writer sets the modification time back.
	ctimeNs int64
	// known is false where the system says none of this.
	known bool
}

// ReadFile reads path in one pass and returns its content and fingerprint.
// When the fingerprint is racy it shares data's memory: data must not be
// modified while the fingerprint is in use.
func ReadFile(path string) ([]byte, Fingerprint, error) {
	// A named pipe's open blocks until a writer comes: refused first.
	if err := CheckRegular(path); err != nil {
		return nil, Fingerprint{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Fingerprint{}, err
	}
	defer f.Close()
	start := now()
	before, err := f.Stat()
	if err != nil {
		return nil, Fingerprint{}, err
	}
	if err := regular(path, before); err != nil {
		return nil, Fingerprint{}, err
	}
	data, err := readAll(f, before.Size())
	if err != nil {
		return nil, Fingerprint{}, err
	}
	after, err := f.Stat()
	if err != nil {
		return nil, Fingerprint{}, err
	}
	fp := fingerprintOf(after)
	// A file that changed while it was read is racy too: data may be a mix.
	fp.racy = !fp.id.known || changedSince(fp, start.Add(-RacyWindow)) ||
		!fp.sameStat(before) || fp.Size != int64(len(data))
	if fp.racy {
		fp.content = data
	}
	return data, fp, nil
}

// readAll reads f to its end; size is its size by stat, which may be
// outdated (a growing file).
func readAll(f *os.File, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	adviseHugePages(data[:cap(data)])
	data = readHalves(f, data)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// halvesMin is the size from which readHalves reads a file in two halves
// at once.
const halvesMin = 8 << 20

// readHalves reads the first cap(data)-1 bytes of f (its size by stat) into
// data as two halves at once, on two cores, when the file is large: a read
// from the page cache is a copy and page faults, which split. It leaves
// f's offset past them and returns data holding them, or data as it was,
// with the offset unchanged, when it did not read them all (one core, a
// small file, a file that shrank: readAll then reads it whole as usual).
func readHalves(f *os.File, data []byte) []byte {
	size := cap(data) - 1
	if size < halvesMin || runtime.GOMAXPROCS(0) < 2 {
		return data
	}
	buf, half := data[:size], size/2
	second := make(chan error, 1)
	go func() {
		_, err := f.ReadAt(buf[half:], int64(half))
		second <- err
	}()
	_, err := f.ReadAt(buf[:half], 0)
	if err2 := <-second; err != nil || err2 != nil {
		return data
	}
	if _, err := f.Seek(int64(size), io.SeekStart); err != nil {
		return data
	}
	return buf
}

func fingerprintOf(st fs.FileInfo) Fingerprint {
	return Fingerprint{Size: st.Size(), ModTime: st.ModTime(), id: idOf(st)}
}

// changedSince reports whether the file was modified, or its inode
// changed, at t or later.
func changedSince(fp Fingerprint, t time.Time) bool {
	return !fp.ModTime.Before(t) || fp.id.ctimeNs >= t.UnixNano()
}

// sameStat reports whether st says what fp says.
func (fp Fingerprint) sameStat(st fs.FileInfo) bool {
	return st.Size() == fp.Size && st.ModTime().Equal(fp.ModTime) && idOf(st) == fp.id
}

// Check returns nil when path still holds the content fp was taken of,
// else an EConflict error saying that nothing was written. It reads the
// file again only when fp is racy.
func Check(path string, fp Fingerprint) error {
	return check(path, fp, true)
}

// CheckStat is Check without the content comparison of a racy file: a
// quick early check, for a caller that runs Check right before it
// replaces the file.
func CheckStat(path string, fp Fingerprint) error {
	return check(path, fp, false)
}

func check(path string, fp Fingerprint, content bool) error {
	f, err := os.Open(path)
	if err != nil {
		return unreadable(path, err)
	}
	defer f.Close()
	return fp.match(path, f, content)
}

// CheckFile is Check of f, the file at path opened by the caller (with
// read access): for one who appends to the very file it checked.
func (fp Fingerprint) CheckFile(path string, f *os.File) error {
	return fp.match(path, f, true)
}

// match compares the open file f (at path) with fp, and its content when
// content is set and fp is racy.
func (fp Fingerprint) match(path string, f *os.File, content bool) error {
	st, err := f.Stat()
	if err != nil {
		return unreadable(path, err)
	}
	if !fp.sameStat(st) {
		return changed(path, fp, st)
	}
	if !content || !fp.racy {
		return nil
	}
	same, err := sameContent(f, fp.content)
	if err != nil {
		return unreadable(path, err)
	}
	if !same {
		return changed(path, fp, st)
	}
	return nil
}

// Relinked returns fp for path after a hard link to it was made (the
// rotation of kimi-cli's file): a new link moves the change time, so it is
// taken anew. Everything else must be as fp says, else the error is
// EConflict.
func (fp Fingerprint) Relinked(path string) (Fingerprint, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fp, unreadable(path, err)
	}
	id := idOf(st)
	if st.Size() != fp.Size || !st.ModTime().Equal(fp.ModTime) || id.dev != fp.id.dev || id.ino != fp.id.ino {
		return fp, changed(path, fp, st)
	}
	fp.id = id
	return fp, nil
}

// compareChunk is how much of a file sameContent reads at a time.
const compareChunk = 1 << 20

// sameContent reports whether the file f holds exactly want. It reads at
// offsets, leaving f's own offset alone.
func sameContent(f *os.File, want []byte) (bool, error) {
	crashHook("content-compared")
	buf := make([]byte, min(compareChunk, len(want)+1))
	var off int64
	for {
		n, err := f.ReadAt(buf, off)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false, nil
		}
		want = want[n:]
		off += int64(n)
		if err == io.EOF {
			return len(want) == 0, nil
		}
		if err != nil {
			return false, err
		}
	}
}

func unreadable(path string, err error) error {
	return kompact.Errorf(kompact.EConflict, "%s can no longer be read since it was read (%v); nothing was written", path, err).
		WithFixes("Check that the file is still there, then run the command again.")
}

func changed(path string, fp Fingerprint, st fs.FileInfo) error {
	how := fmt.Sprintf("%d bytes at %s, now %d bytes at %s", fp.Size, fp.ModTime.Format(time.RFC3339Nano), st.Size(), st.ModTime().Format(time.RFC3339Nano))
	if st.Size() == fp.Size && st.ModTime().Equal(fp.ModTime) {
		how = "written again or replaced, with the same size and modification time"
	}
	return kompact.Errorf(kompact.EConflict, "%s changed while it was being compacted (%s); nothing was written", path, how).
		WithFixes("Run the command again once the program writing to the file (kimi-cli, say) is done: it reads the file anew.")
}

// ReplaceWithBackup replaces path with data in place, keeping a backup of
// its content, provided the file still matches fp (taken by ReadFile when
// it was read). It returns the backup's name. If the file changed, it
// writes nothing and returns an EConflict error.
//
// The backup is copied from the file fp was checked against, and the file
// is checked once more after the copy, right before it is replaced: so the
// backup holds what was read.
func ReplaceWithBackup(path string, data []byte, fp Fingerprint) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", unreadable(path, err)
	}
	defer f.Close()
	if err := fp.match(path, f, false); err != nil {
		return "", err
	}
	backup, err := backupFrom(path, f)
	if err != nil {
		return "", err
	}
	if err := backupHolds(backup, fp); err != nil {
		os.Remove(backup)
		return "", err
	}
	if err := Check(path, fp); err != nil {
		os.Remove(backup)
		return "", err
	}
	if err := Write(path, data, 0o644); err != nil {
		return backup, fmt.Errorf("%w (the backup %s holds the old content)", err, backup)
	}
	return backup, nil
}

// backupHolds checks the backup of a racy file by its content (for any
// other, the check of the original after the copy proves it).
func backupHolds(backup string, fp Fingerprint) error {
	if !fp.racy {
		return nil
	}
	f, err := os.Open(backup)
	if err != nil {
		return unreadable(backup, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return unreadable(backup, err)
	}
	if same, err := sameContent(f, fp.content); err != nil || !same {
		return changed(backup, fp, st)
	}
	return nil
}
