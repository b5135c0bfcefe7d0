package api

import "time"

// Usage is what the run spent, for the summary.
type Usage struct {
	Requests      int
	Writes        int
	ByRoute       map[string]int
	RateLimit     int // 0: unknown
	RateRemaining int // -1: unknown
	// GraphQL: the queries sent (counted in Requests too) and the points
	// they cost, from GitHub's rateLimit answer; the points bucket's limit
	// (0: unknown) and what is left of it (-1: unknown).
	Queries         int
	Points          int
	PointsLimit     int
	PointsRemaining int
	// At is the transport's clock when the usage was taken, and
	// WriteInterval the pace it writes at then (write-interval, slowed by
	// each secondary limit): a fresh read's facts age by the waits too
	// (sweep's fresh.go), not only by the writes counted.
	At            time.Time
	WriteInterval time.Duration
}

// Issue is an issue (never a pull request) as an update needs it.
type Issue struct {
	Number int
	Title  string
	Body   string
	URL    string
	State  string // open | closed
	Author string
	Labels []string
}
