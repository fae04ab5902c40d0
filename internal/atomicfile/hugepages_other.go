//go:build !linux

package atomicfile

// adviseHugePages does nothing outside Linux (see hugepages_linux.go).
func adviseHugePages([]byte) {}
