package kimicli

// SetCrashHook lets tests stop RewriteContext at a step.
func SetCrashHook(fn func(step string)) { crashHook = fn }

// ParseContextPrecisely reads a file without the one-pass message reading.
func ParseContextPrecisely(data []byte) *ContextFile { return parseContext(data, false, 0) }

// ParseContextSplit reads a file in two halves at once, the second
// starting at mid (the start of a line).
func ParseContextSplit(data []byte, mid int) *ContextFile { return parseContext(data, true, mid) }

// MiddleLine is where ParseContext splits a large file.
func MiddleLine(data []byte) int { return middleLine(data) }
