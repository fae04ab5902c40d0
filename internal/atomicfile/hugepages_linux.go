package atomicfile

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the size of the transparent huge pages of x86-64 and
// arm64 Linux.
const hugePageSize = 2 << 20

// adviseHugePages asks the kernel to back the whole 2 MiB pages inside buf,
// memory not touched yet, with huge pages: reading a file of many
// megabytes then takes a page fault (and a page to clear) per 2 MiB instead
// of per 4 KiB, which made up most of the time of reading a 23 MiB file
// from the page cache. Where transparent huge pages are off, or the kernel
// has none at hand, it changes nothing; it never fails.
func adviseHugePages(buf []byte) {
	if len(buf) < 2*hugePageSize {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	lo := (p + hugePageSize - 1) &^ (hugePageSize - 1)
	hi := (p + uintptr(len(buf))) &^ (hugePageSize - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(buf[lo-p:hi-p], syscall.MADV_HUGEPAGE)
}
