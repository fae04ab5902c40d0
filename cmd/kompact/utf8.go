package main

import (
	"bytes"
	"fmt"

	"kompact"
	"kompact/internal/jsontext"
	"kompact/sessionjson"
)

// checkSessionUTF8 refuses a session document that is not valid UTF-8,
// naming the first bad byte and the message it sits in: read on, its
// bytes would become U+FFFD, and what the command writes or sends would no
// longer be what the file says (README: text that is not UTF-8 is
// refused). Nothing is written or sent.
func checkSessionUTF8(path string, data []byte) error {
	at := jsontext.FirstBadUTF8(data)
	if at < 0 {
		return nil
	}
	return notUTF8(path, int64(at), sessionjson.MessageAt(bytes.NewReader(data), int64(at)))
}

// checkLinesUTF8 is checkSessionUTF8 for a file of one JSON record a line
// (a kimi-cli context.jsonl): the error names the line.
func checkLinesUTF8(path string, data []byte) error {
	at := jsontext.FirstBadUTF8(data)
	if at < 0 {
		return nil
	}
	return notUTF8(path, int64(at), fmt.Sprintf("line %d", sessionjson.LineAt(data, at)))
}

// checkUTF8Input is checkLinesUTF8 for a kimi-cli file (kimi), else
// checkSessionUTF8.
func checkUTF8Input(path string, data []byte, kimi bool) error {
	if kimi {
		return checkLinesUTF8(path, data)
	}
	return checkSessionUTF8(path, data)
}

// notUTF8 is the error of a file not valid UTF-8 from byte at on, in
// where ("messages[3]", "line 4", or "" when it is outside them).
func notUTF8(path string, at int64, where string) error {
	in := ""
	if where != "" {
		in = ", in " + where
	}
	return kompact.Errorf(kompact.EInvalid, "%s is not valid UTF-8 (at byte %d%s); nothing was read from it", inputName(path), at, in).
		WithFixes("Save the file as UTF-8: kompact keeps a session's text as it is, and would otherwise have to replace the bytes with U+FFFD. Encode binary payloads (e.g. as base64) before putting them in a message.")
}
