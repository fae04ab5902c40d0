package kompact

import "strings"

// RedactURL returns s fit to show in an error, a fix or a log line: the
// query string and fragment are replaced by "?REDACTED" (a query may hold
// a key, whatever its parameters are called), and a user name or password
// by "REDACTED@". Everything else (scheme, host, port, path) stays, so the
// reader still sees which endpoint is meant.
func RedactURL(s string) string {
	out := s
	cut := strings.IndexAny(out, "?#")
	if cut >= 0 {
		out = out[:cut]
	}
	if scheme := strings.Index(out, "://"); scheme >= 0 {
		rest := out[scheme+3:]
		authority := rest
		if slash := strings.IndexByte(rest, '/'); slash >= 0 {
			authority = rest[:slash]
		}
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			out = out[:scheme+3] + "REDACTED@" + rest[at+1:]
		}
	}
	if cut >= 0 {
		out += "?REDACTED"
	}
	return out
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
