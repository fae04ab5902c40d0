//go:build !(linux || openbsd || solaris || dragonfly || darwin || freebsd || netbsd)

package atomicfile

import "io/fs"

// fileID is what stat says about a file besides its size and modification
// time. This system says nothing more (no inode, no change time), so every
// file counts as racy and Check compares its content.
type fileID struct {
	dev, ino uint64
	ctimeNs  int64
	known    bool
}

// idOf returns the zero fileID: unknown.
func idOf(fs.FileInfo) fileID { return fileID{} }
