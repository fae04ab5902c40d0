//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid runs (or may: one we may not
// signal counts as running).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
