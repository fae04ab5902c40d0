package kompact_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreDependencies keeps the root package pure: no file system,
// network or database access, no readers or writers (io), no unsafe, and a
// short list of imports. Which kompact packages it may import (only pure
// kompact/internal ones, and no third-party module even indirectly) is the
// layering table's (internal/layering).
func TestCoreDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "kompact").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	direct := strings.Fields(string(out))
	for _, imp := range direct {
		switch {
		case imp == "os", strings.HasPrefix(imp, "os/"), imp == "io/fs", imp == "syscall",
			imp == "net", strings.HasPrefix(imp, "net/"), strings.HasPrefix(imp, "database/"):
			t.Errorf("the core package imports %s; keep I/O in a sub-package", imp)
		case imp == "io":
			t.Errorf("the core package imports io; readers and writers (streaming decoders, encoders) belong in sessionjson or openai")
		case imp == "unsafe":
			t.Errorf("the core package imports unsafe; memory tricks (strings sharing their input) belong in sessionjson or internal/jsonscan")
		}
	}
	out, err = exec.Command("go", "list", "-deps", "kompact").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || dep == "database/sql" || dep == "net" || dep == "os/exec" {
			t.Errorf("the core package depends on %s, even if indirectly", dep)
		}
	}
	if len(direct) > 14 {
		t.Errorf("the core package imports %d packages (%v); keep the list short", len(direct), direct)
	}
}
