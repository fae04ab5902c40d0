// Package kimicode is Kimi Code 2.1.0's compaction (npm @moonshot-ai/kimi-code), exact
// to what it sends and writes: its session files (agents/main/wire.jsonl folded into the
// agent's context, wire.go), the compaction request (request.go), the rebuilt context
// (handoff.go), the records a compaction appends (records.go), its estimator
// (estimate.go) and trigger (trigger.go), and its texts, read from a Kimi Code
// installation and known by SHA-256 (texts.go). docs/kimi-code.md says what is exact and
// what differs.
package kimicode
