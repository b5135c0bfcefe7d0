package main

// An organisation's fleet (issue 12): .github/workflows/fleet.yml lists the
// repositories a GitHub App installation sees (stalepr -list-repositories
// OWNER) and runs the action once per repository as a matrix job. The
// organisation's inputs arrive in STALEPR_FLEET_INPUTS; each repository may
// override them, or opt out, with .github/stalepr.yml.

import (
	"bytes"
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

// maxMatrixJobs is the most jobs GitHub Actions runs from one matrix.
const maxMatrixJobs = 256

// listCommand reports whether args ask for the fleet's listing, and the
// listing's own arguments. The command is its first argument: the word
// list-repositories, or the documented flag form -list-repositories OWNER
// (also --list-repositories, and =OWNER).
func listCommand(args []string) (rest []string, ok bool) {
	if len(args) == 0 {
		return nil, false
	}
	name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(args[0], "-"), "-"), "=")
	if name != "list-repositories" {
		return nil, false
	}
	if hasValue {
		return append([]string{value}, args[1:]...), true
	}
	return args[1:], true
}

const listUsage = `usage: stalepr -list-repositories OWNER [-repositories 'a,b*'] [-include-archived] [-include-forks]

Prints the repositories of OWNER that the GitHub App installation token in
GITHUB_TOKEN can see, as the matrix of the fleet workflow's sweep job:
{"include":[{"repository":"OWNER/NAME","name":"NAME"},...]}. With GITHUB_OUTPUT
set it also sets the outputs matrix and count. More than 256 repositories (the
most jobs GitHub runs from one matrix) is an error, before any sweep: split the
fleet with -repositories.

Flags:
`

