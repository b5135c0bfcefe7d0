package lifecycle_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestAnswered has one case per part of the hand-back rule (docs/rules.md
// "Hand the turn back"): who the PR waits on beyond its pending requests.
func TestAnswered(t *testing.T) {
	opened := daysAgo(60)
	d := func(n float64) time.Time { return opened.Add(time.Duration(n * float64(lifecycle.Day))) }
	asked := reviewed(d(2), maintainer, "MEMBER", "changes_requested")
	cases := []struct {
		name    string
		events  []lifecycle.Event
		want    []string
		waitsOn []string
	}{
		{name: "a change request not answered yet waits on the author",
			events: []lifecycle.Event{asked}},
		{name: "the author's push answers it: the reviewer is waited on",
			events: []lifecycle.Event{asked, pushed(d(3), false)}, want: []string{maintainer}, waitsOn: []string{maintainer}},
		{name: "the author's comment answers it",
			events: []lifecycle.Event{asked, said(d(3), author, "CONTRIBUTOR")}, want: []string{maintainer}, waitsOn: []string{maintainer}},
		{name: "a bot's push answers nothing",
			events: []lifecycle.Event{asked, pushed(d(3), true)}},
		{name: "a third person's comment answers nothing",
			events: []lifecycle.Event{asked, said(d(3), "carol", "NONE")}},
		{name: "a review requested again after the answer: pending, not answered",
			events:  []lifecycle.Event{asked, pushed(d(3), false), requested(d(4), selfLogin, "", maintainer)},
			waitsOn: []string{maintainer}},
		{name: "a request withdrawn after the answer: a person's word, not waited on",
			events: []lifecycle.Event{asked, pushed(d(3), false), requested(d(4), author, "", maintainer),
				{Kind: lifecycle.ReviewRequestRemoved, At: d(5), Actor: other, Reviewer: maintainer}}},
		{name: "the reviewer reviewed again after the answer: not answered",
			events: []lifecycle.Event{asked, pushed(d(3), false), reviewed(d(4), maintainer, "MEMBER", "commented")}},
		{name: "answered again after the reviewer's second look",
			events: []lifecycle.Event{asked, pushed(d(3), false), reviewed(d(4), maintainer, "MEMBER", "commented"), pushed(d(5), false)},
			want:   []string{maintainer}, waitsOn: []string{maintainer}},
		{name: "an approval ends the change request",
			events: []lifecycle.Event{asked, reviewed(d(3), maintainer, "MEMBER", "approved"), pushed(d(4), false)}},
		{name: "a dismissed change request stands no more",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "dismissed"), pushed(d(3), false)}},
		{name: "a stranger's change request is nobody's to hand back",
			events: []lifecycle.Event{reviewed(d(2), "carol", "NONE", "changes_requested"), pushed(d(3), false)}},
		{name: "a bot's change request is never waited on",
			events: []lifecycle.Event{asBot(reviewed(d(2), "lint[bot]", "NONE", "changes_requested")), pushed(d(3), false)}},
		{name: "pending requests first, then the answered change requests",
			events: []lifecycle.Event{requested(d(1), author, "", "bob"), asked, pushed(d(3), false)},
			want:   []string{maintainer}, waitsOn: []string{"bob", maintainer}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lifecycle.PR{Number: 1, Author: author, CreatedAt: opened}
			a := lifecycle.Summarize(p, c.events, staleLabel, []string{selfLogin})
			var got []string
			for _, r := range a.Answered {
				got = append(got, r.Reviewer)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Answered = %q, want %q", got, c.want)
			}
			if w := a.WaitsOn(author); !slices.Equal(w, c.waitsOn) {
				t.Errorf("WaitsOn = %q, want %q", w, c.waitsOn)
			}
		})
	}
}

func TestWaitsOnNeverTheAuthorNorABot(t *testing.T) {
	a := lifecycle.Activity{PendingReviewers: []string{author, "ci[bot]", "bob"},
		Answered: []lifecycle.Answered{{Reviewer: "BOB"}, {Reviewer: "maya"}}}
	if got := a.WaitsOn(author); !slices.Equal(got, []string{"bob", "maya"}) {
		t.Errorf("WaitsOn = %q", got)
	}
}

