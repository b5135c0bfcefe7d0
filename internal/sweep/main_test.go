package sweep_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage at GOGC=400 unless GOGC says otherwise. These
// tests allocate gigabytes of short-lived JSON (every listing page encoded
// by the fake GitHub and decoded by the client, each with its repositories
// twice per PR); at the default 100 about a fifth of their CPU went to
// collecting it. The heap stays near 200 MB. BenchmarkRun measures at the
// default, as a real run collects.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
