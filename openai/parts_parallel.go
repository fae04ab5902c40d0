package openai

import (
	"runtime"
	"sync/atomic"

	"kompact"
)

// parallelMinBytes is the text size from which a message's content list is
// encoded on two goroutines (two cores) at once.
const parallelMinBytes = 1 << 20

// chunkBytes is about how much text one chunk of a long content list holds:
// the two goroutines take turns at chunks, and the chunks the helper
// goroutine encodes wait in at most two buffers of about this size, so that a
// streamed body stays small in memory.
const chunkBytes = 256 << 10

// chunkParts cuts the content list of m into chunks of about chunkBytes of
// text for two goroutines to encode in turn, or returns nil when that does
// not pay: one core only, or little text. The first chunk always writes a
// part (it ends only once it holds text), so every later part follows a
// comma.
func chunkParts(m *kompact.Message) [][]kompact.Part {
	if len(m.Content) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	n := 0
	for i := range m.Content {
		n += wireSize(&m.Content[i])
	}
	if n < parallelMinBytes {
		return nil
	}
	chunks := make([][]kompact.Part, 0, n/chunkBytes+2)
	start, size := 0, 0
	for i := range m.Content {
		size += wireSize(&m.Content[i])
		if size >= chunkBytes {
			chunks = append(chunks, m.Content[start:i+1])
			start, size = i+1, 0
		}
	}
	if start < len(m.Content) {
		chunks = append(chunks, m.Content[start:])
	}
	return chunks
}

// wireSize is the text a part puts on the wire: none for a think part.
func wireSize(p *kompact.Part) int {
	if p.Type == kompact.PartThink {
		return 0
	}
	return len(p.Text) + len(p.Data)
}

// appendPartsFrom appends the wire form of every part of parts but the
// think parts, each preceded by a comma.
func appendPartsFrom(dst []byte, parts []kompact.Part) []byte {
	for i := range parts {
		if parts[i].Type == kompact.PartThink {
			continue
		}
		dst = append(dst, ',')
		dst = parts[i].AppendKimiJSON(dst)
	}
	return dst
}

// contentList writes "content" as a list of parts. A long list is cut into
// chunks (see chunkParts) that this goroutine and a helper take in order as
// each comes free: this one encodes the chunks it takes in place, the helper
// each of its own into one of two buffers, which this one appends in turn (a
// copy). The helper thus ends up with the larger share, about what this one
// spends on the copies, and neither waits for the other for long.
func (e *wireEncoder) contentList(m *kompact.Message) {
	chunks := chunkParts(m)
	parts := m.Content
	var h *chunkHelper
	if chunks != nil {
		h = startChunkHelper(chunks)
		parts = chunks[0]
	}
	e.dst = append(e.dst, '[')
	first := true
	for i := range parts {
		if parts[i].Type == kompact.PartThink {
			continue
		}
		if !first {
			e.dst = append(e.dst, ',')
		}
		first = false
		e.dst = parts[i].AppendKimiJSON(e.dst)
		e.spill()
	}
	for c := 1; c < len(chunks); c++ {
		if h.claim(c) {
			e.dst = appendPartsFrom(e.dst, chunks[c])
		} else {
			buf := <-h.done
			e.dst = append(e.dst, buf...)
			h.free <- buf
		}
		e.spill()
	}
	e.dst = append(e.dst, ']')
}

// chunkHelper is the helper goroutine's side of contentList: next is the
// first chunk nobody has taken (chunk 0 is contentList's), done carries the
// helper's chunks, encoded, in order, and free the buffers back.
type chunkHelper struct {
	chunks     [][]kompact.Part
	next       atomic.Int64
	done, free chan []byte
}

func startChunkHelper(chunks [][]kompact.Part) *chunkHelper {
	h := &chunkHelper{chunks: chunks, done: make(chan []byte, 2), free: make(chan []byte, 2)}
	h.next.Store(1)
	h.free <- nil
	h.free <- nil
	go h.run()
	return h
}

// claim takes chunk c for contentList, which has written every chunk
// before it, and reports whether it got it: false means the helper took it.
func (h *chunkHelper) claim(c int) bool {
	return h.next.CompareAndSwap(int64(c), int64(c+1))
}

// run takes the next free chunk whenever it has a buffer to encode it into,
// until none is left. It takes a buffer before a chunk, so that a chunk it
// takes never waits for one.
func (h *chunkHelper) run() {
	for {
		buf := <-h.free
		c := h.next.Add(1) - 1
		if c >= int64(len(h.chunks)) {
			return
		}
		if buf == nil {
			buf = make([]byte, 0, chunkBytes+chunkBytes/4)
		}
		h.done <- appendPartsFrom(buf[:0], h.chunks[c])
	}
}
