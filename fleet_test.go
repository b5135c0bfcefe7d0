package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/fleet"
)

// fleetFake is a fake GitHub for the fleet's tests and its base URL.
func fleetFake(t *testing.T) (*fakegithub.Server, string) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: testToken, Clock: fakegithub.NewClock(t0)})
	return fake, serve(t, fake)
}

// TestListRepositoriesIsACommandOfItsOwn: main runs the listing when its
// first argument names it, and -help lists it.
func TestListRepositoriesIsACommandOfItsOwn(t *testing.T) {
	t.Parallel()
	if o := runWith(t, env{}, "-list-repositories", "-help"); o.code != 0 || !strings.Contains(o.stdout, "usage: stalepr -list-repositories OWNER") {
		t.Errorf("-list-repositories -help: %v", o)
	}
	if o := runWith(t, env{}, "-help"); !strings.Contains(o.stdout, "-list-repositories OWNER") {
		t.Errorf("-help does not list -list-repositories:\n%s", o.stdout)
	}
	if o := runWith(t, env{}, "-debug-only", "-list-repositories", "octo"); o.code != ExitUsage || !strings.Contains(o.stderr, "write it first") {
		t.Errorf("-list-repositories after another flag: %v", o)
	}
}

// fleetRepo is a repository with three PRs: #1 by alice, inactive 30 days;
// #2 by Dependabot and #3 by alice, both inactive 90 days.
func fleetRepo(t *testing.T) (*fakegithub.Server, env) {
	fake, base := fleetFake(t)
	fake.AddPR(fakegithub.Issue{Title: "one", User: alice, CreatedAt: daysAgo(100), UpdatedAt: daysAgo(30)})
	fake.AddPR(fakegithub.Issue{Title: "two", User: fakegithub.Bot("dependabot[bot]"), CreatedAt: daysAgo(100), UpdatedAt: daysAgo(90)})
	fake.AddPR(fakegithub.Issue{Title: "three", User: alice, CreatedAt: daysAgo(100), UpdatedAt: daysAgo(90)})
	e := runnerEnv(t.TempDir(), base+"/api/v3")
	e[fleet.InputsEnv] = "days-before-stale: 10\nwrite-interval: 0s\n"
	return fake, e
}

func stale(fake *fakegithub.Server, n int) bool { return fake.MustIssue(n).HasLabel("stale") }

func TestFleetOrganisationInputs(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t) // no .github/stalepr.yml
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if !stale(fake, 1) || !stale(fake, 2) || !stale(fake, 3) {
		t.Errorf("the organisation's days-before-stale 10 should mark all three: %v %v %v", stale(fake, 1), stale(fake, 2), stale(fake, 3))
	}
	if n := fake.CountBy()["GET /repos/{owner}/{repo}/contents/{path}"]; n != 1 {
		t.Errorf("%d reads of %s, want 1", n, fleet.RepoFilePath)
	}
}

func TestFleetRepositoryFileOverrides(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(fleet.RepoFilePath, []byte("# our own pace\ndays-before-stale: 60\nexempt-pr-authors:\n  - \"*[bot]\"\n"))
	o := runWith(t, e)
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if stale(fake, 1) {
		t.Error("#1 (30 days) marked: the repository's days-before-stale 60 should override the organisation's 10")
	}
	if stale(fake, 2) {
		t.Error("#2 (Dependabot) marked: the repository exempts *[bot]")
	}
	if !stale(fake, 3) {
		t.Error("#3 (90 days) not marked")
	}
}

func TestFleetRepositoryOptsOut(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(fleet.RepoFilePath, []byte("enabled: false\n"))
	o := runWith(t, e)
	if o.code != 0 || !strings.Contains(o.stdout, "opted out") {
		t.Fatalf("%v", o)
	}
	if n := fake.Count(); n != 1 || fake.Writes() != 0 {
		t.Errorf("%d requests, %d writes; want only the read of %s", n, fake.Writes(), fleet.RepoFilePath)
	}
}

