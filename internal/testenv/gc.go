package testenv

import (
	"os"
	"runtime/debug"
)

// The test binaries that import this package collect garbage at GOGC=1000,
// within a soft memory limit of 512 MiB, unless GOGC or GOMEMLIMIT say
// otherwise. Their tests allocate a great deal of short-lived memory
// (every listing page encoded by the fake GitHub and decoded by the client,
// summaries of 50,000 PRs, goldens): at the default GOGC about a fifth of
// their CPU went to collecting it, at 400 a tenth. The limit keeps the load
// tests (go test ./..., the race detector's runs) near the half a gigabyte
// they took at 400, while -short's stay under 200 MB resident. A benchmark
// that measures a real run's heap sets the default back itself (sweep's
// BenchmarkRun).
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(1000)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}
