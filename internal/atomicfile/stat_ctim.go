//go:build linux || openbsd || solaris || dragonfly

package atomicfile

import "syscall"

func changeTime(sys *syscall.Stat_t) syscall.Timespec { return sys.Ctim }