// listRepositories is the fleet's listing command (args without the
// command itself). It returns the exit code.
func listRepositories(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, clock ghapi.Clock) int {
	out := newSeam(getenv, stdout, stderr, summaryText, "")
	fs := flag.NewFlagSet("stalepr -list-repositories", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	filter := fs.String("repositories", "", "comma-separated repository `names` to keep; * matches any characters (api-*); empty: all")
	archived := fs.Bool("include-archived", false, "list archived repositories too")
	forks := fs.Bool("include-forks", false, "list forks too")
	usage := func(w io.Writer) {
		fmt.Fprint(w, listUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	// OWNER may come before or after the flags.
	var owners []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage(stdout)
				return ExitOK
			}
			out.fail("list-repositories", err.Error()+"; run stalepr -list-repositories -help for its flags")
			return ExitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		owners = append(owners, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(owners) != 1 || owners[0] == "" {
		out.fail("list-repositories", "want one OWNER (an organisation or user), got "+strconv.Itoa(len(owners))+"; run stalepr -list-repositories -help")
		return ExitUsage
	}
	owner := owners[0]
	token := strings.TrimSpace(getenv(config.EnvToken))
	if token == "" {
		out.fail("list-repositories", "no token: set GITHUB_TOKEN to a GitHub App installation token (actions/create-github-app-token)")
		return ExitUsage
	}
	out.mask(token)
	client, err := ghapi.New(ghapi.Options{Token: token, APIURL: getenv(config.EnvAPIURL), Clock: clock, UserAgent: userAgent(),
		Workflow: inWorkflow(getenv)})
	if err != nil {
		out.fail("list-repositories", err.Error())
		return ExitUsage
	}
	repos, err := client.ListRepositories(ctx, owner, ghapi.RepoListOptions{IncludeArchived: *archived, IncludeForks: *forks})
	if err != nil {
		out.fail("list-repositories", err.Error())
		return ExitFailed
	}
	patterns := config.SplitList(*filter)
	type job struct {
		Repository string `json:"repository"`
		Name       string `json:"name"` // for the sweep job's token, scoped to this repository
	}
	kept := []job{} // never null: the matrix wants an array
	odd := 0
	for _, full := range repos {
		if !config.IsRepository(full) {
			// Not a name GitHub gives: a server's text, never a job, and
			// not repeated in the log, where it could act as a command.
			odd++
			continue
		}
		_, name, _ := strings.Cut(full, "/")
		if len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { return lifecycle.MatchLogin(p, name) }) {
			kept = append(kept, job{Repository: full, Name: name})
		}
	}
	if odd > 0 {
		out.warn(fmt.Sprintf("skipped %d listed names that are not owner/name as GitHub spells them: check GITHUB_API_URL and any proxy in between", odd))
	}
	if len(kept) > maxMatrixJobs {
		out.fail("list-repositories", fmt.Sprintf("%d repositories, more than the %d jobs GitHub Actions runs from one matrix: nothing was swept. "+
			"Split the fleet into callers of the workflow with repositories: patterns (a-m*, n-z*, ...) of at most %d repositories each",
			len(kept), maxMatrixJobs, maxMatrixJobs))
		return ExitFailed
	}
	matrix, _ := json.Marshal(map[string][]job{"include": kept})
	fmt.Fprintln(stdout, string(matrix))
	outs := []report.Output{{Name: "matrix", Value: string(matrix)}, {Name: "count", Value: strconv.Itoa(len(kept))}}
	if err := out.outputs(outs); err != nil {
		out.fail("outputs", err.Error())
		return ExitFailed
	}
	return ExitOK
}

// fleetSource overlays the organisation's inputs (orgYAML) and then the
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
func fleetSource(ctx context.Context, src config.Source, orgYAML string, clock ghapi.Clock) (out config.Source, origin func(string) string, enabled bool, err error) {
	org, _, err := parseOverrides([]byte(orgYAML), false)
	if err != nil {
		return src, nil, false, fmt.Errorf("%s: %w", fleetInputsEnv, err)
	}
	base := src
	base.Input = firstOf(inputMap(org), src.Input)
	origin = func(name string) string {
		if _, ok := org[name]; ok {
			return fleetInputsEnv + " (the organisation's inputs)"
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
	client, err := clientFor(cfg, clock, clock.Now(), true, nil) // a fleet's sweep runs only in a workflow
	if err != nil {
		return base, origin, false, err
	}
	data, found, err := client.RepoFile(ctx, repoFilePath)
	if err != nil {
		// The file may hold an opt-out: never sweep on a guess.
		return base, origin, false, &fileError{fmt.Errorf("%s of %s: %w", repoFilePath, cfg.Repository(), err)}
	}
	if !found {
		return base, origin, true, nil
	}
	repo, on, err := parseOverrides(data, true)
	if err != nil {
		return base, origin, false, fmt.Errorf("%s of %s: %w", repoFilePath, cfg.Repository(), err)
	}
	out = base
	out.Input = firstOf(inputMap(repo), base.Input)
	orgOrigin := origin
	origin = func(name string) string {
		if _, ok := repo[name]; ok {
			return repoFilePath
		}
		return orgOrigin(name)
	}
	return out, origin, on, nil
}

// fileReadBudget bounds the requests of reading .github/stalepr.yml: the
// read and the transport's retries of it.
const fileReadBudget = 8

// fileError: .github/stalepr.yml could not be read (a server error, a
// limit, a missing permission): the run fails, but not for bad inputs.
type fileError struct{ err error }

func (e *fileError) Error() string { return e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

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

// parseOverrides reads a flat YAML (or JSON) map of input names to values,
// in one YAML document: a second one (after ---) is refused, never ignored,
// since it may hold an opt-out. Each value is taken as written (an unquoted
// 2024-01-02 is the text 2024-01-02, not a YAML timestamp); lists may be
// written as YAML sequences; null is an empty value (for a message: no
// comment). repo-token and repository cannot be overridden: a repository's
// file must not point the organisation's token elsewhere. enabled is allowed
// only in a repository's file (allowEnabled).
func parseOverrides(data []byte, allowEnabled bool) (map[string]string, bool, error) {
	const want = "want a YAML map of input names to values"
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return map[string]string{}, true, nil // an empty file
	} else if err != nil {
		return nil, false, fmt.Errorf("%s: %w", want, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, false, errors.New("holds more than one YAML document (a line ---): put every input in one map, as the README shows")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return map[string]string{}, true, nil // only comments
	}
	if root.Kind != yaml.MappingNode {
		return nil, false, errors.New(want + ", got " + kindOf(root))
	}
	enabled := true
	out := map[string]string{}
	var problems []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		if seen[k] {
			problems = append(problems, k+": given twice")
			continue
		}
		seen[k] = true
		v, err := scalar(root.Content[i+1])
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
		sort.Strings(problems)
		return nil, false, errors.New(strings.Join(problems, "; "))
	}
	return out, enabled, nil
}

// scalar is a value as written: a scalar's text, or a sequence of scalars
// joined with commas as a list input takes them.
func scalar(n *yaml.Node) (string, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return scalar(n.Alias)
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "", nil
		}
		return n.Value, nil
	case yaml.SequenceNode:
		items := make([]string, 0, len(n.Content))
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				return "", errors.New("want a value or a list of values")
			}
			s, _ := scalar(it)
			items = append(items, s)
		}
		return strings.Join(items, ","), nil
	}
	return "", errors.New("want a value or a list of values, not a map")
}

// kindOf names what a YAML node holds, for an error.
func kindOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	}
	return "something else"
}
