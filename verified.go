package kompact

import (
	"unicode/utf8"
	"unsafe"

	"kompact/internal/jsonwrite"
)

// Verified is the memory of a JSON document that DecodeSession, ScanMessage
// or a MessageScanner has read, and lets encoders write the text decoded
// from it without checking it a second time.
//
// Those decoders share the document's memory only for strings that stood in
// it without escapes (message_fast.go): such a string is valid UTF-8 and
// holds no byte that JSON escapes ('"', '\\', control characters), so its
// JSON form is the string itself between quotes. Holds recognises them by
// their address, which cannot go stale: a string replaced by another no
// longer lies in the document, and a piece cut from one is held only when
// it starts and ends at character boundaries.
//
// Only documents that nothing else turns into strings without copying may
// be verified; the zero Verified holds nothing.
type Verified struct{ doc []byte }

// VerifiedDocument returns data as Verified, for encoding text decoded from
// it.
func VerifiedDocument(data []byte) Verified { return Verified{doc: data} }

// Holds reports whether s is text a decoder took from v's document as it
// stood (or a piece of it cut at character boundaries), which needs neither
// a UTF-8 check nor escapes.
func (v Verified) Holds(s string) bool {
	if len(s) == 0 || len(v.doc) == 0 {
		return false
	}
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.SliceData(v.doc)))
	// A string's closing quote follows it in the document: its end is
	// inside the document too.
	if off >= uintptr(len(v.doc)) || uintptr(len(v.doc))-off <= uintptr(len(s)) {
		return false
	}
	end := int(off) + len(s)
	return utf8.RuneStart(v.doc[off]) && utf8.RuneStart(v.doc[end])
}

// AppendString appends s as a quoted JSON string, as jsonwrite.AppendString
// does, copying it as it is when v holds it.
func (v Verified) AppendString(dst []byte, s string) []byte {
	if v.Holds(s) {
		return jsonwrite.AppendPlain(dst, s)
	}
	return jsonwrite.AppendString(dst, s)
}
