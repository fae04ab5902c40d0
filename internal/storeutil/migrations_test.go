package storeutil

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadMigrations(t *testing.T) {
	ms, err := LoadMigrations(fstest.MapFS{
		"m/10_later.sql": {Data: []byte("B")},
		"m/2_first.sql":  {Data: []byte("A")},
	}, "m")
	if err != nil || len(ms) != 2 || ms[0].Version != 2 || ms[0].SQL != "A" || ms[1].Name != "10_later.sql" {
		t.Fatalf("LoadMigrations = %+v, %v; want 2_first then 10_later", ms, err)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"same version": {"m/1_a.sql": {}, "m/01_b.sql": {}},
		"no number":    {"m/init.sql": {}},
		"zero":         {"m/0_init.sql": {}},
	} {
		if _, err := LoadMigrations(fsys, "m"); err == nil || !strings.Contains(err.Error(), "migration") {
			t.Errorf("%s: err = %v, want a migration error", name, err)
		}
	}
}
