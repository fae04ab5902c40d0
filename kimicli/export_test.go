package kimicli

// SetCrashHook lets tests stop RewriteContext at a step.
func SetCrashHook(fn func(step string)) { crashHook = fn }

// ParseContextPrecisely reads a file without the one-pass message reading.
func ParseContextPrecisely(data []byte) *ContextFile { return parseContext(data, false) }
