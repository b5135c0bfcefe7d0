//go:build race

package sweep_test

// raceOn: the race detector slows the HTTP round trips about fifteenfold;
// the many-try concurrency tests then run one try each.
const raceOn = true
