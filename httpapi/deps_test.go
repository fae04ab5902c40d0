package httpapi_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTransportDependencies keeps httpapi a transport: it reaches agents
// through kompact.Agents and kimi-cli files through Config.KimiContext,
// which cmd/kompact wires in, so it depends on neither the configuration
// nor kimicli, even indirectly.
func TestTransportDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "kompact/httpapi").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "kompact/config" || dep == "kompact/kimicli" {
			t.Errorf("httpapi depends on %s", dep)
		}
	}
}
