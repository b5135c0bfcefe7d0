// Package api is the vocabulary every layer speaks about GitHub, on the
// ground floor below them: why a run stopped (Stop, StopError, IsStop), the
// refusals a sweep acts on (ErrWriteRefused...), a context that may spend
// the rate-limit reserve, what a run spent (Usage), an issue (Issue), and
// where requests go (ParseURL: GITHUB_API_URL's one rule, which config and
// ghapi both apply).
// The sweep, the dashboard and the report read these from an adapter
// (ghapi, a test's fake) without importing it or each other; it imports
// only the standard library.
package api
