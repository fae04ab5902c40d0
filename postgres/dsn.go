package postgres

// This file tells a PostgreSQL URL from anything else, shows one without
// its secrets, and sizes the connection pool.

import (
	"net/url"
	"regexp"
	"runtime"
	"strings"
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

// Redacted returns db fit to show in a banner, a log line or an error:
// the password of its user info and the values of query parameters that
// name a secret (password, sslpassword, ...) are masked. A string that
// does not parse as a URL is shown only as "PostgreSQL".
func Redacted(db string) string {
	u, err := url.Parse(db)
	if err != nil || !IsURL(db) {
		return "PostgreSQL"
	}
	if q := u.Query(); len(q) > 0 {
		masked := false
		for name := range q {
			if secretParam(name) {
				q.Set(name, "xxxxx")
				masked = true
			}
		}
		if masked {
			u.RawQuery = q.Encode()
		}
	}
	return u.Redacted()
}

// secretParam reports whether a query parameter holds a secret.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"password", "passwd", "secret", "token", "key"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
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
