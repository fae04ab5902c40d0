// Package kimicli is kompact's side of kimi-cli, the agent whose compaction
// kompact reproduces:
//
//   - its compaction prompt: Finder looks for compact.md where a kimi-cli
//     installation on this machine keeps it, ReadPromptFile reads one given
//     by path (prompt.go);
//   - its session files, context.jsonl: ParseContext reads one into a
//     ContextFile (messages, system prompt, checkpoints, usage, and the
//     lines it had to skip), CompactedFile and FileFromSession write one
//     byte for byte as kimi-cli does (context.go);
//   - rewriting a session file in place as kimi-cli does, keeping the old
//     file under its rotated name, atomically (rewrite.go).
package kimicli
