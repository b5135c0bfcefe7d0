//go:build !release

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
)

// Open loads the sample in dir (repo.json, and inputs.json for inputs
// the command line does not set) into a fake GitHub at time now and starts
// serving it. flags are the command line's inputs. Close it when done.
func Open(dir string, now time.Time, flags config.Source, synthetic int) (*Sandbox, error) {
	fake, err := fakegithub.LoadFile(filepath.Join(dir, "repo.json"), now)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w (the directory needs repo.json, as testdata/sandbox has)", err)
	}
	if synthetic > 0 {
		// A busy queue on the day of a switch from actions/stale: its
		// marks, its closes to audit, forks among the rest.
		fake.AddSynthetic(synthetic, syntheticSeed)
		fake.AddStaleBotHistory(syntheticSeed)
	}
	fake.SetToken(sandboxToken)
	inputs, err := readInputs(dir)
	if err != nil {
		return nil, err
	}
	// Links name a host that cannot exist (RFC 2606) rather than the local
	// port, which is gone when the run ends.
	fake.SetWebURL(Web)
	srv := httptest.NewServer(fake)
	env := map[string]string{
		config.EnvToken:      sandboxToken,
		config.EnvRepository: fake.FullName(),
		config.EnvAPIURL:     srv.URL + "/api/v3",
	}
	src := config.Source{
		// Nothing from the real environment: a sandbox run can reach no
		// other GitHub and show no real token.
		Env:   func(name string) string { return env[name] },
		Input: config.FirstOf(flags.Input, config.InputMap(inputs)),
		Given: func() []string { return slices.Sorted(maps.Keys(inputs)) },
	}
	return &Sandbox{Src: src, Clock: fake.Clock(), srv: srv, dir: dir, repo: fake.FullName()}, nil
}

const sandboxToken = "sandbox-token"

// syntheticSeed makes -sandbox-synthetic N the same queue on every run.
const syntheticSeed = 24

// readInputs reads the sample's inputs.json, if there is one.
func readInputs(dir string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "inputs.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var inputs map[string]string
	if err == nil {
		err = json.Unmarshal(data, &inputs)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox inputs: %w", err)
	}
	return inputs, nil
}
