package openai

import (
	"runtime"

	"kompact"
	"kompact/sessionjson"
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
func appendPartsFrom(dst []byte, parts []kompact.Part, v sessionjson.Verified) []byte {
	for i := range parts {
		if parts[i].Type == kompact.PartThink {
			continue
		}
		dst = append(dst, ',')
		dst = v.AppendKimiPart(dst, &parts[i])
	}
	return dst
}

// contentList writes "content" as a list of parts. A long list is cut into
// chunks (see chunkParts): a helper goroutine encodes the odd ones, each into
// a buffer of its own, while this one encodes the even ones in place and
// appends the helper's after them, in order.
func (e *wireEncoder) contentList(m *kompact.Message) {
	chunks := chunkParts(m)
	parts := m.Content
	var done, free chan []byte
	if chunks != nil {
		done, free = make(chan []byte, 2), make(chan []byte, 2)
		free <- nil
		free <- nil
		quit, exited := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(exited)
			encodeOddChunks(chunks, e.v, done, free, quit)
		}()
		// The helper reads the parts: it must have ended when this returns.
		defer func() { close(quit); <-exited }()
		parts = chunks[0]
	}
	e.dst = append(e.dst, '[')
	first := true
	for i := range parts {
		if e.err != nil {
			return
		}
		if parts[i].Type == kompact.PartThink {
			continue
		}
		if !first {
			e.dst = append(e.dst, ',')
		}
		first = false
		e.encoded++
		e.dst = e.v.AppendKimiPart(e.dst, &parts[i])
		e.spill()
	}
	for c := 1; c < len(chunks) && e.err == nil; c++ {
		if c%2 == 0 {
			e.dst = appendPartsFrom(e.dst, chunks[c], e.v)
			e.encoded += len(chunks[c])
		} else {
			buf := <-done
			e.dst = append(e.dst, buf...)
			e.encoded += len(chunks[c])
			free <- buf
		}
		e.spill()
	}
	e.dst = append(e.dst, ']')
}

// encodeOddChunks encodes chunks 1, 3, 5… in order, each into a buffer taken
// from free, and hands it over on done, until quit is closed.
func encodeOddChunks(chunks [][]kompact.Part, v sessionjson.Verified, done chan<- []byte, free <-chan []byte, quit <-chan struct{}) {
	for c := 1; c < len(chunks); c += 2 {
		var buf []byte
		select {
		case buf = <-free:
		case <-quit:
			return
		}
		if buf == nil {
			buf = make([]byte, 0, chunkBytes+chunkBytes/4)
		}
		select {
		case done <- appendPartsFrom(buf[:0], chunks[c], v):
		case <-quit:
			return
		}
	}
}
