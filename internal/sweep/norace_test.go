//go:build !race

package sweep_test

const raceOn = false
