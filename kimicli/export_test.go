package kimicli

// SetCrashHook lets tests stop RewriteContext at a step.
func SetCrashHook(fn func(step string)) { crashHook = fn }
