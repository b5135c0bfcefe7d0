package testenv

import (
	"os"
	"runtime/debug"
)

// The test binaries that import this package collect garbage at GOGC=400
// unless GOGC says otherwise. Their tests allocate a great deal of
// short-lived memory (every listing page encoded by the fake GitHub and
// decoded by the client, summaries of 50,000 PRs, goldens): at the default
// 100 about a fifth of their CPU went to collecting it. The heap of the
// largest (the sweep's) stays near 200 MB. A benchmark that measures a real
// run's heap sets the default back itself (sweep's BenchmarkRun).
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
