//go:build darwin || freebsd || netbsd

package atomicfile

import (
	"io/fs"
	"syscall"
)

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

// idOf returns the fileID of st.
func idOf(st fs.FileInfo) fileID {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	sec, nsec := sys.Ctimespec.Unix()
	return fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino), ctimeNs: sec*1e9 + nsec, known: true}
}
