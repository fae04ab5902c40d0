package kimicode_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact/internal/testing/testenv"
	"kompact/kimicode"
)

// TestBundleTexts (KCP-010, as for kimi-cli's prompt): the texts kompact reads from a Kimi
// Code 2.1.0 installation ($KIMI_CODE_PATH, its package folder) are those of
// ../shared/kimi-code/texts, known by their SHA-256.
func TestBundleTexts(t *testing.T) {
	_, raw := sharedTexts(t)
	dir := os.Getenv("KIMI_CODE_PATH")
	testenv.Require(t, dir != "", "KIMI_CODE_PATH is not set",
		"install Kimi Code 2.1.0 (bash .ci/kimi-code.sh) and set KIMI_CODE_PATH to its package folder")
	texts, warning := (&kimicode.Finder{Getenv: os.Getenv}).Find()
	if warning != "" || !texts.Genuine {
		t.Fatalf("Find: %s", warning)
	}
	for name, body := range texts.ByName() {
		if body != raw[name] {
			t.Errorf("%s read from %s differs from ../shared's", name, texts.Source)
		}
	}
}

// TestBuiltinTextsWarn: without an installation, kompact uses its own wording (not Kimi
// Code's: no pinned SHA-256) and says the request is not Kimi Code's; a bundle of another
// version is refused the same way.
func TestBuiltinTextsWarn(t *testing.T) {
	none := &kimicode.Finder{Getenv: func(string) string { return "" },
		NpmRoot: func() (string, error) { return "", errors.New("no npm") }}
	texts, warning := none.Find()
	if texts.Genuine || !strings.Contains(warning, "not Kimi Code's") || !strings.Contains(warning, "KIMI_CODE_PATH") {
		t.Fatalf("genuine=%v warning %q", texts.Genuine, warning)
	}
	if kimicode.NewTexts(kimicode.Builtin().ByName(), "").Genuine {
		t.Fatal("the built-in wording has Kimi Code's SHA-256s")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	os.WriteFile(filepath.Join(dir, "dist", "main.mjs"), []byte(`x = 1;
	compaction_instruction_default = "other ${custom_instruction_block}";
	compaction_summary_prefix_default = "p\n";
	context_recovery_footer_default = "f ${wire_path}\n${window_lines}";
	function buildCompactionElisionText(n) { return wrapSystemReminder(`+"`e ${String(n)} \\u00e9`"+`); }
	function buildCompactionContinuationText() { return wrapSystemReminder("c \"q\""); }`), 0o644)
	other := &kimicode.Finder{Getenv: func(string) string { return dir }}
	texts, warning = other.Find()
	if texts.Genuine || !strings.Contains(warning, "other SHA-256s") {
		t.Fatalf("another bundle: genuine=%v warning %q", texts.Genuine, warning)
	}
	read, err := kimicode.ReadBundle(filepath.Join(dir, "dist", "main.mjs"))
	if err != nil || read.Elision != "e ${omitted_tokens} é" || read.Continuation != `c "q"` || read.SummaryPrefix != "p\n" {
		t.Fatalf("ReadBundle: %v %+v", err, read)
	}
}
