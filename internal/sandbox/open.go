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
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/event"
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
	return &Sandbox{Src: src, Clock: fake.Clock(), srv: srv, dir: dir, repo: fake.FullName(), happen: happen(fake)}, nil
}

// happen is Sandbox.Happen on fake.
func happen(fake *fakegithub.Server) func(event.Event, []byte) (string, error) {
	return func(ev event.Event, payload []byte) (string, error) {
		if !slices.ContainsFunc(fake.Issues(), func(is fakegithub.Issue) bool { return is.IsPR && is.Number == ev.Number }) {
			return "", fmt.Errorf("the %s event's pull request #%d is not in the sample: give the number of one of its pull requests", ev.Name, ev.Number)
		}
		var p struct {
			Comment *struct {
				Body string `json:"body"`
			} `json:"comment"`
			Review *struct {
				State string `json:"state"`
				Body  string `json:"body"`
			} `json:"review"`
		}
		if err := json.Unmarshal(payload, &p); err != nil {
			return "", fmt.Errorf("the %s event's payload: %w", ev.Name, err)
		}
		who, now := fakegithub.Person(ev.Sender), fake.Now()
		if strings.HasSuffix(ev.Sender, "[bot]") {
			who = fakegithub.Bot(ev.Sender)
		}
		made := fmt.Sprintf("Sandbox event: %s's %%s on #%d made in the sample at the run's time, as GitHub sends the %s event after it.", ev.Sender, ev.Number, ev.Name)
		switch {
		case ev.Name == "issue_comment" && ev.Action == "created" && p.Comment != nil:
			fake.Comment(ev.Number, who, now, p.Comment.Body)
			return fmt.Sprintf(made, "comment"), nil
		case ev.Name == "pull_request_review" && ev.Action == "submitted" && p.Review != nil:
			fake.Review(ev.Number, who, now, p.Review.State, p.Review.Body)
			return fmt.Sprintf(made, "review"), nil
		case (ev.Name == "pull_request" || ev.Name == "pull_request_target") && ev.Action == "synchronize":
			fake.PushAs(ev.Number, who, now, "Push of the sandbox's "+ev.Name+" event")
			return fmt.Sprintf(made, "push"), nil
		}
		return fmt.Sprintf("Sandbox event: a %s event (%s) changes nothing the sample holds: #%d is evaluated as the sample has it.", ev.Name, def(ev.Action, "no action"), ev.Number), nil
	}
}

func def(s, d string) string {
	if s == "" {
		return d
	}
	return s
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
