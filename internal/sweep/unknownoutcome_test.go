package sweep_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// A comment that GitHub applies after the client's timeout
// (the verifying read sees nothing yet) is not posted again: the PR is left
// for the next run, which finds the late notice and posts nothing.
func TestUnknownOutcomeLateCommentIsNotPostedTwice(t *testing.T) {
	testenv.Long(t) // each case waits out a real 1 s attempt timeout; TestSafetyLostWriteAnswers keeps an unknown outcome in -short
	t.Parallel()
	for _, what := range []string{"stale notice", "closing comment"} {
		t.Run(what, func(t *testing.T) {
			t.Parallel() // each waits out a real attempt timeout
			w := newWorld(t)
			var n int
			kind := "stale"
			if what == "stale notice" {
				n = w.pr(100)
			} else {
				n, kind = w.markedPR(40), "close"
			}
			w.fake.InjectFault(fakegithub.FaultRule{Method: "POST", Route: sfPRCommentsRoute, Fault: fakegithub.LateWrite()})
			inputs := map[string]string{"write-interval": "0s"}
			cfg := w.config(inputs)
			client, err := ghapi.New(ghapi.Options{
				Token: string(cfg.Token), APIURL: w.srv.URL + "/api/v3", Owner: cfg.Owner, Repo: cfg.Repo, Clock: w.clock,
				Limits: ghapi.Limits{MaxRequests: cfg.OperationsPerRun, Reserve: cfg.RateLimitReserve,
					// Long enough that no read times out on a loaded CI
					// machine: the verifying read, timed out and retried,
					// would find the late comment (GitHub may have finished
					// it by then) and the run rightly go on to close.
					AttemptTimeout: time.Second},
			})
			if err != nil {
				t.Fatal(err)
			}
			res := sweep.Run(context.Background(), client, cfg, w.now(), &nopLog{})
			if !strings.Contains(faultsOf(w), "late") {
				t.Fatal("the late write never landed")
			}
			if posts := w.fake.CountBy()["POST "+sfPRCommentsRoute]; posts != 1 {
				t.Errorf("%d comment posts, want 1: a write whose outcome is unknown is not sent again", posts)
			}
			if len(res.Failed()) != 1 || res.Failed()[0].Number != n || !strings.Contains(res.Failed()[0].Err, "outcome unknown") {
				t.Errorf("failed %+v; want #%d failed with its outcome unknown", res.Failed(), n)
			}
			if c := w.notices(n, kind); c != 1 {
				t.Fatalf("#%d: %d %s notices after the run, want the late one alone", n, c, kind)
			}
			if kind == "close" && w.state(n) != "open" {
				t.Errorf("#%d closed in the run whose closing comment's outcome was unknown", n)
			}
			// Not "left untouched": the comment may have landed.
			if f := res.Failed()[0]; !f.MaybeWritten || strings.Contains(report.Summary(res, "octo/repo"), "were left untouched because") {
				t.Errorf("#%d: maybe written %v; the summary must not say it was left untouched:\n%s", n, f.MaybeWritten, report.Summary(res, "octo/repo"))
			}
			// The next run finds the notice and finishes without posting.
			w.clock.Advance(time.Hour)
			next := w.run(inputs)
			if !next.OK() {
				t.Errorf("next run: failed %+v, stopped %v", next.Failed(), next.Stopped)
			}
			if c := w.notices(n, kind); c != 1 {
				t.Errorf("#%d: %d %s notices after the next run, want 1", n, c, kind)
			}
			if kind == "close" && w.state(n) != "closed" {
				t.Errorf("#%d not closed by the next run", n)
			}
		})
	}
}

// faultsOf lists the faults of every logged request.
func faultsOf(w *world) string {
	var b strings.Builder
	for _, r := range w.fake.Requests() {
		b.WriteString(r.Fault + " ")
	}
	return b.String()
}

// Only an answer saying the PR is now a draft counts as a
// conversion. Any other answer of the mutation fails that PR: no closing
// comment, no label change on a PR that is still a normal open PR.
func TestUnknownOutcomeDraftConversionMustSayDraft(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"empty object":         `{}`,
		"null data":            `{"data":null}`,
		"null payload":         `{"data":{"convertPullRequestToDraft":null}}`,
		"null pull request":    `{"data":{"convertPullRequestToDraft":{"pullRequest":null}}}`,
		"isDraft false":        `{"data":{"convertPullRequestToDraft":{"pullRequest":{"isDraft":false}}}}`,
		"isDraft missing":      `{"data":{"convertPullRequestToDraft":{"pullRequest":{}}}}`,
		"isDraft not a bool":   `{"data":{"convertPullRequestToDraft":{"pullRequest":{"isDraft":"true"}}}}`,
		"errors and null data": `{"data":null,"errors":[{"message":"Something went wrong"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(40)
			before := w.labels(n)
			// The mutation's answer, whatever queries come before it (the
			// listing pages are GraphQL too).
			w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Writes: true, Fault: fakegithub.StatusFault(200, body)})
			res := w.run(draftInputs)
			if w.fake.MustIssue(n).Draft {
				t.Fatal("the fault did not answer for the mutation")
			}
			if c := w.notices(n, "close"); c != 0 {
				t.Errorf("%d closing comments on a PR still open and not a draft", c)
			}
			if got := w.labels(n); strings.Join(got, ",") != strings.Join(before, ",") {
				t.Errorf("labels %v, want %v untouched", got, before)
			}
			if has(res.Closed(), n) || len(res.Failed()) != 1 || res.Failed()[0].Number != n ||
				!strings.Contains(res.Failed()[0].Err, "not converted") {
				t.Errorf("closed %v failed %+v; want #%d failed, not converted", numbers(res.Closed()), res.Failed(), n)
			}
		})
	}
}
