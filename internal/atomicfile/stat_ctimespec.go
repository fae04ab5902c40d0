//go:build darwin || freebsd || netbsd

package atomicfile

import "syscall"

func changeTime(sys *syscall.Stat_t) syscall.Timespec { return sys.Ctimespec }
