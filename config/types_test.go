package config_test

// The compaction types the configuration's tests expect registered: a
// program links the types it runs (kompact/service links every one).
import _ "kompact/kimi"
