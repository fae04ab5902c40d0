package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestSessionsImportStreams (issue 40 §4): sessions import FILE holds
// buffers, not the file: importing a 32 MB session document (to a server
// that reads the body as it comes and answers with a session as long) the
// command's heap never grows by half the file. It used to
// read the file whole, decode it and decode the answer whole (1.49 GB of
// memory for a 239 MB file). The figures with /usr/bin/time -v are in
// docs/benchmarks.md.
func TestSessionsImportStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.json")
	writeLongSession(t, path, 32<<20)
	st, _ := os.Stat(path)
	var got atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		got.Store(n)
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.Copy(w, f) // a stored session's answer: id and messages
	}))
	defer ts.Close()

	peak := heapPeak(t, func() {
		status, stdout, stderr := runCLI(t, "", map[string]string{"KOMPACT_URL": ts.URL}, "sessions", "import", path)
		if status != exitOK || !strings.HasPrefix(stdout, "imported session long (agent kimi, ") {
			t.Fatalf("import: %d %q %s", status, stdout, stderr)
		}
	})
	if got.Load() != st.Size() {
		t.Errorf("the server read %d bytes of %d", got.Load(), st.Size())
	}
	if peak > st.Size()/2 {
		t.Errorf("the heap grew by %d bytes importing a %d-byte file; want less than half of it", peak, st.Size())
	}
	t.Logf("heap peak +%d bytes for a %d-byte file", peak, st.Size())
}

// writeLongSession writes a session document of about size bytes.
func writeLongSession(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, `{"id":"long","agent":"kimi","messages":[`)
	text := strings.Repeat("lorem ipsum é 🚀 ", 60)
	for i, n := 0, 0; n < size; i++ {
		if i > 0 {
			w.WriteByte(',')
		}
		k, _ := fmt.Fprintf(w, `{"id":"m%d","role":"user","content":[{"type":"text","text":"%d %s"}]}`, i, i, text)
		n += k
	}
	fmt.Fprint(w, "]}")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// heapPeak runs f and returns how far the heap in use grew above where it
// was before, sampled every millisecond. The collector runs often
// meanwhile (GOGC 10), so that the heap follows what is live.
func heapPeak(t *testing.T, f func()) int64 {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapAlloc)
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if d := int64(m.HeapAlloc) - base; d > peak.Load() {
				peak.Store(d)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak.Load()
}
