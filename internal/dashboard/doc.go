// Package dashboard owns the dashboard issue's text and the update it calls
// for (input dashboard-issue), with no I/O: the hidden markers around the
// block stalepr writes (a contract every version keeps reading), the merge
// of a new block into a body people edit too, which labelled issues are
// ours, and Decide: create once, edit in place only when the content
// changed, leave alone what a person closed or unmarked, close the copies
// two runs at once made.
//
// What the block holds is rendered by report.Dashboard; the sweep reads the
// labelled issues and sends the update's writes through its one executor
// (internal/sweep/dashboard.go), as it does every pull request's.
package dashboard
