package jsonwrite

// AppendPlain appends s between quotes as it is: the JSON form of a string
// the caller knows to be valid UTF-8 with no byte to escape (AppendString
// would write the same bytes, after checking).
func AppendPlain(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
