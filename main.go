// Command stalepr marks, un-stales and closes stale pull requests. It runs as
// a GitHub Action (inputs from INPUT_* variables), as a CLI preview (flags
// named like the inputs), or in an offline sandbox against the project's
// fake GitHub (-sandbox DIR). This file is wiring only:
// env → config → client → sweep → report, and the one exit.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr, time.Now().UTC(), realClock{})
	stop()
	os.Exit(code)
}

// run is the whole program, so tests can run it with their own environment,
// output and clock. It returns the exit code.
func run(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer, now time.Time, clock ghapi.Clock) int {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	gha := githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(stdout))

	args, sandboxDir, showVersion, err := ownFlags(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if showVersion {
		fmt.Fprintln(stdout, "stalepr", buildVersion())
		return 0
	}

	var fake *fakegithub.Server
	if sandboxDir != "" {
		if fake, err = loadSandbox(sandboxDir, now); err != nil {
			fmt.Fprintln(stderr, "sandbox:", err)
			return 2
		}
	}

	var src config.Source
	if getenv("GITHUB_ACTIONS") == "true" && len(args) == 0 && fake == nil {
		src = config.ActionsSource(lookup)
	} else {
		env := getenv
		if fake != nil {
			env = sandboxEnv(fake.FullName())
		}
		if src, err = config.FromFlags("stalepr", args, env, stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if sandboxDir != "" {
			if src, err = withSandboxInputs(src, sandboxDir); err != nil {
				fmt.Fprintln(stderr, err)
				return 2
			}
		}
	}
	cfg, err := config.Parse(src)
	for _, w := range cfg.Warnings {
		gha.Warningf("%s", w)
	}
	if err != nil {
		var errs config.Errors
		if errors.As(err, &errs) {
			for _, e := range errs {
				gha.WithFieldsMap(map[string]string{"title": "stalepr: " + e.Name}).Errorf("%s", e)
			}
		} else {
			gha.Errorf("%s", err)
		}
		return 2
	}
	gha.AddMask(cfg.Token)

	if fake != nil {
		srv := httptest.NewServer(fake)
		defer srv.Close()
		cfg.APIURL = srv.URL + "/api/v3"
		cfg.WriteInterval = 0
	}

	client, err := ghapi.New(ghapi.Options{
		Token: cfg.Token, APIURL: cfg.APIURL, Owner: cfg.Owner, Repo: cfg.Repo,
		UserAgent: "stalepr/" + version,
		Clock:     clock,
		Limits: ghapi.Limits{
			DryRun: cfg.DebugOnly, MaxRequests: cfg.OperationsPerRun,
			Reserve: cfg.RateLimitReserve, WriteInterval: cfg.WriteInterval,
		},
	})
	if err != nil {
		gha.Errorf("%v", err)
		return 2
	}

	gha.Group(fmt.Sprintf("Sweeping the pull requests of %s", cfg.Repository()))
	log := newLogger(stdout)
	res := sweep.Run(ctx, client, cfg, now, log)
	log.close()
	gha.EndGroup()
	fmt.Fprintln(stdout, report.Counts(res))

	if getenv("GITHUB_OUTPUT") != "" {
		for name, value := range report.Outputs(res) {
			gha.SetOutput(name, value)
		}
	}
	summary := report.Summary(res, cfg.Repository())
	if getenv("GITHUB_STEP_SUMMARY") != "" {
		gha.AddStepSummary(summary)
	} else if fake != nil {
		fmt.Fprintln(stdout, "\n----- job summary (markdown) -----")
		report.Untrusted(stdout, summary)
	}

	if res.Stopped != sweep.Completed {
		gha.Noticef("stopped early (%s): %d pull requests left for the next run", res.Stopped, res.Left)
	}
	switch {
	case res.Stopped == sweep.StopListingError:
		gha.Errorf("listing the pull requests failed, so nothing was changed: %s. Check the token's permissions (pull-requests: write, issues: write) and GITHUB_API_URL", res.StopDetail)
		return 1
	case !res.OK():
		gha.Errorf("%d pull requests could not be processed, see the log and the job summary; they were left untouched", len(res.Failed))
		return 1
	}
	return 0
}

// ownFlags takes out the flags that are not action inputs.
func ownFlags(args []string) (rest []string, sandboxDir string, showVersion bool, err error) {
	for i := 0; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		switch {
		case a == "version" && strings.HasPrefix(args[i], "-"):
			showVersion = true
		case a == "sandbox" && strings.HasPrefix(args[i], "-"):
			if i+1 >= len(args) {
				return nil, "", false, errors.New("-sandbox needs a directory, such as testdata/sandbox")
			}
			sandboxDir = args[i+1]
			i++
		case strings.HasPrefix(a, "sandbox=") && strings.HasPrefix(args[i], "-"):
			sandboxDir = strings.TrimPrefix(a, "sandbox=")
		default:
			rest = append(rest, args[i])
		}
	}
	return rest, sandboxDir, showVersion, nil
}

const sandboxToken = "sandbox-token"

// sandboxEnv is the environment of a sandbox run: the fake's repository and
// token, nothing from the real environment.
func sandboxEnv(repository string) func(string) string {
	return func(name string) string {
		switch name {
		case "GITHUB_TOKEN":
			return sandboxToken
		case "GITHUB_REPOSITORY":
			return repository
		}
		return ""
	}
}

// withSandboxInputs lets the sample's inputs.json set inputs that the
// command line does not.
func withSandboxInputs(src config.Source, dir string) (config.Source, error) {
	data, err := os.ReadFile(filepath.Join(dir, "inputs.json"))
	if errors.Is(err, os.ErrNotExist) {
		return src, nil
	}
	var inputs map[string]string
	if err == nil {
		err = json.Unmarshal(data, &inputs)
	}
	if err != nil {
		return src, fmt.Errorf("sandbox inputs: %w", err)
	}
	flags := src.Input
	src.Input = func(name string) (string, bool) {
		if v, ok := flags(name); ok {
			return v, true
		}
		v, ok := inputs[name]
		return v, ok
	}
	return src, nil
}

// loadSandbox loads the sample repository in dir into a fake GitHub.
func loadSandbox(dir string, now time.Time) (*fakegithub.Server, error) {
	f, err := os.Open(filepath.Join(dir, "repo.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fake, err := fakegithub.Load(f, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	fake.SetToken(sandboxToken)
	return fake, nil
}

// logger writes one line per PR acted on, inside a stop-commands fence so
// that a PR title can never run a workflow command.
type logger struct {
	w     io.Writer
	fence *report.Fence
}

func newLogger(w io.Writer) *logger { return &logger{w: w, fence: report.OpenFence(w)} }

func (l *logger) PR(it sweep.Item, dryRun bool) { fmt.Fprintln(l.w, report.PRLine(it, dryRun)) }

func (l *logger) Printf(format string, args ...any) {
	fmt.Fprintln(l.w, strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

func (l *logger) close() { l.fence.Close() }

// realClock is the wall clock; Sleep returns early when ctx ends.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
