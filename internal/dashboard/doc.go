// Package dashboard keeps one living issue up to date with the queue of open
// pull requests (input dashboard-issue): created once, found again with one
// request, edited in place only when its content changed, never a second
// one, and never a change to what people wrote outside its marked block.
//
// What the block holds is rendered by report.Dashboard; this package owns
// the block's markers, the merge into a body, and the few requests of one
// update, run after the sweep.
package dashboard