// TestDecideRerequest: rerequest-reviewers-on-answer, once per answer.
func TestDecideRerequest(t *testing.T) {
	on := func(p *lifecycle.Policy) { p.RerequestOnAnswer = true }
	answered := func(whose lifecycle.Whose, logins ...string) *lifecycle.Activity {
		a := turnAct(whose, daysAgo(2))
		for _, l := range logins {
			a.Answered = append(a.Answered, lifecycle.Answered{Reviewer: l, ReviewedAt: daysAgo(5), AnsweredAt: daysAgo(2)})
		}
		return a
	}
	closed := answered(lifecycle.TurnReviewers, maintainer)
	closed.ClosedNow = true
	cases := []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		policy lifecycle.Policy
		want   []string
	}{
		{name: "off by default", pr: pr(now), act: answered(lifecycle.TurnReviewers, maintainer), policy: policy()},
		{name: "the answered reviewers are requested again", pr: pr(now), act: answered(lifecycle.TurnReviewers, maintainer, other),
			policy: policy(on), want: []string{maintainer, other}},
		{name: "nothing answered, nothing requested", pr: pr(now), act: answered(lifecycle.TurnReviewers), policy: policy(on)},
		{name: "the turn unread: nothing requested (no extra read for it)", pr: pr(now), policy: policy(on)},
		{name: "still the author's turn (a draft, a conflict): not yet", pr: pr(now),
			act: answered(lifecycle.TurnAuthor, maintainer), policy: policy(on)},
		{name: "never the author", pr: pr(now), act: answered(lifecycle.TurnReviewers, author, maintainer),
			policy: policy(on), want: []string{maintainer}},
		{name: "never a bot", pr: pr(now), act: answered(lifecycle.TurnReviewers, "ci[bot]", "robo"),
			policy: policy(on, func(p *lifecycle.Policy) { p.BotAccounts = []string{"robo"} })},
		{name: "exempt PRs are left alone", pr: pr(now, "keep"), act: answered(lifecycle.TurnReviewers, maintainer),
			policy: policy(on, func(p *lifecycle.Policy) { p.ExemptLabels = []string{"keep"} })},
		{name: "closed since it was listed: left alone", pr: pr(now), act: closed, policy: policy(on)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lifecycle.DecideRerequest(c.pr, c.act, now, c.policy); !slices.Equal(got, c.want) {
				t.Errorf("DecideRerequest = %q, want %q", got, c.want)
			}
		})
	}
}

// TestStillUnrequested: the fresh read before a re-request finds a
// concurrent run's request (or the reviewer's own review) and asks no more.
func TestStillUnrequested(t *testing.T) {
	ans := []lifecycle.Answered{{Reviewer: maintainer, ReviewedAt: daysAgo(5), AnsweredAt: daysAgo(3)},
		{Reviewer: other, ReviewedAt: daysAgo(5), AnsweredAt: daysAgo(3)}}
	cases := []struct {
		name   string
		recent []lifecycle.Event
		want   []string
	}{
		{name: "nothing since: both due", recent: []lifecycle.Event{pushed(daysAgo(3), false)}, want: []string{maintainer, other}},
		{name: "a concurrent run's request: that one is done",
			recent: []lifecycle.Event{requested(daysAgo(0.01), selfLogin, "", maintainer)}, want: []string{other}},
		{name: "a request before the review is no answer's",
			recent: []lifecycle.Event{requested(daysAgo(6), author, "", maintainer)}, want: []string{maintainer, other}},
		{name: "a review since: done",
			recent: []lifecycle.Event{reviewed(daysAgo(1), other, "MEMBER", "approved")}, want: []string{maintainer}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lifecycle.StillUnrequested([]string{maintainer, other, "nobody"}, ans, c.recent)
			if !slices.Equal(got, c.want) {
				t.Errorf("StillUnrequested = %q, want %q", got, c.want)
			}
		})
	}
}
