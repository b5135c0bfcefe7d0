package api

import "context"

// reserveKey marks a context whose requests may spend rate-limit-reserve.
type reserveKey struct{}

// MayUseReserve returns a context whose requests may go below
// rate-limit-reserve, down to the last request of the window (never past
// it). It is for the sweep's clean-up of its own duplicates: a bounded
// handful of requests that keep a promise even when a concurrent run spent
// the shared limit. operations-per-run, dry run and a stop on a limit GitHub
// enforced still hold.
func MayUseReserve(ctx context.Context) context.Context {
	return context.WithValue(ctx, reserveKey{}, true)
}

// ReserveAllowed reports whether ctx came from MayUseReserve; the adapter
// reads it.
func ReserveAllowed(ctx context.Context) bool {
	ok, _ := ctx.Value(reserveKey{}).(bool)
	return ok
}
