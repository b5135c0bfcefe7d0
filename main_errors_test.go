package main

// A run that cannot list says why, with what to do, in one ::error:: line per
// failure class; never a generic hint, never a JSON decoding error.

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func TestRunListingFailureSaysWhatToDo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		setup func(t *testing.T, w *world, e env) env
		want  []string
	}{
		{"bad credentials", func(t *testing.T, w *world, e env) env {
			w.fake.SetToken("ghs_another")
			return e
		}, []string{"401 Bad credentials", "repo-token"}},
		{"repository not visible", func(t *testing.T, w *world, e env) env {
			e[inputVar("repository")] = "octo/elsewhere"
			return e
		}, []string{"octo/elsewhere does not exist or this token cannot see it"}},
		{"missing permission", func(t *testing.T, w *world, e env) env {
			w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
				return fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration"}`)
			})
			return e
		}, []string{"Resource not accessible by integration", "`pull-requests: write`"}},
		{"web URL instead of the API", func(t *testing.T, w *world, e env) env {
			web := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
				rw.Header().Set("Content-Type", "text/html; charset=utf-8")
				rw.Write([]byte("<!DOCTYPE html><html><body>Sign in to GitHub</body></html>"))
			}))
			t.Cleanup(web.Close)
			e["GITHUB_API_URL"] = web.URL
			return e
		}, []string{"answered an HTML page", "/api/v3", "not the web address"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, _ := newWorld(t, false)
			o := runWith(t, tc.setup(t, w, w.env(t)))
			if o.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", o.code, o)
			}
			errs := testenv.ErrorLines(o.stdout)
			if len(errs) != 1 {
				t.Fatalf("%d error annotations, want 1\n%s", len(errs), o)
			}
			for _, s := range tc.want {
				if !strings.Contains(errs[0], s) {
					t.Errorf("error line %q\nwant it to mention %q", errs[0], s)
				}
			}
			// The token appears once, in the mask command the runner consumes.
			log := strings.Replace(o.stdout, "::add-mask::"+testToken+"\n", "", 1) + o.stderr + o.summaryFile
			for _, s := range []string{"invalid character", "Check the token's permissions", tokenSecret, "pull requests left for the next run"} {
				if strings.Contains(log, s) {
					t.Errorf("the log or summary holds %q\n%s", s, o)
				}
			}
		})
	}
}

// A listing refused with a long error (a 422 listing thousands of
// "errors", which go-github puts in its text) gives an annotation of one
// bounded line: the log and the summary cut it, and so does the ::error::.
func TestRunListingFailureAnnotationIsBounded(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	var errs strings.Builder
	for i := 0; i < 5000; i++ {
		if i > 0 {
			errs.WriteString(",")
		}
		errs.WriteString(`{"resource":"Issue","field":"labels","code":"invalid"}`)
	}
	body := `{"message":"Validation Failed","errors":[` + errs.String() + `]}`
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault { return fakegithub.StatusFault(422, body) })
	o := runWith(t, w.env(t))
	lines := testenv.ErrorLines(o.stdout)
	if o.code != 1 || len(lines) != 1 {
		t.Fatalf("exit %d, %d error annotations; want 1 and 1\n%.2000s", o.code, len(lines), o)
	}
	if n := len([]rune(lines[0])); n > 2000 || !strings.Contains(lines[0], "Validation Failed") {
		t.Errorf("the annotation is %d characters, want at most 2000 and the cause named: %.300s", n, lines[0])
	}
}

// TestRunRefusesATeamOfAnotherOrganisation: GitHub requests a pull
// request's teams by slug within the repository's organisation, so
// escalation-reviewers: other-org/core would ask octo's team core, which
// no input named. The run is refused before any request, exit 2, with an
// ::error:: naming the input, the value and what it takes; the same run
// with octo/core asks that team, so the refusal is what keeps the request
// from being sent.
func TestRunRefusesATeamOfAnotherOrganisation(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, team string) (*world, int, outcome) {
		w, _ := newWorld(t, false)
		n := w.fake.AddPR(fakegithub.Issue{Title: "Waits on rey", User: alice, CreatedAt: daysAgo(20), UpdatedAt: daysAgo(20)})
		w.fake.RequestReview(n, alice, daysAgo(20), "rey")
		w.fake.Comment(n, actionID, daysAgo(8), "@rey This pull request has been waiting 12 days for a review.\n\n<!-- stalepr:nudge -->")
		e := w.env(t)
		for k, v := range map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "7",
			"days-before-review-escalation": "7", "escalation-reviewers": team} {
			e[inputVar(k)] = v
		}
		return w, n, runWith(t, e)
	}
	w, n, o := run(t, "octo/core")
	if o.code != ExitOK || !slices.ContainsFunc(w.fake.Events(n), func(e fakegithub.Event) bool {
		return e.Type == fakegithub.EventReviewRequested && e.Team == "core"
	}) {
		t.Fatalf("escalation-reviewers octo/core: the team core was not asked on #%d, so the refusal below proves nothing\n%s", n, o)
	}

	w, _, o = run(t, "other-org/core")
	errs := testenv.ErrorLines(o.stdout)
	want := `input "escalation-reviewers": holds "other-org/core", a team of another organisation than octo, which owns the repository`
	if o.code != ExitUsage || len(errs) != 1 || !strings.Contains(errs[0], want) || !strings.Contains(errs[0], "want logins (alice) or teams of octo as octo/team") {
		t.Errorf("exit %d, errors %q; want %d and one error %q", o.code, errs, ExitUsage, want)
	}
	if c := w.fake.Count(); c != 0 {
		t.Errorf("%d requests reached GitHub, want none: %v", c, w.fake.CountBy())
	}
}