func TestFleetRepositoryFileCannotRedirectTheToken(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(fleet.RepoFilePath, []byte("repository: octo/other\ndays-before-stale: soon\nno-such-input: 1\n"))
	o := runWith(t, e)
	if o.code != 2 || fake.Writes() != 0 {
		t.Fatalf("want exit 2 and no write: %v", o)
	}
	for _, want := range []string{fleet.RepoFilePath, "repository cannot be set here", `"no-such-input" is not an input`} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("the error does not mention %q:\n%s", want, o.stdout)
		}
	}
	if fake.Count() != 1 {
		t.Errorf("%d requests, want 1", fake.Count())
	}
}

func TestFleetBadRepositoryFileValueIsAnInputError(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(fleet.RepoFilePath, []byte("days-before-stale: 3.5\n"))
	o := runWith(t, e)
	if o.code != 2 || !strings.Contains(o.stdout, `input "days-before-stale": want a whole number of days`) || fake.Writes() != 0 {
		t.Errorf("%v", o)
	}
	if errs := testenv.ErrorLines(o.stdout); len(errs) != 1 || !strings.Contains(errs[0], "(set in "+fleet.RepoFilePath+")") {
		t.Errorf("the error does not name the file the value came from: %q", errs)
	}
}

// TestFleetRepositoryFileRead: the file's read is retried as any read (a
// 502, a secondary limit); a read that keeps failing fails the step with
// exit 1, not the 2 of bad inputs, and sweeps nothing; a 403 asks for the
// permission the read needs.
func TestFleetRepositoryFileRead(t *testing.T) {
	t.Parallel()
	contents := regexp.MustCompile(`/contents/`)
	for name, fault := range map[string]*fakegithub.Fault{
		"502 once":             fakegithub.ServerError(502),
		"secondary limit once": fakegithub.SecondaryRateLimit(403, 1),
	} {
		fake, e := fleetRepo(t)
		fake.SetFile(fleet.RepoFilePath, []byte("days-before-stale: 60\n"))
		var hits atomic.Int32
		fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
			if contents.MatchString(info.Path) && hits.Add(1) == 1 {
				return fault
			}
			return nil
		})
		o := runWith(t, e)
		if o.code != 0 || stale(fake, 1) || !stale(fake, 3) {
			t.Errorf("%s: want the file read on retry and its days-before-stale 60 applied: %v", name, o)
		}
	}

	for name, c := range map[string]struct {
		fault *fakegithub.Fault
		want  string
	}{
		"502 always": {fakegithub.ServerError(502), fleet.RepoFilePath},
		"403":        {fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration"}`), "Contents: read"},
	} {
		fake, e := fleetRepo(t)
		fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
			if contents.MatchString(info.Path) {
				return c.fault
			}
			return nil
		})
		o := runWith(t, e)
		if o.code != ExitFailed || fake.Writes() != 0 {
			t.Errorf("%s: want exit %d and no write: %v", name, ExitFailed, o)
		}
		if errs := testenv.ErrorLines(o.stdout); len(errs) != 1 || !strings.Contains(errs[0], c.want) || strings.Contains(errs[0], "pull-requests: write") {
			t.Errorf("%s: want one error saying %q (and not pull-requests: write), got %q", name, c.want, errs)
		}
	}
}

// TestFleetRepositoryFileSecondDocument: an opt-out in a second YAML
// document is never ignored: the file is refused, naming it, and nothing
// is swept.
func TestFleetRepositoryFileSecondDocument(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(fleet.RepoFilePath, []byte("days-before-stale: 10\n---\nenabled: false\n"))
	o := runWith(t, e)
	if o.code != ExitUsage || fake.Writes() != 0 {
		t.Fatalf("want exit 2 and no write: %v", o)
	}
	if errs := testenv.ErrorLines(o.stdout); len(errs) != 1 || !strings.Contains(errs[0], fleet.RepoFilePath) || !strings.Contains(errs[0], "more than one YAML document") {
		t.Errorf("want one error naming the file and the second document, got %q", errs)
	}
}

