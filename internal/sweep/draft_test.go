package sweep_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func TestCloseActionDraft(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(40)
	res := w.run(draftInputs)
	is := w.fake.MustIssue(n)
	if is.State != "open" || !is.Draft || w.hasLabel(n, "stale") || !w.hasLabel(n, "closed-stale") {
		t.Fatalf("state %s draft %v labels %v: want open, a draft, closed-stale instead of stale", is.State, is.Draft, w.labels(n))
	}
	if w.notices(n, "close") != 1 || !has(res.Closed(), n) {
		t.Fatalf("%d closing comments: want one", w.notices(n, "close"))
	}
	w.clock.Advance(24 * time.Hour)
	w.run(draftInputs)
	if w.notices(n, "close") != 1 || w.notices(n, "stale") != 1 {
		t.Error("the next run wrote again on the converted draft")
	}
}

// A run that stops between the conversion and the comment is finished by
// the next: one closing comment, label swapped.
func TestCloseActionDraftAfterACrash(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(40)
	var mu sync.Mutex
	converted := false
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasSuffix(r.Path, "graphql") {
			converted = true
			return nil
		}
		if converted && r.Write {
			return fakegithub.DropConnection() // the run dies after the conversion
		}
		return nil
	})
	w.run(draftInputs)
	if !w.fake.MustIssue(n).Draft || !w.hasLabel(n, "stale") {
		t.Fatalf("after the crash: draft %v labels %v: want a stale-labelled draft", w.fake.MustIssue(n).Draft, w.labels(n))
	}
	w.fake.SetFaultHook(nil)
	w.run(draftInputs)
	if w.hasLabel(n, "stale") || w.notices(n, "close") != 1 || w.fake.MustIssue(n).State != "open" {
		t.Fatalf("next run: labels %v, %d closing comments, state %s", w.labels(n), w.notices(n, "close"), w.fake.MustIssue(n).State)
	}
}

// GitHub refuses the mutation to GITHUB_TOKEN: nothing converted, nothing
// closed instead, no closing comment, the run fails saying which token.
func TestCloseActionDraftForbidden(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.markedPR(40), w.markedPR(41)
	w.fake.SetDraftForbidden(true)
	res := w.run(draftInputs)
	for _, n := range []int{a, b} {
		is := w.fake.MustIssue(n)
		if is.State != "open" || is.Draft || !w.hasLabel(n, "stale") || w.notices(n, "close") != 0 {
			t.Errorf("#%d: state %s draft %v labels %v, %d closing comments; want untouched", n, is.State, is.Draft, w.labels(n), w.notices(n, "close"))
		}
	}
	if res.OK() || len(res.Failed()) != 2 {
		t.Fatalf("run OK %v, failed %d: want it to fail for both", res.OK(), len(res.Failed()))
	}
	if !strings.Contains(res.Failed()[0].Err, "personal access token") {
		t.Errorf("error %q does not say which token to use", res.Failed()[0].Err)
	}
	graphql := 0
	for _, r := range w.fake.Requests() {
		if strings.HasSuffix(r.Path, "graphql") && strings.Contains(r.Body, "convertPullRequestToDraft") {
			graphql++
		}
	}
	if graphql != 1 {
		t.Errorf("%d conversion attempts: after GitHub refused once, no more", graphql)
	}
}
