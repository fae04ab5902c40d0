package postgres

// This file tells a PostgreSQL URL from anything else, refuses one whose
// password would show, and sizes the connection pool.

import (
	"net/url"
	"regexp"
	"runtime"
	"strings"

	"kompact"
)

// IsURL reports whether db names a PostgreSQL database rather than a
// file: a postgres:// or postgresql:// URL, the scheme in any case.
func IsURL(db string) bool {
	scheme, _, ok := strings.Cut(db, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// normalizeScheme lower-cases the scheme of a URL IsURL accepts, which
// pgx recognises only in lower case.
func normalizeScheme(db string) string {
	scheme, rest, _ := strings.Cut(db, "://")
	return strings.ToLower(scheme) + "://" + rest
}

// connKeyword matches the start of a libpq key=value setting.
var connKeyword = regexp.MustCompile(`(?i)(^|\s)(host|hostaddr|port|dbname|user|password|passfile|sslmode|sslrootcert|sslcert|sslkey|sslpassword|connect_timeout|application_name|options|service|target_session_attrs)\s*=`)

// IsConnString reports whether db looks like a libpq key=value connection
// string ("host=db user=app password=..."), which kompact does not take:
// it is refused rather than mistaken for a file name.
func IsConnString(db string) bool { return connKeyword.MatchString(db) }

// LooksLikeURL reports whether db has a URL's scheme ("name://"), of any
// kind: never a file to create.
func LooksLikeURL(db string) bool {
	scheme, _, ok := strings.Cut(db, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, `/\`)
}

// NamesPostgres reports whether db begins with a postgres: or postgresql:
// scheme, in any case, well formed or not: a PostgreSQL database meant,
// never a file to create. One that is not a postgres:// URL (IsURL), such
// as postgres:/app:pw@host/db, is a typo to refuse.
func NamesPostgres(db string) bool {
	scheme, _, ok := strings.Cut(db, ":")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// checkAt refuses a URL holding more than one '@': the driver (as libpq)
// ends the user info at the first '@', so the rest of a password holding
// an unencoded '@' would become the host, and every connection error would
// show it. The error does not repeat the URL.
func checkAt(db string) error {
	if strings.Count(db, "@") <= 1 {
		return nil
	}
	return kompact.Errorf(kompact.EInvalid, "the PostgreSQL URL holds more than one @, so where its password ends is unclear").
		WithFixes("Write each @ inside the user name, password, database name or a parameter as %40: postgres://app:p%40ss@db-host:5432/kompact.")
}

// DefaultMaxConns sizes the connection pool from the machine: four
// connections per CPU, at least 16 and at most 64. (pgx's own default,
// one per CPU and at least 4, makes requests queue for a connection at a
// few dozen clients.)
func DefaultMaxConns() int32 { return int32(min(max(4*runtime.NumCPU(), 16), 64)) }

// MaxConns sizes the store's connection pool: n connections at most. 0
// (or less) keeps the URL's pool_max_conns, else DefaultMaxConns.
func MaxConns(n int) Option { return func(s *Store) { s.maxConns = int32(max(n, 0)) } }

// poolSize returns the pool size for the URL db, whose pool_max_conns
// pgx read as parsed.
func (s *Store) poolSize(db string, parsed int32) int32 {
	if s.maxConns > 0 {
		return s.maxConns
	}
	if u, err := url.Parse(db); err == nil && u.Query().Has("pool_max_conns") {
		return parsed
	}
	return DefaultMaxConns()
}
