package atomicfile

import (
	"fmt"
	"os"
)

// SetCrashHook sets the function called at each step of a write.
func SetCrashHook(fn func(step string)) { crashHook = fn }

// Backup backs up the file at path alone (see backupFrom), for the tests
// of the backup's steps; the command backs up only within
// ReplaceWithBackup.
func Backup(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("back up %s: %w", path, err)
	}
	defer f.Close()
	return backupFrom(path, f)
}
