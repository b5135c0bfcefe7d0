// Package apiurl is GITHUB_API_URL's one rule, which config (before any
// request) and ghapi (when it builds a client) both apply: what the value
// may be, in one wording, and how it is quoted in a message without the
// credentials a user may have put into it.
package apiurl
