//go:build !(linux || openbsd || solaris || dragonfly || darwin || freebsd || netbsd)

package atomicfile

import "io/fs"

// idOf returns the zero fileID: this system says nothing about inodes and
// change times, so every file counts as racy and Check compares its
// content.
func idOf(fs.FileInfo) fileID { return fileID{} }
