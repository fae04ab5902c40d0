package atomicfile

// SetCrashHook sets the function called at each step of a write.
func SetCrashHook(fn func(step string)) { crashHook = fn }
