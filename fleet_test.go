package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func fleetFake(t *testing.T) (*fakegithub.Server, *httptest.Server) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: testToken, Clock: fakegithub.NewClock(t0)})
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	return fake, ts
}

func TestListRepositoriesMatrix(t *testing.T) {
	t.Parallel()
	fake, ts := fleetFake(t)
	fake.AddInstalledRepo(
		fakegithub.InstalledRepo{Name: "api-server"},
		fakegithub.InstalledRepo{Name: "api-old", Archived: true},
		fakegithub.InstalledRepo{Name: "api-fork", Fork: true},
		fakegithub.InstalledRepo{Name: "website"},
	)
	dir := t.TempDir()
	e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": ts.URL + "/api/v3", "GITHUB_OUTPUT": dir + "/output"}

	o := runWith(t, e, "-list-repositories", "octo")
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	var m struct{ Repository []string }
	if err := json.Unmarshal([]byte(o.stdout), &m); err != nil {
		t.Fatalf("stdout is not the matrix JSON: %v\n%s", err, o.stdout)
	}
	if strings.Join(m.Repository, " ") != "octo/repo octo/api-server octo/website" {
		t.Errorf("matrix %v, want octo/repo octo/api-server octo/website (no archived, no fork)", m.Repository)
	}
	if !strings.Contains(o.outputFile, `{"repository":["octo/repo","octo/api-server","octo/website"]}`) || !strings.Contains(o.outputFile, "count") {
		t.Errorf("GITHUB_OUTPUT lacks the matrix and count:\n%s", o.outputFile)
	}

	o = runWith(t, e, "-list-repositories=octo", "-repositories", "API-*", "-include-archived", "-include-forks")
	if o.code != 0 || strings.TrimSpace(o.stdout) != `{"repository":["octo/api-server","octo/api-old","octo/api-fork"]}` {
		t.Errorf("filtered: %v", o)
	}
	o = runWith(t, e, "-list-repositories", "octo", "-repositories", "nothing-*")
	if o.code != 0 || strings.TrimSpace(o.stdout) != `{"repository":[]}` {
		t.Errorf("nothing matched: want an empty array, not null: %v", o)
	}
	if got := fake.Writes(); got != 0 {
		t.Errorf("%d writes while listing", got)
	}

	o = runWith(t, env{"GITHUB_API_URL": ts.URL}, "-list-repositories", "octo")
	if o.code != 2 || !strings.Contains(o.stderr, "GITHUB_TOKEN") {
		t.Errorf("without a token: %v", o)
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
	e[fleetInputsEnv] = "days-before-stale: 10\nwrite-interval: 0s\n"
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
		t.Errorf("%d reads of %s, want 1", n, repoFilePath)
	}
}

func TestFleetRepositoryFileOverrides(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(repoFilePath, []byte("# our own pace\ndays-before-stale: 60\nexempt-pr-authors:\n  - \"*[bot]\"\n"))
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
	fake.SetFile(repoFilePath, []byte("enabled: false\n"))
	o := runWith(t, e)
	if o.code != 0 || !strings.Contains(o.stdout, "opted out") {
		t.Fatalf("%v", o)
	}
	if n := fake.Count(); n != 1 || fake.Writes() != 0 {
		t.Errorf("%d requests, %d writes; want only the read of %s", n, fake.Writes(), repoFilePath)
	}
}

func TestFleetRepositoryFileCannotRedirectTheToken(t *testing.T) {
	t.Parallel()
	fake, e := fleetRepo(t)
	fake.SetFile(repoFilePath, []byte("repository: octo/other\ndays-before-stale: soon\nno-such-input: 1\n"))
	o := runWith(t, e)
	if o.code != 2 || fake.Writes() != 0 {
		t.Fatalf("want exit 2 and no write: %v", o)
	}
	for _, want := range []string{repoFilePath, "repository cannot be set here", `"no-such-input" is not an input`} {
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
	fake.SetFile(repoFilePath, []byte("days-before-stale: 3.5\n"))
	o := runWith(t, e)
	if o.code != 2 || !strings.Contains(o.stdout, `input "days-before-stale": want a whole number of days`) || fake.Writes() != 0 {
		t.Errorf("%v", o)
	}
}

func TestParseOverrides(t *testing.T) {
	t.Parallel()
	got, enabled, err := parseOverrides([]byte(`{"days-before-stale": 30, "exempt-draft-pr": true, "exempt-pr-labels": ["pinned", "security"], "close-pr-message": null}`), false)
	if err != nil || !enabled {
		t.Fatal(err)
	}
	want := map[string]string{"days-before-stale": "30", "exempt-draft-pr": "true", "exempt-pr-labels": "pinned,security", "close-pr-message": ""}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (%v), want %q", k, g, ok, v)
		}
	}
	if _, _, err := parseOverrides([]byte("enabled: false\n"), false); err == nil {
		t.Error("enabled accepted in the organisation's inputs; it belongs in a repository's file")
	}
	if _, _, err := parseOverrides([]byte("repo-token: x\n"), true); err == nil {
		t.Error("repo-token accepted in a repository's file")
	}
	if _, _, err := parseOverrides([]byte("labels: {a: b}\n"), true); err == nil {
		t.Error("a nested map accepted")
	}
	if _, _, err := parseOverrides([]byte("- a\n- b\n"), true); err == nil {
		t.Error("a list accepted as the file")
	}
}
