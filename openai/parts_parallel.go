package openai

import (
	"runtime"

	"kompact"
)

// parallelMinBytes is the text size from which RequestBody encodes the
// second half of a message's parts on another goroutine (another core).
const parallelMinBytes = 1 << 20

// splitParts returns where the content list of m is cut for two goroutines
// to encode its halves at once, or -1 when that does not pay: a writer is
// set (the body streams through a small buffer), one core only, or little
// text.
func (e *wireEncoder) splitParts(m *kompact.Message) int {
	if e.w != nil || len(m.Content) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return -1
	}
	n := 0
	for i := range m.Content {
		n += wireSize(&m.Content[i])
	}
	if n < parallelMinBytes {
		return -1
	}
	// The cut comes right after the part that brings the first half to
	// half the text: the first half always writes a part, so the second
	// half's parts all follow a comma.
	half, h := 0, 0
	for h < len(m.Content) && half < n/2 {
		half += wireSize(&m.Content[h])
		h++
	}
	return h
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

// partsSize estimates the wire size of parts, as bodySize does.
func partsSize(parts []kompact.Part) int {
	n := 0
	for i := range parts {
		n += len(parts[i].Text) + len(parts[i].URL) + len(parts[i].Data) + 32
	}
	return n + n/16
}

// contentList writes "content" as a list of parts. A long list is cut in
// two (see splitParts): another goroutine encodes the second half into its
// own buffer while this one encodes the first, and the halves are joined.
func (e *wireEncoder) contentList(m *kompact.Message) {
	h := e.splitParts(m)
	var tail chan []byte
	parts := m.Content
	if h > 0 {
		tail = make(chan []byte, 1)
		rest := parts[h:]
		go func() { tail <- appendPartsFrom(make([]byte, 0, partsSize(rest)), rest) }()
		parts = parts[:h]
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
	if tail != nil {
		e.dst = append(e.dst, <-tail...)
	}
	e.dst = append(e.dst, ']')
}
