package main

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sandbox"
)

// TestRunTerminalListingFailsOnce: a failed listing is said to a person at a
// terminal in the log as it happens and in the summary, not a third time.
func TestRunTerminalListingFailsOnce(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		return fakegithub.StatusFault(422, `{"message":"Validation Failed"}`)
	})
	o := runWith(t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	if n := strings.Count(o.stdout, "Validation Failed"); n != 1 {
		t.Errorf("the summary says the listing's failure %d times, want once:\n%s", n, o)
	}
	// The last line on stderr, what a person reads first, says the cause.
	lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "listing the pull requests failed") || !strings.Contains(last, "Validation Failed") {
		t.Errorf("stderr's last line does not say the listing failed and why: %q\n%s", last, o)
	}
}

// TestRunCancelledDuringTheListing: a run cancelled before it knows which
// PRs need work does not claim "0 pull requests not reached".
func TestRunCancelledDuringTheListing(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		cancel()
		return nil
	})
	o := runCtx(ctx, t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitCancelled {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitCancelled, o)
	}
	if strings.Contains(o.stdout+o.stderr, "0 pull requests") || strings.Contains(o.stdout+o.stderr, "context canceled") {
		t.Errorf("a cancelled listing is worded as if nothing was left, or in Go's words:\n%s", o)
	}
}

// TestRunSandboxSaysSo: a sandbox run says first that it is one, and its
// links do not point at the local port that is gone when it exits.
func TestRunSandboxSaysSo(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-sandbox", filepath.Join("testdata", "sandbox"))
	if o.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", o.code, o)
	}
	if first, _, _ := strings.Cut(o.stderr, "\n"); !strings.HasPrefix(first, "Sandbox: ") || !strings.Contains(first, "nothing on GitHub is read or changed") {
		t.Errorf("the first line does not say it is a sandbox run: %q", first)
	}
	if strings.Contains(o.stdout, "127.0.0.1") || !strings.Contains(o.stdout, sandbox.Web) {
		t.Errorf("links point at the sandbox's local port:\n%s", o.stdout)
	}
}

// TestRunTerminalNoToken: a person at a terminal is asked for GITHUB_TOKEN,
// which is what the CLI reads, not for an input it has no flag for.
func TestRunTerminalNoToken(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-repo", testRepo)
	if o.code != ExitUsage || !strings.Contains(o.stderr, "set the GITHUB_TOKEN environment variable") || strings.Contains(o.stderr, "repo-token input") {
		t.Errorf("want the CLI's way to give a token: %v", o)
	}
}

// TestRunMistypedFlag: a flag one typo away from a real one is named.
func TestRunMistypedFlag(t *testing.T) {
	t.Parallel()
	o := runWith(t, env{}, "-days-before-stal", "3")
	if o.code != ExitUsage || !strings.Contains(o.stderr, "did you mean -days-before-stale?") {
		t.Errorf("want a suggestion of -days-before-stale: %v", o)
	}
	if o := runWith(t, env{}, "-zzzzzzzz"); strings.Contains(o.stderr, "did you mean") {
		t.Errorf("a suggestion for a name near nothing: %v", o)
	}
}

// TestRunTerminalMissingPermission: at a terminal a 403 speaks of the
// token's scopes and fine-grained permissions, which a person can change,
// not of a workflow's permissions: block.
func TestRunTerminalMissingPermission(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		return fakegithub.StatusFault(403, `{"message":"Resource not accessible by personal access token"}`)
	})
	o := runWith(t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	if !strings.Contains(o.stdout, "fine-grained token needs Pull requests and Issues") || strings.Contains(o.stdout+o.stderr, "permissions:") {
		t.Errorf("want the token's permissions, not a workflow's:\n%s", o)
	}
}

// TestRunTerminalNotFoundAdviceWhole: the text summary shows a listing's
// error with its advice whole, not cut mid-sentence.
func TestRunTerminalNotFoundAdviceWhole(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	o := runWith(t, w.terminalEnv(), "-repo", "octo/elsewhere")
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	if !strings.Contains(o.stdout, "on Enterprise Server check that GITHUB_API_URL is the API root (https://api.github.com, or https://HOST/api/v3 on Enterprise Server).") {
		t.Errorf("the 404's advice is not shown whole:\n%s", o)
	}
}

// TestRunServerErrorNamed: a 5xx left after the retries is named, with the
// request and how often it was sent, not in go-github's raw words.
func TestRunServerErrorNamed(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
		return fakegithub.StatusFault(502, `{"message":"Server Error"}`)
	})
	o := runWith(t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", o.code, ExitFailed, o)
	}
	if !strings.Contains(o.stdout, "GitHub answered 502 Bad Gateway") || !strings.Contains(o.stdout, "(tried 4 times, with backoff)") ||
		!strings.Contains(o.stdout, "githubstatus.com") || strings.Contains(o.stdout+o.stderr, "Server Error []") {
		t.Errorf("want the 502 named with what was retried:\n%s", o)
	}
}

// TestRunCancelledAfterANotice: a run cancelled after it posted a notice
// does not report the read-back of its notices, cut by the same
// cancellation, as a failure.
func TestRunCancelledAfterANotice(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Atomic: the handler that cancels may still be running when the run
	// returns, since the client stops waiting for it.
	var posted atomic.Bool
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if posted.Load() {
			cancel()
		} else if info.Route == "POST /repos/{owner}/{repo}/issues/{issue_number}/comments" {
			posted.Store(true)
		}
		return nil
	})
	o := runCtx(ctx, t, w.terminalEnv(), "-repo", testRepo)
	if o.code != ExitCancelled || !posted.Load() {
		t.Fatalf("exit %d (posted %v), want %d after a notice\n%s", o.code, posted.Load(), ExitCancelled, o)
	}
	if strings.Contains(o.stdout+o.stderr, "could not read back") || strings.Contains(o.stdout+o.stderr, "context canceled") {
		t.Errorf("the cancelled read-back is reported as a failure:\n%s", o)
	}
}

// TestRunAPIURLOneWording: a bad GITHUB_API_URL is refused in the same words
// by the sweep (config) and the listing (ghapi), credentials hidden.
func TestRunAPIURLOneWording(t *testing.T) {
	t.Parallel()
	const api = "https://octo:hunter2@ghe.example.com/api/v3"
	const want = `environment variable GITHUB_API_URL: want an absolute http or https URL without credentials, such as https://github.example.com/api/v3, got "https://***@ghe.example.com/api/v3": remove the user:password@ part`
	sweep := runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": api}, "-repo", testRepo)
	list := runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": api}, "-list-repositories", "octo")
	for name, o := range map[string]outcome{"sweep": sweep, "list-repositories": list} {
		if o.code != ExitUsage || !strings.Contains(o.stderr, want) || strings.Contains(o.stdout+o.stderr, "hunter2") {
			t.Errorf("%s: exit %d, want %d and %q:\n%s", name, o.code, ExitUsage, want, o)
		}
	}
}
