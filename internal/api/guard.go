package api

import "context"

// guardKey marks a context whose write is guarded by a read.
type guardKey struct{}

// Guarded returns a context whose write is sent only while check, a read,
// passes: the adapter runs it right before the write and again before
// every retry of it, after every wait (the write pace, a backoff, a
// secondary limit), so no try of the write rests on what was read before
// a wait. check's error stops the write unsent and is the write's error.
// GitHub has no conditional write for what such a read guards (a
// branch's deletion takes no expected commit), so reading again is the
// only way to send a retry on what is true when it goes.
func Guarded(ctx context.Context, check func(context.Context) error) context.Context {
	return context.WithValue(ctx, guardKey{}, check)
}

// Guard runs ctx's check (Guarded), if it has one; the adapter calls it
// right before each try of a write. The check's own requests are not
// guarded.
func Guard(ctx context.Context) error {
	check, _ := ctx.Value(guardKey{}).(func(context.Context) error)
	if check == nil {
		return nil
	}
	return check(context.WithValue(ctx, guardKey{}, nil))
}
