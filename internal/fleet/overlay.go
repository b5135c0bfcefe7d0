package fleet

import (
	"context"
	"errors"
	"fmt"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/runner"
)

// NewClient builds the client that reads .github/stalepr.yml from the
// connection's inputs of cfg (main's one way to build a client).
type NewClient func(cfg config.Config) (*ghapi.Client, error)

// Inputs layers a fleet's inputs over src (Source); done means the run ends
// here with code: the repository opted out, its file could not be read (1)
// or holds bad inputs (2). origin names where an input's value came from.
func Inputs(ctx context.Context, out runner.IO, src config.Source, org string, newClient NewClient) (_ config.Source, origin func(string) string, code int, done bool) {
	src, origin, enabled, err := Source(ctx, src, org, newClient)
	var fe *fileError
	switch {
	case errors.As(err, &fe):
		out.Fail("fleet", err.Error())
		return src, origin, runner.ExitFailed, true
	case err != nil:
		out.Fail("fleet", err.Error())
		return src, origin, runner.ExitUsage, true
	case !enabled:
		out.Note(report.OptedOut(RepoFilePath))
		return src, origin, runner.ExitOK, true
	}
	return src, origin, runner.ExitOK, false
}

// Source overlays the organisation's inputs (orgYAML) and then the
// repository's .github/stalepr.yml onto src: the organisation's policy is
// the default, the repository's file overrides it input by input. The
// result is one source, which main parses once. enabled is false when the
// repository opted out (enabled: false). origin names where an input's
// value came from, for an error about it. Reading the file costs one
// request (retried as any read), outside the run's operations-per-run; only
// the connection's inputs are read for it (config.ParseConnection). When
// those do not parse, the file is not read and the overlay so far is
// returned, so that the run reports the errors as usual. A failure to read
// the file is a *fileError: nothing was wrong with the inputs.
func Source(ctx context.Context, src config.Source, orgYAML string, newClient NewClient) (out config.Source, origin func(string) string, enabled bool, err error) {
	org, _, err := config.ParseOverrides([]byte(orgYAML), false)
	if err != nil {
		return src, nil, false, fmt.Errorf("%s: %w", InputsEnv, err)
	}
	base := src
	base.Input = config.FirstOf(config.InputMap(org), src.Input)
	origin = func(name string) string {
		if _, ok := org[name]; ok {
			return InputsEnv + " (the organisation's inputs)"
		}
		return ""
	}
	cfg, perr := config.ParseConnection(base)
	if perr != nil {
		return base, origin, true, nil
	}
	// Only the file's read: its own budget, so that a retry is possible,
	// and the run's deadline; a read even in a dry run.
	cfg.OperationsPerRun = fileReadBudget
	client, err := newClient(cfg)
	if err != nil {
		return base, origin, false, err
	}
	data, found, err := ghapi.FleetOf(client).RepoFile(ctx, RepoFilePath)
	if err != nil {
		// The file may hold an opt-out: never sweep on a guess.
		return base, origin, false, &fileError{fmt.Errorf("%s of %s: %w", RepoFilePath, cfg.Repository(), err)}
	}
	if !found {
		return base, origin, true, nil
	}
	repo, on, err := config.ParseOverrides(data, true)
	if err != nil {
		return base, origin, false, fmt.Errorf("%s of %s: %w", RepoFilePath, cfg.Repository(), err)
	}
	out = base
	out.Input = config.FirstOf(config.InputMap(repo), base.Input)
	orgOrigin := origin
	origin = func(name string) string {
		if _, ok := repo[name]; ok {
			return RepoFilePath
		}
		return orgOrigin(name)
	}
	return out, origin, on, nil
}

// fileReadBudget bounds the requests of reading .github/stalepr.yml: the
// read and the transport's retries of it.
const fileReadBudget = 8

// fileError means .github/stalepr.yml could not be read (a server error, a
// limit, a missing permission): the run fails, but not for bad inputs.
type fileError struct{ err error }

func (e *fileError) Error() string { return e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }
