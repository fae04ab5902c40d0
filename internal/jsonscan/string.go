package jsonscan

import "unsafe"

// StringCursor returns an aliasing Cursor over the JSON text s, which it
// reads in place rather than copying it into a byte slice: a Cursor never
// writes its text, and the strings it returns share s's memory.
func StringCursor(s string) Cursor {
	return Cursor{B: unsafe.Slice(unsafe.StringData(s), len(s)), Alias: true}
}
