package kompact

// DecodeSessionPrecisely and ScanSession let the tests hold the fast pass
// to the precise decoder.
var (
	DecodeSessionPrecisely = decodeSessionPrecisely
	ScanSession            = scanSession
	ScanSessionSplit       = scanSessionSplit
)
