//go:build release

package sandbox

import (
	"errors"
	"time"

	"github.com/stalepr/stalepr/internal/config"
)

// Open says the sandbox is not in release builds (the action's image, the
// release archives): they carry no fake GitHub. It runs from a checkout:
// go run . -sandbox testdata/sandbox.
func Open(dir string, now time.Time, flags config.Source, synthetic int) (*Sandbox, error) {
	return nil, errors.New("this build has no sandbox (release builds carry no fake GitHub): run it from a checkout of stalepr, go run . -sandbox testdata/sandbox")
}
