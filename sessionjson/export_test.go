package sessionjson

// ScanSession and ScanSessionSplit let the tests hold the fast pass to the
// reference decoder.
var (
	ScanSession      = scanSession
	ScanSessionSplit = scanSessionSplit
)
