// Package sessionjson reads kompact's session and message JSON in one pass,
// several times faster than the root's reference decoders, and gives the
// same values: the same session, message or error, word for word, for any
// input. Whatever its fast pass is not sure about (an error, a rare form) it
// hands to the reference decoder. The fuzzers FuzzDecodeSession,
// FuzzDecodeStoredMessage (DecodeStoredMessage and DecodeOwnedMessage) and
// FuzzSessionStream hold it to that.
//
// It also holds what the speed rests on: Verified, which lets the openai
// request encoder copy the texts decoded from a document without checking
// them again, and kimi-cli's form of a content part (AppendKimiPart), which
// kimi-cli's context.jsonl and the chat-completions wire share.
//
// # Decoding a message, and who owns the memory
//
// In the root package (the reference; nothing shares the input's memory,
// which stays the caller's):
//
//   - kompact.DecodeMessage (and Message.UnmarshalJSON): one message.
//   - kompact.DecodeSession: a session document.
//
// In this package, which a caller imports to opt into sharing:
//
//   - DecodeSession: a session document held whole in memory. Strings that
//     stood in it without escapes, and data and extras values that were
//     already compact, share data's memory: data must never be modified
//     afterwards. VerifiedDocument(data) then lets the request encoder copy
//     those texts unchecked (openai.WithVerified).
//   - DecodeSessionUTF8: DecodeSession for bytes not known to be UTF-8 (a
//     request body): it reports invalid UTF-8 instead of reading it with the
//     bad bytes replaced. Same memory rule.
//   - MessageScanner: messages read one after another (the lines of a
//     kimi-cli context.jsonl), fast pass only: it reports false when it is
//     not sure, and the caller then uses kompact.DecodeMessage. A message
//     shares its line's memory, and the parts of successive messages share
//     allocations (each message's capped, so an append never reaches
//     another's).
//   - DecodeStoredMessage: one message from a buffer its owner reuses (a
//     database driver's, pgx's). It copies: nothing shares data's memory.
//   - DecodeOwnedMessage: one message from a buffer the caller gives up (a
//     row's own, as SQLite's driver allocates one per row). The message
//     is that buffer: its strings and raw values share data's memory, and
//     strings with escapes are decoded in place, over their escaped form,
//     so the caller must neither read nor change data afterwards. Its scan
//     writes nothing: when the fast pass gives up, the reference decoder
//     reads data as it was given; only a message the scan read whole has
//     its escaped strings decoded (jsonscan.Cursor.Defer, jsonscan.Unescape).
//   - SessionStream: a session document read from an io.Reader a batch of
//     messages at a time. The messages share only the stream's own buffers,
//     never the caller's memory, and each batch stays valid after the next
//     is read.
package sessionjson
