//go:build race

package fakegithub

func init() { raceEnabled = true }
