package main

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/fleet"
)

func fleetFake(t *testing.T) (*fakegithub.Server, *httptest.Server) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: testToken, Clock: fakegithub.NewClock(t0)})
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	return fake, ts
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
	fake, ts := fleetFake(t)
	fake.AddPR(fakegithub.Issue{Title: "one", User: alice, CreatedAt: daysAgo(100), UpdatedAt: daysAgo(30)})
	fake.AddPR(fakegithub.Issue{Title: "two", User: fakegithub.Bot("dependabot[bot]"), CreatedAt: daysAgo(100), UpdatedAt: daysAgo(90)})
	fake.AddPR(fakegithub.Issue{Title: "three", User: alice, CreatedAt: daysAgo(100), UpdatedAt: daysAgo(90)})
	e := runnerEnv(t.TempDir(), ts.URL+"/api/v3")
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
