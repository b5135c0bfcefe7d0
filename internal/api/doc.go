// Package api is the vocabulary every layer speaks about GitHub, on the
// ground floor below them: why a run stopped (Stop, StopError, IsStop), the
// refusals a sweep acts on (ErrWriteRefused...), a context that may spend
// the rate-limit reserve, what a run spent (Usage) and an issue (Issue).
// The sweep, the dashboard and the report read these from an adapter
// (ghapi, a test's fake) without importing it or each other; it imports
// only the standard library.
package api
