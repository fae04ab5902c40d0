package twoinstance

import (
	"os"
	"sync"
	"testing"
)

// The kompact command the package's tests run, built once by
// kompactBinary.
var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
