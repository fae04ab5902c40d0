//go:build linux || openbsd || solaris || dragonfly || darwin || freebsd || netbsd

package atomicfile

import (
	"io/fs"
	"syscall"
)

// idOf returns what st says about the file's device, inode and change
// time.
func idOf(st fs.FileInfo) fileID {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	ct := changeTime(sys)
	sec, nsec := ct.Unix()
	return fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino), ctimeNs: sec*1e9 + nsec, known: true}
}
