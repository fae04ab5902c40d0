package kompact

import "fmt"

// MaxSessionIDLen is the longest session id, in bytes.
const MaxSessionIDLen = 128

// SessionIDRule says which session ids are valid; errors quote it.
const SessionIDRule = "a session id is 1 to 128 bytes of ASCII letters, digits, '-', '_', '.' and ':', and is not \".\" or \"..\""

// ValidateSessionID reports whether id may name a session: it must be 1 to MaxSessionIDLen
// bytes of ASCII letters, digits, '-', '_', '.' and ':', and not "." or ".." (which no URL path
// can reach). The error is an EInvalid one that states the rule.
func ValidateSessionID(id string) error {
	switch {
	case id == "":
		return Errorf(EInvalid, "the session id is empty; %s", SessionIDRule).
			WithFixes("Give the session an id that follows the rule, or none to let the server assign one.")
	case len(id) > MaxSessionIDLen:
		return Errorf(EInvalid, "the session id is %d bytes long; %s", len(id), SessionIDRule).
			WithFixes("Use a shorter id.")
	case id == "." || id == "..":
		return Errorf(EInvalid, "the session id %q is reserved; %s", id, SessionIDRule).
			WithFixes("Use another id.")
	}
	for i := 0; i < len(id); i++ {
		if !sessionIDByte(id[i]) {
			return Errorf(EInvalid, "the session id has %s at offset %d, which is not allowed; %s", byteName(id[i]), i, SessionIDRule).
				WithFixes("Use only letters, digits, '-', '_', '.' and ':' in session ids.")
		}
	}
	return nil
}

// byteName names a byte for an error: a printable ASCII character with its code ("'/' (byte
// 0x2f)"), any other byte by its code alone.
func byteName(c byte) string {
	if ' ' <= c && c <= '~' {
		return fmt.Sprintf("%q (byte 0x%02x)", rune(c), c)
	}
	return fmt.Sprintf("a byte 0x%02x", c)
}

func sessionIDByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c == '-' || c == '_' || c == '.' || c == ':'
}