// TestFleetRepositoryFileIsOneMoreLayer: .github/stalepr.yml is one more
// source of the one parse, so a repository's value replaces the
// organisation's before anything is checked (the file was read only when
// the organisation's inputs parsed, a second parse); an input the file does
// not fix is still refused, naming where it was set.
func TestFleetRepositoryFileIsOneMoreLayer(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	e[fleet.InputsEnv] = "days-before-stale: soon\nwrite-interval: 0s\n"
	fake.SetFile(fleet.RepoFilePath, []byte("days-before-stale: 10\n"))
	o := runWith(t, e)
	if o.code != 0 || !stale(fake, 1) {
		t.Fatalf("the repository's days-before-stale 10 should replace the organisation's bad value: %v", o)
	}

	fake, e = fleetRepo(t)
	e[fleet.InputsEnv] = "days-before-stale: soon\nwrite-interval: 0s\n"
	o = runWith(t, e)
	errs := testenv.ErrorLines(o.stdout)
	if o.code != ExitUsage || len(errs) != 1 || !strings.Contains(errs[0], `"days-before-stale"`) || !strings.Contains(errs[0], "(set in "+fleet.InputsEnv) {
		t.Errorf("exit %d, errors %q: want %d and one error naming days-before-stale and %s", o.code, errs, ExitUsage, fleet.InputsEnv)
	}
	if n := fake.Writes(); n != 0 {
		t.Errorf("%d writes after a bad input, want none", n)
	}
}

// TestFleetRunTimeoutCountsTheFileRead: run-timeout bounds the whole run,
// the read of .github/stalepr.yml included: a read that waited out a
// secondary limit leaves the sweep only what remains of it.
func TestFleetRunTimeoutCountsTheFileRead(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	e[fleet.InputsEnv] = "days-before-stale: 10\nwrite-interval: 15s\nrun-timeout: 2m\n"
	contents := regexp.MustCompile(`/contents/`)
	var hits atomic.Int32
	fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if contents.MatchString(info.Path) && hits.Add(1) == 1 {
			return fakegithub.SecondaryRateLimit(403, 100) // 100 s of the run's 120
		}
		return nil
	})
	clock := clientClock()
	o := runClock(context.Background(), t, e, clock)
	if o.code != 0 || !strings.Contains(o.stdout, "run-timeout reached") {
		t.Errorf("want a clean stop at run-timeout: %v", o)
	}
	if took := clock.Now().Sub(t0); took > 2*time.Minute {
		t.Errorf("the run took %s by its clock, past its run-timeout of 2m", took)
	}
}

func TestListRepositoriesMatrix(t *testing.T) {
	t.Parallel()
	fake, base := fleetFake(t)
	fake.AddInstalledRepo(
		fakegithub.InstalledRepo{Name: "api-server"},
		fakegithub.InstalledRepo{Name: "api-old", Archived: true},
		fakegithub.InstalledRepo{Name: "api-fork", Fork: true},
		fakegithub.InstalledRepo{Name: "website"},
	)
	dir := t.TempDir()
	e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": base + "/api/v3", "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": dir + "/output"}

	o := runWith(t, e, "-list-repositories", "octo")
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if got := matrixRepos(t, o.stdout); got != "octo/repo octo/api-server octo/website" {
		t.Errorf("matrix %v, want octo/repo octo/api-server octo/website (no archived, no fork)", got)
	}
	if !strings.Contains(o.outputFile, `{"include":[{"repository":"octo/repo","name":"repo"},{"repository":"octo/api-server","name":"api-server"},`) ||
		!strings.Contains(o.outputFile, "count") {
		t.Errorf("GITHUB_OUTPUT lacks the matrix and count:\n%s", o.outputFile)
	}

	o = runWith(t, e, "-list-repositories=octo", "-repositories", "API-*", "-include-archived", "-include-forks")
	if o.code != 0 || matrixRepos(t, o.stdout) != "octo/api-server octo/api-old octo/api-fork" {
		t.Errorf("filtered: %v", o)
	}
	o = runWith(t, e, "list-repositories", "-repositories", "nothing-*", "octo")
	if o.code != 0 || !strings.Contains(o.stdout, `{"include":[]}`) {
		t.Errorf("nothing matched: want an empty array, not null: %v", o)
	}
	if got := fake.Writes(); got != 0 {
		t.Errorf("%d writes while listing", got)
	}

	o = runWith(t, env{"GITHUB_API_URL": base}, "-list-repositories", "octo")
	if o.code != 2 || !strings.Contains(o.stderr, "GITHUB_TOKEN") {
		t.Errorf("without a token: %v", o)
	}
}

