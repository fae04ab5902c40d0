// Package cputime reads the process's CPU time, which benchmarks report as
// cpu-ns/op beside ns/op: on a shared machine ns/op counts the waits for a
// core too, the CPU time only the work.
package cputime

import "syscall"

// Process returns the CPU time (user and system) the process has used, in
// nanoseconds; 0 when it cannot be read.
func Process() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
