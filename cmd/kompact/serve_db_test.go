package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"kompact/internal/urlsecret"
	"kompact/postgres"
)

// TestServeDatabaseNames: what --db names is recognised before anything
// is opened: postgres:// in any case is PostgreSQL, a key=value
// connection string and other URLs are refused with a clear error that
// never repeats a password, and no file is created for any of them
// (issue 21, item 6).
func TestServeDatabaseNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tc := range []struct{ db, want string }{
		{"POSTGRES://u:s3cretpw@127.0.0.1:1/db?sslmode=disable&connect_timeout=1", "PostgreSQL"},
		{"PostgreSQL://u@127.0.0.1:1/db?password=s3cretpw&connect_timeout=1", "PostgreSQL"},
		{"host=127.0.0.1 port=1 user=u password=s3cretpw dbname=db", "key=value connection string"},
		{"  password=s3cretpw host=db", "key=value connection string"},
		{"mysql://u:s3cretpw@127.0.0.1/db", "not a postgres:// one"},
		{"https://example.com/db?token=s3cretpw", "not a postgres:// one"},
		// Issue 29: a password with an unencoded @ (the driver would take
		// its tail for the host and print it), and postgres: typos, once
		// taken for SQLite file names and printed whole in the banner.
		{"postgres://app:pw@s3cretpw@127.0.0.1:1/db?connect_timeout=1", "more than one @"},
		{"postgres:/app:s3cretpw@127.0.0.1/db", "not a postgres:// URL"},
		{"postgres:app:s3cretpw@127.0.0.1/db", "not a postgres:// URL"},
		{"PostgreSQL:s3cretpw", "not a postgres:// URL"},
	} {
		_, _, err := openStore(context.Background(), tc.db, 0, 0)
		if err == nil {
			t.Errorf("%q: opened", tc.db)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "s3cretpw") {
			t.Errorf("%q: %v", tc.db, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files created: %v", entries)
	}
}

// TestPostgresRedacted: the banner shows a PostgreSQL URL as
// urlsecret.RedactURL does (the one rule for a URL's secrets): without its
// user info and query, whatever characters the password holds.
func TestPostgresRedacted(t *testing.T) {
	for db, want := range map[string]string{
		"postgres://u:pw@h:5432/db":                     "postgres://REDACTED@h:5432/db",
		"postgres://u@h/db?password=pw&sslmode=disable": "postgres://REDACTED@h/db?REDACTED",
		"postgres://h/db?sslmode=require":               "postgres://h/db?REDACTED",
		"postgres://h:5432/db":                          "postgres://h:5432/db",
	} {
		if got := urlsecret.RedactURL(db); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", db, got, want)
		}
	}
	for db, want := range map[string]bool{"postgres://h/db": true, "POSTGRES://h/db": true, "PostgreSQL://h": true,
		"postgresx://h": false, "k.db": false, "./postgres://": false} {
		if postgres.IsURL(db) != want {
			t.Errorf("IsURL(%q) = %v", db, !want)
		}
	}
	for db, want := range map[string]bool{"postgres:/h/db": true, "POSTGRESQL:x": true, "postgres://h": true,
		"postgresx:h": false, "./postgres:x": false, "k.db": false} {
		if postgres.NamesPostgres(db) != want {
			t.Errorf("NamesPostgres(%q) = %v", db, !want)
		}
	}
}
