package sessionjson

import (
	"unicode/utf8"
	"unsafe"

	"kompact"
	"kompact/internal/jsonwrite"
)

// Verified is the memory of a JSON document that DecodeSession,
// DecodeSessionUTF8 or a MessageScanner has read, and lets encoders (the
// openai request encoder's WithVerified option) write the text decoded from
// it without checking it a second time.
//
// Those decoders share the document's memory only for strings that stood in
// it without escapes (see the package doc): such a string is valid UTF-8 and
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

// AppendKimiPart appends p as kimi-cli's own model writes a content part,
// every field present: a think part's "encrypted" and a media part's "id"
// are null when unset. kompact's data parts, which kimi-cli does not have,
// become text parts holding their JSON. kimi-cli's context.jsonl (kimicli)
// and the chat-completions wire (openai, which leaves think parts out of
// "content") both carry parts in this form.
func AppendKimiPart(dst []byte, p *kompact.Part) []byte { return Verified{}.AppendKimiPart(dst, p) }

// AppendKimiPart is the package's AppendKimiPart copying a text that v holds
// as it is.
func (v Verified) AppendKimiPart(dst []byte, p *kompact.Part) []byte {
	switch p.Type {
	case kompact.PartText:
		dst = append(dst, `{"type":"text","text":`...)
		dst = v.AppendString(dst, p.Text)
	case kompact.PartThink:
		dst = append(dst, `{"type":"think","think":`...)
		dst = jsonwrite.AppendString(dst, p.Think)
		dst = append(dst, `,"encrypted":`...)
		dst = jsonwrite.AppendStringOrNull(dst, p.Encrypted)
	case kompact.PartImage, kompact.PartAudio, kompact.PartVideo:
		dst = append(dst, `{"type":`...)
		dst = jsonwrite.AppendString(dst, string(p.Type))
		dst = append(dst, ',')
		dst = jsonwrite.AppendString(dst, string(p.Type))
		dst = append(dst, `:{"url":`...)
		dst = jsonwrite.AppendString(dst, p.URL)
		dst = append(dst, `,"id":`...)
		dst = jsonwrite.AppendStringOrNull(dst, p.MediaID)
		dst = append(dst, '}')
	case kompact.PartData:
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonwrite.AppendString(dst, string(p.Data))
	}
	return append(dst, '}')
}
