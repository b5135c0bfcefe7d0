package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/runner"
)

// MaxMatrixJobs is the most jobs GitHub Actions runs from one matrix.
const MaxMatrixJobs = 256

// IsCommand reports whether args ask for the fleet's listing, and returns
// the listing's own arguments. The command is its first argument: the word
// list-repositories, or the documented flag form -list-repositories OWNER
// (also --list-repositories, and =OWNER).
func IsCommand(args []string) (rest []string, ok bool) {
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

// Command is the fleet's listing command, run by main when the command
// line's first argument names it (IsCommand); its fields are main's world.
type Command struct {
	Getenv         func(string) string
	Stdout, Stderr io.Writer
	Clock          ghapi.Clock
	UserAgent      string // names this build to GitHub
}

// Main runs the listing with args (without the command's own name) and
// returns the exit code.
func (c Command) Main(ctx context.Context, args []string) int {
	getenv, stdout := c.Getenv, c.Stdout
	out := runner.New(getenv, stdout, c.Stderr, runner.Text, "")
	a, code, done := parseListArgs(args, stdout, out)
	if done {
		return code
	}
	token := strings.TrimSpace(getenv(config.EnvToken))
	if token == "" {
		out.Fail("list-repositories", "no token: set GITHUB_TOKEN to a GitHub App installation token (actions/create-github-app-token)")
		return runner.ExitUsage
	}
	out.Mask(token)
	client, err := ghapi.New(ghapi.Options{Token: token, APIURL: getenv(config.EnvAPIURL), Clock: c.Clock, UserAgent: c.UserAgent,
		Workflow: runner.InWorkflow(getenv)})
	if err != nil {
		out.Fail("list-repositories", err.Error())
		return runner.ExitUsage
	}
	repos, err := ghapi.FleetOf(client).ListRepositories(ctx, a.owner, a.opts)
	if err != nil {
		out.Fail("list-repositories", err.Error())
		return runner.ExitFailed
	}
	kept, odd := matrixJobs(repos, a.patterns)
	if odd > 0 {
		out.Warn(fmt.Sprintf("skipped %d listed names that are not owner/name as GitHub spells them: check GITHUB_API_URL and any proxy in between", odd))
	}
	if len(kept) > MaxMatrixJobs {
		out.Fail("list-repositories", fmt.Sprintf("%d repositories, more than the %d jobs GitHub Actions runs from one matrix: nothing was swept. "+
			"Split the fleet into callers of the workflow with repositories: patterns (a-m*, n-z*, ...) of at most %d repositories each",
			len(kept), MaxMatrixJobs, MaxMatrixJobs))
		return runner.ExitFailed
	}
	matrix, _ := json.Marshal(map[string][]matrixJob{"include": kept})
	fmt.Fprintln(stdout, string(matrix))
	outs := []report.Output{{Name: "matrix", Value: string(matrix)}, {Name: "count", Value: strconv.Itoa(len(kept))}}
	if err := out.Outputs(outs); err != nil {
		out.Fail("outputs", err.Error())
		return runner.ExitFailed
	}
	return runner.ExitOK
}

// listArgs is what the command line asks for: whose repositories, which of
// them by name, and whether archived ones and forks count.
type listArgs struct {
	owner    string
	patterns []string
	opts     ghapi.RepoListOptions
}

// parseListArgs reads the command line. done says the command ends here,
// with code: -help printed its usage, or a usage error was reported.
func parseListArgs(args []string, stdout io.Writer, out runner.IO) (a listArgs, code int, done bool) {
	fs := flag.NewFlagSet("stalepr -list-repositories", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	filter := fs.String("repositories", "", "comma-separated repository `names` to keep; * matches any characters (api-*); empty: all")
	archived := fs.Bool("include-archived", false, "list archived repositories too")
	forks := fs.Bool("include-forks", false, "list forks too")
	// OWNER may come before or after the flags.
	var owners []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, listUsage)
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				return a, runner.ExitOK, true
			}
			out.Fail("list-repositories", err.Error()+"; run stalepr -list-repositories -help for its flags")
			return a, runner.ExitUsage, true
		}
		if fs.NArg() == 0 {
			break
		}
		owners = append(owners, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(owners) != 1 || owners[0] == "" {
		out.Fail("list-repositories", "want one OWNER (an organisation or user), got "+strconv.Itoa(len(owners))+"; run stalepr -list-repositories -help")
		return a, runner.ExitUsage, true
	}
	patterns, err := config.SplitList(*filter)
	if err != nil {
		out.Fail("list-repositories", "-repositories: "+err.Error())
		return a, runner.ExitUsage, true
	}
	return listArgs{owner: owners[0], patterns: patterns,
		opts: ghapi.RepoListOptions{IncludeArchived: *archived, IncludeForks: *forks}}, 0, false
}

// matrixJob is one job of the fleet workflow's sweep matrix.
type matrixJob struct {
	Repository string `json:"repository"`
	Name       string `json:"name"` // for the sweep job's token, scoped to this repository
}

// matrixJobs keeps the listed repositories whose names match patterns
// (none: all); odd counts the listed names that are not owner/name.
func matrixJobs(repos, patterns []string) (kept []matrixJob, odd int) {
	kept = []matrixJob{} // never null: the matrix wants an array
	for _, full := range repos {
		if !config.IsRepository(full) {
			// Not a name GitHub gives: a server's text, never a job, and
			// not repeated in the log, where it could act as a command.
			odd++
			continue
		}
		_, name, _ := strings.Cut(full, "/")
		if len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { return lifecycle.MatchLogin(p, name) }) {
			kept = append(kept, matrixJob{Repository: full, Name: name})
		}
	}
	return kept, odd
}
