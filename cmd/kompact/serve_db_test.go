package main

import (
	"context"
	"os"
	"strings"
	"testing"

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

// TestPostgresRedacted: the banner's form of a PostgreSQL URL masks the
// user-info password and every secret query parameter.
func TestPostgresRedacted(t *testing.T) {
	for db, want := range map[string]string{
		"postgres://u:pw@h:5432/db":                                "postgres://u:xxxxx@h:5432/db",
		"postgres://u@h/db?password=pw&sslmode=disable":            "postgres://u@h/db?password=xxxxx&sslmode=disable",
		"POSTGRESQL://u@h/db?sslpassword=pw&PassWord=pw":           "postgresql://u@h/db?PassWord=xxxxx&sslpassword=xxxxx",
		"postgres://h/db?sslmode=require&application_name=kompact": "postgres://h/db?sslmode=require&application_name=kompact",
		"postgres://[bad": "PostgreSQL",
	} {
		if got := postgres.Redacted(db); got != want {
			t.Errorf("Redacted(%q) = %q, want %q", db, got, want)
		}
	}
	for db, want := range map[string]bool{"postgres://h/db": true, "POSTGRES://h/db": true, "PostgreSQL://h": true,
		"postgresx://h": false, "k.db": false, "./postgres://": false} {
		if postgres.IsURL(db) != want {
			t.Errorf("IsURL(%q) = %v", db, !want)
		}
	}
}