// matrixRepos is the repositories of the listing's matrix, in order.
func matrixRepos(t *testing.T, stdout string) string {
	t.Helper()
	var m struct {
		Include []struct{ Repository, Name string }
	}
	line := stdout[strings.LastIndex(strings.TrimRight(stdout, "\n"), "\n")+1:]
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("stdout does not end with the matrix JSON: %v\n%s", err, stdout)
	}
	var out []string
	for _, j := range m.Include {
		if !strings.HasSuffix(j.Repository, "/"+j.Name) {
			t.Errorf("job %+v: name is not the repository's name", j)
		}
		out = append(out, j.Repository)
	}
	return strings.Join(out, " ")
}

// TestListRepositoriesAsACommand: the listing is a command with its own
// help; in a workflow its errors are ::error::
// annotations; a 401 says bad credentials; more repositories than one
// matrix runs is an error before any sweep.
func TestListRepositoriesAsACommand(t *testing.T) {
	t.Parallel()
	fake, base := fleetFake(t)
	api := base + "/api/v3"
	o := runWith(t, env{}, "-list-repositories", "-help")
	if o.code != 0 || !strings.Contains(o.stdout, "usage: stalepr -list-repositories OWNER") || !strings.Contains(o.stdout, "-include-forks") {
		t.Errorf("-list-repositories -help: %v", o)
	}

	o = runWith(t, env{"GITHUB_TOKEN": "ghs_wrong", "GITHUB_API_URL": api}, "-list-repositories", "octo")
	if o.code != ExitFailed || !strings.Contains(o.stderr, "the token is invalid, expired or revoked") {
		t.Errorf("401: want bad credentials, got %v", o)
	}
	o = runWith(t, env{"GITHUB_TOKEN": "ghs_wrong", "GITHUB_API_URL": api, "GITHUB_ACTIONS": "true"}, "-list-repositories", "octo")
	if errs := testenv.ErrorLines(o.stdout); o.code != ExitFailed || len(errs) != 1 || o.stderr != "" {
		t.Errorf("in a workflow, want one ::error:: annotation and nothing on stderr: %v", o)
	}

	many := make([]fakegithub.InstalledRepo, fleet.MaxMatrixJobs)
	for i := range many {
		many[i] = fakegithub.InstalledRepo{Name: fmt.Sprintf("r%03d", i)}
	}
	fake.AddInstalledRepo(many...) // with octo/repo, one more than a matrix runs
	dir := t.TempDir()
	o = runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": api, "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": dir + "/output"}, "-list-repositories", "octo")
	if errs := testenv.ErrorLines(o.stdout); o.code != ExitFailed || len(errs) != 1 || !strings.Contains(errs[0], "257 repositories") {
		t.Errorf("257 repositories: want an error naming the count, got %v", o)
	}
	if strings.Contains(o.outputFile, "matrix") {
		t.Errorf("a matrix was output for more jobs than GitHub runs:\n%s", o.outputFile)
	}
}

// TestListRepositoriesHostileServer: a server's message or repository name
// never becomes a workflow command in the listing's log.
func TestListRepositoriesHostileServer(t *testing.T) {
	t.Parallel()
	fake, base := fleetFake(t)
	fake.AddInstalledRepo(fakegithub.InstalledRepo{Name: "x\n::warning::named"}, fakegithub.InstalledRepo{Name: "##[error]named"})
	e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": base + "/api/v3", "GITHUB_ACTIONS": "true"}
	o := runWith(t, e, "-list-repositories", "octo")
	if o.code != 0 || matrixRepos(t, o.stdout) != "octo/repo" {
		t.Errorf("want only octo/repo in the matrix: %v", o)
	}
	checkNoCommand := func(o outcome) {
		t.Helper()
		for _, l := range strings.Split(o.stdout+o.stderr, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "::warning::named") || strings.HasPrefix(strings.TrimSpace(l), "::warning::message") ||
				(strings.Contains(l, "##[") && !strings.HasPrefix(l, "::")) {
				t.Errorf("a server's text runs a workflow command: %q\n%v", l, o)
			}
		}
	}
	checkNoCommand(o)

	fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		return fakegithub.StatusFault(422, `{"message":"no\n::warning::message\n##[error]message"}`)
	})
	o = runWith(t, e, "-list-repositories", "octo")
	if o.code != ExitFailed {
		t.Errorf("exit %d, want %d: %v", o.code, ExitFailed, o)
	}
	checkNoCommand(o)
}
