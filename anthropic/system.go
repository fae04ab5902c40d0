package anthropic

import (
	"crypto/sha256"
	"encoding/json"
)

// SystemDigest is the SHA-256 of the request's top-level "system" in the
// normal form its messages are digested in (a string is one text block,
// cache_control dropped, keys sorted), so that the gateway can tell two
// applications' conversations apart by their system prompts; false when
// the request has none.
func (r *Request) SystemDigest() ([32]byte, bool) {
	if len(r.system) == 0 || string(r.system) == "null" {
		return [32]byte{}, false
	}
	raw, _ := json.Marshal(wireMessage{Role: "system", Content: r.system})
	return sha256.Sum256(normalMessage(raw)), true
}
