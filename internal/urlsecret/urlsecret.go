package urlsecret

import "strings"

// RedactURL returns s fit to show in an error, a fix or a log line. Its
// user info, everything between "scheme://" (or the start, without one)
// and the last '@' before the path's '/', becomes "REDACTED@": the last
// '@', so that a password holding an unencoded '@', '?' or '#' shows no
// part of itself. Then the query string and fragment are replaced by
// "?REDACTED" (a query may hold a key, whatever its parameters are
// called). When the user info held a '?' or '#', what follows its '@' may
// be the tail of a query instead, so nothing after the scheme is shown.
// Everything else (scheme, host, port, path) stays, so the reader still
// sees which endpoint is meant.
func RedactURL(s string) string {
	head, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		head, rest = s[:i+3], s[i+3:]
	}
	authority := rest
	if slash := strings.IndexByte(rest, '/'); slash >= 0 {
		authority = rest[:slash]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		if strings.ContainsAny(authority[:at], "?#") {
			return head + "REDACTED"
		}
		head, rest = head+"REDACTED@", rest[at+1:]
	}
	if cut := strings.IndexAny(rest, "?#"); cut >= 0 {
		rest = rest[:cut] + "?REDACTED"
	}
	return head + rest
}

// secretWords are the parts of a query parameter's name that mark it as a
// credential.
var secretWords = []string{"key", "token", "secret", "password", "passwd", "auth", "signature", "credential"}

// SecretQueryParam returns the name of the first query parameter of the URL
// s whose name says it holds a credential (it contains key, token, secret,
// password, auth, signature or credential, in any case, e.g. api_key,
// access_token, X-Amz-Signature), or "" when there is none. A credential
// in a URL ends up in logs, proxies and error messages; it belongs in an
// environment variable.
func SecretQueryParam(s string) string {
	_, query, ok := strings.Cut(s, "?")
	if !ok {
		return ""
	}
	query, _, _ = strings.Cut(query, "#")
	for param := range strings.SplitSeq(query, "&") {
		name, _, _ := strings.Cut(param, "=")
		lower := strings.ToLower(name)
		for _, w := range secretWords {
			if strings.Contains(lower, w) {
				return name
			}
		}
	}
	return ""
}
