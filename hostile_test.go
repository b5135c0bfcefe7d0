package main

// A misbehaving GitHub through the whole program: a bad answer is
// a failed read of that PR or listing, never a crash or a budget sink, and
// no server text reaches the log raw.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// TestRunTimelineLoopFailsOnlyThatPR: one PR whose history's cursor loops
// once took the whole budget, leaving every other PR; now it is that PR's
// failed read, and the rest is done.
func TestRunTimelineLoopFailsOnlyThatPR(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	fake := w.fake
	looping := fake.AddPR(fakegithub.Issue{Title: "Looping timeline", User: alice, CreatedAt: daysAgo(240), UpdatedAt: daysAgo(130)})
	at := daysAgo(40)
	for i := range 105 { // longer than a listing page carries: its older part is read on its own
		fake.Comment(looping, ciBot, daysAgo(230-float64(i)), "coverage report")
	}
	fake.Label(looping, actionID, at, "stale")
	fake.Comment(looping, actionID, at.Add(time.Second), fakegithub.StaleNoticeBody("stale", at, ""))
	fake.Comment(looping, ciBot, daysAgo(5), "coverage 80%")
	history := fmt.Sprintf(`"number":%d`, looping)
	isHistory := func(info fakegithub.RequestInfo) bool {
		return info.Route == "POST /graphql" && strings.Contains(info.Body, "pullRequest(number:") && strings.Contains(info.Body, history)
	}
	loop := `{"data":{"rateLimit":{"cost":1,"limit":5000,"remaining":4000,"resetAt":"2030-01-01T00:00:00Z"},` +
		`"repository":{"pullRequest":{"timelineItems":{"pageInfo":{"hasPreviousPage":true,"startCursor":"LOOP"},"nodes":[]}}}}}`
	fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if isHistory(info) {
			return fakegithub.StatusFault(http.StatusOK, loop)
		}
		return nil
	})
	o := runWith(t, w.env(t))
	if o.code != 1 {
		t.Fatalf("exit %d, want 1 (one PR failed)\n%s", o.code, o)
	}
	reads := 0
	for _, r := range fake.Requests() {
		if isHistory(r) {
			reads++
		}
	}
	if reads > 2 {
		t.Errorf("%d reads of the looping history, want at most 2", reads)
	}
	if !w.hasLabel(w.toMark, "stale") || fake.MustIssue(w.toClose).State != "closed" || w.hasLabel(w.toUnstale, "stale") {
		t.Errorf("the other PRs were not all processed\n%s", o)
	}
	if is := fake.MustIssue(looping); is.State != "open" || !is.HasLabel("stale") {
		t.Errorf("looping #%d was acted on: state %s, labels %v", looping, is.State, is.Labels)
	}
	if !strings.Contains(o.summaryFile, "pages loop") {
		t.Errorf("the summary does not say why #%d failed:\n%s", looping, o.summaryFile)
	}
}

// TestRunNullItemIsAFailedListing: a null in the listing once panicked the
// run (exit 2, no summary); an answer with no data at all is malformed, a
// failed listing that writes nothing.
func TestRunNullItemIsAFailedListing(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"data":null}`, `{"data":{"repository":null}}`, `{}`} {
		w, _ := newWorld(t, false)
		w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: -1,
			Fault: fakegithub.StatusFault(http.StatusOK, body)})
		o := runWith(t, w.env(t))
		if o.code != 1 || o.summaryFile == "" {
			t.Fatalf("%s: want exit 1 with a summary\n%s", body, o)
		}
		if !strings.Contains(o.stdout, "malformed") {
			t.Errorf("%s: the log does not say the answer was malformed:\n%s", body, o.stdout)
		}
		if n := w.fake.Writes(); n != 0 {
			t.Errorf("%s: %d writes on a listing that failed", body, n)
		}
	}
}

// TestFleetListingLinkLoopFails: the fleet's listing once looped for ever.
func TestFleetListingLinkLoopFails(t *testing.T) {
	t.Parallel()
	fake, base := fleetFake(t)
	f := fakegithub.LinkPage(`{"total_count":1,"repositories":[{"full_name":"octo/a","owner":{"login":"octo"}}]}`, 2)
	fake.InjectFault(fakegithub.FaultRule{Route: "/installation/repositories", Times: -1, Fault: f})
	o := runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": base + "/api/v3"}, "-list-repositories", "octo")
	if o.code != ExitFailed || !strings.Contains(o.stderr, "pages loop") {
		t.Errorf("want exit %d saying the pages loop: %v", ExitFailed, o)
	}
	if n := fake.Count(); n > 2 {
		t.Errorf("%d requests for a listing that loops, want at most 2", n)
	}
}

// TestFleetListingErrorsAreRedacted: a 401 or 403's message is the server's
// text: no token, no URL credentials, no terminal escapes in the log.
func TestFleetListingErrorsAreRedacted(t *testing.T) {
	t.Parallel()
	for _, st := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		fake, base := fleetFake(t)
		msg := `{"message":"bad ` + testToken + ` https://u:hunter2@h \u001b[2J\u001b]0;x\u0007\n::error::fake"}`
		fake.InjectFault(fakegithub.FaultRule{Route: "/installation/repositories", Fault: fakegithub.StatusFault(st, msg)})
		o := runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": base + "/api/v3"}, "-list-repositories", "octo")
		if o.code != ExitFailed {
			t.Errorf("%d: exit %d, want %d", st, o.code, ExitFailed)
		}
		for _, bad := range []string{tokenSecret, "hunter2", "\x1b", "\x07", "\n::error::"} {
			if strings.Contains(o.stdout+o.stderr, bad) {
				t.Errorf("%d: the log holds %q:\n%s", st, bad, o.stderr)
			}
		}
	}
}

// TestAPIURLTyposNeverPrintThePassword: http:/u:PASS@h and http:///u:PASS@h
// are read by url.Parse as a path, not credentials; their password once
// showed in the error.
func TestAPIURLTyposNeverPrintThePassword(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"http:/octo:hunter2@ghe.example.com/api/v3", "http:///octo:hunter2@ghe.example.com/api/v3"} {
		e := runnerEnv(t.TempDir(), api)
		for name, o := range map[string]outcome{
			"action":             runWith(t, e),
			"-list-repositories": runWith(t, env{"GITHUB_TOKEN": testToken, "GITHUB_API_URL": api}, "-list-repositories", "octo"),
		} {
			if o.code != ExitUsage || strings.Contains(o.stdout+o.stderr, "hunter2") || !strings.Contains(o.stdout+o.stderr, "GITHUB_API_URL") {
				t.Errorf("%s, GITHUB_API_URL %s: want exit %d naming GITHUB_API_URL without the password:\n%v", name, api, ExitUsage, o)
			}
		}
	}
}
