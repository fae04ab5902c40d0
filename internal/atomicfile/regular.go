package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
)

// CheckRegular returns an error when path names something other than a
// regular file (or a link to one): a named pipe, a device or a socket,
// whose open or read may block for ever, or a directory. A path that
// does not exist passes: opening it then says so.
func CheckRegular(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return regular(path, info)
}

// regular is CheckRegular for a file's description.
func regular(path string, info fs.FileInfo) error {
	m := info.Mode()
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		kind = "a device"
	}
	return fmt.Errorf("%s is %s, not a file kompact reads; pipe it to standard input instead (-)", path, kind)
}
