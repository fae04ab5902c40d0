package atomicfile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	"kompact"
)

// Fingerprint identifies the content of a file as it was read: its size,
// modification time and SHA-256. Check compares the file with it before
// the file is replaced, so that what another program wrote meanwhile (a
// line kimi-cli appended) is never silently dropped.
type Fingerprint struct {
	Size    int64
	ModTime time.Time
	Sum     [sha256.Size]byte
}

// ReadFile reads path and returns its content and fingerprint.
func ReadFile(path string) ([]byte, Fingerprint, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, Fingerprint{}, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Fingerprint{}, err
	}
	return data, Fingerprint{Size: int64(len(data)), ModTime: st.ModTime(), Sum: sha256.Sum256(data)}, nil
}

// Check returns nil when path still holds the content fp was taken of,
// else an EConflict error saying that nothing was written.
func Check(path string, fp Fingerprint) error {
	_, now, err := ReadFile(path)
	if err != nil {
		return kompact.Errorf(kompact.EConflict, "%s can no longer be read since it was read (%v); nothing was written", path, err).
			WithFixes("Check that the file is still there, then run the command again.")
	}
	if now.Size == fp.Size && bytes.Equal(now.Sum[:], fp.Sum[:]) {
		return nil
	}
	return kompact.Errorf(kompact.EConflict, "%s changed while it was being compacted (%d bytes at %s, now %d bytes at %s); nothing was written",
		path, fp.Size, fp.ModTime.Format(time.RFC3339), now.Size, now.ModTime.Format(time.RFC3339)).
		WithFixes("Run the command again once the program writing to the file (kimi-cli, say) is done: it reads the file anew.")
}

// ReplaceWithBackup replaces path with data in place, keeping a backup of
// its content, provided the file still matches fp (taken by ReadFile when
// it was read). It returns the backup's name. If the file changed, it
// writes nothing and returns an EConflict error.
func ReplaceWithBackup(path string, data []byte, fp Fingerprint) (string, error) {
	if err := Check(path, fp); err != nil {
		return "", err
	}
	backup, err := Backup(path)
	if err != nil {
		return "", err
	}
	// The backup read the file again: check it is the content fp names.
	if err := Check(backup, fp); err != nil {
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
