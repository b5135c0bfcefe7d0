package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/runner"
)

const testToken = "ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF"

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func fleetFake(t *testing.T) (*fakegithub.Server, *httptest.Server) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: testToken, Clock: fakegithub.NewClock(t0)})
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	return fake, ts
}

// env is a fake process environment.
type env map[string]string

// outcome is what one listing left behind.
type outcome struct {
	code                   int
	stdout, stderr, output string
}

func (o outcome) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s--- GITHUB_OUTPUT\n%s", o.code, o.stdout, o.stderr, o.output)
}

// runWith runs the listing with e as its environment and args (after the
// command's name, which main strips) as its arguments; GITHUB_OUTPUT, when
// set, is created empty first, as the runner does.
func runWith(t *testing.T, e env, args ...string) outcome {
	t.Helper()
	if rest, ok := IsCommand(args); ok {
		args = rest
	} else {
		t.Fatalf("%q is not the listing command", args)
	}
	if p := e["GITHUB_OUTPUT"]; p != "" {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	c := Command{Getenv: func(k string) string { return e[k] }, Stdout: &stdout, Stderr: &stderr,
		Clock: fakegithub.NewClock(t0), UserAgent: "stalepr/test"}
	o := outcome{code: c.Main(ctx, args), stdout: stdout.String(), stderr: stderr.String()}
	if p := e["GITHUB_OUTPUT"]; p != "" {
		b, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		o.output = string(b)
	}
	return o
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
	e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": ts.URL + "/api/v3", "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": dir + "/output"}

	o := runWith(t, e, "-list-repositories", "octo")
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if got := matrixRepos(t, o.stdout); got != "octo/repo octo/api-server octo/website" {
		t.Errorf("matrix %v, want octo/repo octo/api-server octo/website (no archived, no fork)", got)
	}
	if !strings.Contains(o.output, `{"include":[{"repository":"octo/repo","name":"repo"},{"repository":"octo/api-server","name":"api-server"},`) ||
		!strings.Contains(o.output, "count") {
		t.Errorf("GITHUB_OUTPUT lacks the matrix and count:\n%s", o.output)
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

	o = runWith(t, env{"GITHUB_API_URL": ts.URL}, "-list-repositories", "octo")
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
	fake, ts := fleetFake(t)
	api := ts.URL + "/api/v3"
	o := runWith(t, env{}, "-list-repositories", "-help")
	if o.code != 0 || !strings.Contains(o.stdout, "usage: stalepr -list-repositories OWNER") || !strings.Contains(o.stdout, "-include-forks") {
		t.Errorf("-list-repositories -help: %v", o)
	}

	o = runWith(t, env{"GITHUB_TOKEN": "ghs_wrong", "GITHUB_API_URL": api}, "-list-repositories", "octo")
	if o.code != runner.ExitFailed || !strings.Contains(o.stderr, "the token is invalid, expired or revoked") {
		t.Errorf("401: want bad credentials, got %v", o)
	}
	o = runWith(t, env{"GITHUB_TOKEN": "ghs_wrong", "GITHUB_API_URL": api, "GITHUB_ACTIONS": "true"}, "-list-repositories", "octo")
	if errs := testenv.ErrorLines(o.stdout); o.code != runner.ExitFailed || len(errs) != 1 || o.stderr != "" {
		t.Errorf("in a workflow, want one ::error:: annotation and nothing on stderr: %v", o)
	}

	many := make([]fakegithub.InstalledRepo, MaxMatrixJobs)
	for i := range many {
		many[i] = fakegithub.InstalledRepo{Name: fmt.Sprintf("r%03d", i)}
	}
	fake.AddInstalledRepo(many...) // with octo/repo, one more than a matrix runs
	dir := t.TempDir()
	o = runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": api, "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": dir + "/output"}, "-list-repositories", "octo")
	if errs := testenv.ErrorLines(o.stdout); o.code != runner.ExitFailed || len(errs) != 1 || !strings.Contains(errs[0], "257 repositories") {
		t.Errorf("257 repositories: want an error naming the count, got %v", o)
	}
	if strings.Contains(o.output, "matrix") {
		t.Errorf("a matrix was output for more jobs than GitHub runs:\n%s", o.output)
	}
}

// TestListRepositoriesHostileServer: a server's message or repository name
// never becomes a workflow command in the listing's log.
func TestListRepositoriesHostileServer(t *testing.T) {
	t.Parallel()
	fake, ts := fleetFake(t)
	fake.AddInstalledRepo(fakegithub.InstalledRepo{Name: "x\n::warning::named"}, fakegithub.InstalledRepo{Name: "##[error]named"})
	e := env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": ts.URL + "/api/v3", "GITHUB_ACTIONS": "true"}
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
	if o.code != runner.ExitFailed {
		t.Errorf("exit %d, want %d: %v", o.code, runner.ExitFailed, o)
	}
	checkNoCommand(o)
}
