package main

// An organisation's fleet (issue 12): .github/workflows/fleet.yml lists the
// repositories a GitHub App installation sees (stalepr -list-repositories
// OWNER) and runs the action once per repository as a matrix job. The
// organisation's inputs arrive in STALEPR_FLEET_INPUTS; each repository may
// override them, or opt out, with .github/stalepr.yml.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
)

const (
	// fleetInputsEnv holds the organisation's inputs as a YAML (or JSON)
	// map of input names to values; set by fleet.yml.
	fleetInputsEnv = "STALEPR_FLEET_INPUTS"
	// repoFilePath is a repository's own overrides in a fleet run.
	repoFilePath = ".github/stalepr.yml"
)

// isListRepositories reports whether args ask for the fleet's listing.
func isListRepositories(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return strings.HasPrefix(a, "-") && name == "list-repositories"
	})
}

// listRepositories prints the repositories of OWNER that the installation
// token in GITHUB_TOKEN can see, as a matrix for strategy.matrix:
// {"repository":["owner/a","owner/b"]}. With GITHUB_OUTPUT set it also sets
// the outputs matrix and count. It returns the exit code.
func listRepositories(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, clock ghapi.Clock) int {
	fs := flag.NewFlagSet("stalepr -list-repositories", flag.ContinueOnError)
	fs.SetOutput(stderr)
	owner := fs.String("list-repositories", "", "owner (organisation or user) whose repositories the GitHub App installation token in GITHUB_TOKEN can see")
	filter := fs.String("repositories", "", "comma-separated repository names to keep; * matches any characters (api-*); empty: all")
	archived := fs.Bool("include-archived", false, "list archived repositories too")
	forks := fs.Bool("include-forks", false, "list forks too")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *owner == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: stalepr -list-repositories OWNER [-repositories 'a,b*'] [-include-archived] [-include-forks]")
		return ExitUsage
	}
	token := strings.TrimSpace(getenv(config.EnvToken))
	if token == "" {
		fmt.Fprintln(stderr, "no token: set GITHUB_TOKEN to a GitHub App installation token (actions/create-github-app-token)")
		return ExitUsage
	}
	client, err := ghapi.New(ghapi.Options{Token: token, APIURL: getenv(config.EnvAPIURL), Clock: clock, UserAgent: "stalepr/" + buildVersion()})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitUsage
	}
	repos, err := client.ListRepositories(ctx, *owner, ghapi.RepoListOptions{IncludeArchived: *archived, IncludeForks: *forks})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitFailed
	}
	patterns := config.SplitList(*filter)
	kept := []string{} // never null: the matrix wants an array
	for _, full := range repos {
		_, name, _ := strings.Cut(full, "/")
		if len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { return lifecycle.MatchLogin(p, name) }) {
			kept = append(kept, full)
		}
	}
	matrix, _ := json.Marshal(map[string][]string{"repository": kept})
	fmt.Fprintln(stdout, string(matrix))
	if path := getenv("GITHUB_OUTPUT"); path != "" {
		outs := []report.Output{{Name: "matrix", Value: string(matrix)}, {Name: "count", Value: strconv.Itoa(len(kept))}}
		if err := appendFile(path, report.OutputFile(outs)); err != nil {
			fmt.Fprintf(stderr, "writing the outputs to GITHUB_OUTPUT (%s): %v\n", path, err)
			return ExitFailed
		}
	}
	return ExitOK
}

// fleetSource overlays the organisation's inputs (orgYAML) and then the
// repository's .github/stalepr.yml onto src: the organisation's policy is
// the default, the repository's file overrides it input by input. enabled is
// false when the repository opted out (enabled: false). Reading the file
// costs one request, outside the run's operations-per-run. When the inputs
// so far do not parse, the file is not read and the overlay so far is
// returned, so that the run reports those errors as usual.
func fleetSource(ctx context.Context, src config.Source, orgYAML string, clock ghapi.Clock) (out config.Source, enabled bool, err error) {
	org, _, err := parseOverrides([]byte(orgYAML), false)
	if err != nil {
		return src, false, fmt.Errorf("%s: %w", fleetInputsEnv, err)
	}
	base := src
	base.Input = firstOf(inputMap(org), src.Input)
	cfg, perr := config.Parse(base)
	if perr != nil {
		return base, true, nil
	}
	client, err := ghapi.New(ghapi.Options{Token: string(cfg.Token), APIURL: cfg.APIURL, Owner: cfg.Owner, Repo: cfg.Repo,
		Clock: clock, UserAgent: "stalepr/" + buildVersion(), Limits: ghapi.Limits{MaxRequests: 1}})
	if err != nil {
		return base, false, err
	}
	data, found, err := client.RepoFile(ctx, repoFilePath)
	if err != nil {
		// The file may hold an opt-out: never sweep on a guess.
		return base, false, fmt.Errorf("%s of %s: %w", repoFilePath, cfg.Repository(), err)
	}
	if !found {
		return base, true, nil
	}
	repo, on, err := parseOverrides(data, true)
	if err != nil {
		return base, false, fmt.Errorf("%s of %s: %w", repoFilePath, cfg.Repository(), err)
	}
	out = base
	out.Input = firstOf(inputMap(repo), base.Input)
	return out, on, nil
}

// firstOf looks an input up in each lookup in turn: the first that has it
// wins. A nil lookup has nothing.
func firstOf(lookups ...func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, l := range lookups {
			if l == nil {
				continue
			}
			if v, ok := l(name); ok {
				return v, true
			}
		}
		return "", false
	}
}

// inputMap looks inputs up in m.
func inputMap(m map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

// parseOverrides reads a flat YAML (or JSON) map of input names to values.
// Lists may be written as YAML sequences; null is an empty value (for a
// message: no comment). repo-token and repository cannot be overridden: a
// repository's file must not point the organisation's token elsewhere.
// enabled is allowed only in a repository's file (allowEnabled).
func parseOverrides(data []byte, allowEnabled bool) (map[string]string, bool, error) {
	enabled := true
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, false, fmt.Errorf("want a YAML map of input names to values: %w", err)
	}
	out := map[string]string{}
	var problems []string
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := scalar(raw[k])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", k, err))
			continue
		}
		switch _, known := config.Lookup(k); {
		case k == "enabled" && allowEnabled:
			b, err := strconv.ParseBool(v)
			if err != nil || (v != "true" && v != "false") {
				problems = append(problems, fmt.Sprintf("enabled: want true or false, got %q", v))
			}
			enabled = b
		case k == config.InputRepoToken || k == config.InputRepository:
			problems = append(problems, fmt.Sprintf("%s cannot be set here: the fleet workflow sets it", k))
		case !known:
			problems = append(problems, fmt.Sprintf("%q is not an input of stalepr (see the inputs table in its README)", k))
		default:
			out[k] = v
		}
	}
	if len(problems) > 0 {
		return nil, false, errors.New(strings.Join(problems, "; "))
	}
	return out, enabled, nil
}

func scalar(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(x), nil
	case []any:
		items := make([]string, 0, len(x))
		for _, it := range x {
			s, err := scalar(it)
			if err != nil {
				return "", err
			}
			if _, nested := it.([]any); nested {
				return "", errors.New("want a value or a list of values")
			}
			items = append(items, s)
		}
		return strings.Join(items, ","), nil
	}
	return "", errors.New("want a value or a list of values, not a map")
}
