// GITHUB_API_URL's one rule, which config (before any request) and ghapi
// (when it builds a client) both apply: what the value may be, in one
// wording, and how it is quoted in a message without the credentials a user
// may have put into it.

package api

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// DefaultURL is github.com's API root, taken for an empty value.
const DefaultURL = "https://api.github.com"

// ParseURL checks v, GITHUB_API_URL, and returns it as the base of every
// request, ending in /. Empty means github.com. It is taken as it is, as
// Octokit does: the runner sets it to the API root (https://HOST/api/v3 on
// Enterprise Server). The error's text is what is wrong with the value, with
// any user:password@ part hidden: it is printed before the token is masked,
// and that part may be a token or a password.
func ParseURL(v string) (*url.URL, error) {
	api := strings.TrimRight(v, "/")
	if api == "" {
		api = DefaultURL
	}
	const want = "want an absolute http or https URL without credentials, such as https://github.example.com/api/v3, got %q"
	base, err := url.Parse(api + "/")
	switch {
	case err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "":
		var hint string
		if strings.TrimSpace(v) != v {
			hint = ": remove the spaces around it"
		}
		if RedactURL(v) != v {
			hint += ": remove the user:password@ part, the token is passed as repo-token or GITHUB_TOKEN"
		}
		return nil, fmt.Errorf(want+hint, RedactURL(v))
	case base.User != nil:
		// The URL ends up in messages and logs, and the token is the only
		// credential the API needs.
		return nil, fmt.Errorf(want+": remove the user:password@ part, the token is passed as repo-token or GITHUB_TOKEN", RedactURL(v))
	}
	return base, nil
}

// RedactURL replaces the user:password@ part of a URL-like string with ***@,
// also when the string does not parse, so that it can go into a message. The
// authority is taken to start after the scheme and any number of slashes
// (http:/u:p@h and http:///u:p@h are typos a user makes, and url.Parse reads
// their credentials as a path), and to end at the next /, ? or #.
//
// What comes before the first letter (a space, a quote: " http://u:p@h")
// is kept as it is and the rest redacted, so a stray character never
// shows a password.
func RedactURL(s string) string {
	lead := strings.IndexFunc(s, isLetter)
	if lead < 0 {
		return s
	}
	prefix, rest := s[:lead], s[lead:]
	if m := schemeSlashes.FindString(rest); m != "" {
		prefix, rest = prefix+m, rest[len(m):]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		rest = "***@" + rest[at+1:]
	}
	return prefix + rest
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// schemeSlashes is a URL's scheme with the slashes after it; at least one,
// so that user:password@host is not read as the scheme "user".
var schemeSlashes = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:/+`)
