package storeutil

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"kompact"
)

// Migration is one embedded schema change, applied once and recorded in a
// store's schema_migrations table.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads the files of dir in fsys, each named "N_what.sql"
// with N a positive version, and returns them ordered by version. Two
// files with one version are an error.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: the name must start with a positive number and an underscore", e.Name())
		}
		body, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s have the same version", ms[i-1].Name, ms[i].Name)
		}
	}
	return ms, nil
}

// Migrator is the transaction a store's migrations run in.
type Migrator interface {
	// Applied returns the versions schema_migrations records.
	Applied(ctx context.Context) ([]int, error)
	// Apply runs m's SQL and records m in schema_migrations.
	Apply(ctx context.Context, m Migration) error
}

// Migrate applies each migration of fsys's folder "migrations" (see
// LoadMigrations) the database lacks, in order, even one numbered below
// the newest applied (branches add them in any order). A database with a
// version newer than the files know is refused, with fix.
func Migrate(ctx context.Context, tx Migrator, fsys fs.FS, fix string) error {
	ms, err := LoadMigrations(fsys, "migrations")
	if err != nil {
		return err
	}
	applied, err := tx.Applied(ctx)
	if err != nil || len(ms) == 0 {
		return err
	}
	has := make(map[int]bool, len(applied))
	latest := 0
	for _, v := range applied {
		has[v], latest = true, max(latest, v)
	}
	if known := ms[len(ms)-1].Version; latest > known {
		return kompact.Errorf(kompact.EInternal, "the database has schema version %d, newer than this kompact knows (%d)", latest, known).
			WithFixes(fix)
	}
	for _, m := range ms {
		if has[m.Version] {
			continue
		}
		if err := tx.Apply(ctx, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	return nil
}
