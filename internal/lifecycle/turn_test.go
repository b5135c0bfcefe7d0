package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

const maintainer, other = "maya", "mo" // both MEMBER

func said(at time.Time, login, assoc string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: login, Association: assoc}
}

func reviewed(at time.Time, login, assoc, state string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Reviewed, At: at, Actor: login, Association: assoc, ReviewState: state}
}

func pushed(at time.Time, bot bool) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Committed, At: at, Bot: bot}
}

func kind(k lifecycle.EventKind, at time.Time, login string) lifecycle.Event {
	return lifecycle.Event{Kind: k, At: at, Actor: login}
}

// TestTurnOf has one case per rule of the README's "Whose turn it is".
func TestTurnOf(t *testing.T) {
	opened := daysAgo(60)
	d := func(n float64) time.Time { return opened.Add(time.Duration(n * float64(lifecycle.Day))) }
	self := []string{selfLogin}
	cases := []struct {
		name   string
		pr     lifecycle.PR
		events []lifecycle.Event
		whose  lifecycle.Whose
		since  time.Time
		by     string
	}{
		{name: "opened: the reviewers' turn", whose: lifecycle.TurnReviewers, since: opened},
		{name: "a maintainer's change request passes it to the author",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "changes_requested")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "a maintainer's commenting review passes it to the author",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "COLLABORATOR", "commented")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "a maintainer's comment passes it to the author",
			events: []lifecycle.Event{said(d(2), maintainer, "OWNER")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "a maintainer's review comment passes it to the author",
			events: []lifecycle.Event{{Kind: lifecycle.ReviewCommented, At: d(2), Actor: maintainer, Association: "MEMBER"}},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "the author's turn counts from the first maintainer action, not the last",
			events: []lifecycle.Event{said(d(2), maintainer, "MEMBER"), said(d(5), other, "MEMBER")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "the author's push hands it back",
			events: []lifecycle.Event{said(d(2), maintainer, "MEMBER"), pushed(d(3), false)},
			whose:  lifecycle.TurnReviewers, since: d(3)},
		{name: "a bot's push does not hand it back",
			events: []lifecycle.Event{said(d(2), maintainer, "MEMBER"), pushed(d(3), true)},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "the author's comment hands it back",
			events: []lifecycle.Event{said(d(2), maintainer, "MEMBER"), said(d(3), author, "CONTRIBUTOR")},
			whose:  lifecycle.TurnReviewers, since: d(3)},
		{name: "the author's reply to a review hands it back",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "changes_requested"),
				{Kind: lifecycle.ReviewCommented, At: d(3), Actor: author, Association: "CONTRIBUTOR"}},
			whose: lifecycle.TurnReviewers, since: d(3)},
		{name: "a re-requested review hands it back",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "changes_requested"),
				{Kind: lifecycle.ReviewRequested, At: d(3), Actor: author, Reviewer: maintainer}},
			whose: lifecycle.TurnReviewers, since: d(3)},
		{name: "the author's comment on the reviewers' turn does not restart it",
			events: []lifecycle.Event{said(d(3), author, "CONTRIBUTOR")},
			whose:  lifecycle.TurnReviewers, since: opened},
		{name: "a third person's +1 changes nothing",
			events: []lifecycle.Event{said(d(2), maintainer, "MEMBER"), said(d(3), "carol", "CONTRIBUTOR"), said(d(4), "dan", "NONE")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: maintainer},
		{name: "a bot's comment changes nothing, whatever its association",
			events: []lifecycle.Event{{Kind: lifecycle.Commented, At: d(2), Actor: "ci[bot]", Bot: true, Association: "MEMBER"}},
			whose:  lifecycle.TurnReviewers, since: opened},
		{name: "stalepr's own comments change nothing",
			events: []lifecycle.Event{said(d(2), selfLogin, "MEMBER")},
			whose:  lifecycle.TurnReviewers, since: opened},
		{name: "an approval puts it on the maintainers' turn",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "approved")},
			whose:  lifecycle.TurnMaintainers, since: d(2)},
		{name: "a maintainer's comment after an approval leaves it theirs",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "approved"), said(d(3), maintainer, "MEMBER")},
			whose:  lifecycle.TurnMaintainers, since: d(2)},
		{name: "an approval followed by another reviewer's change request is the author's turn",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "approved"), reviewed(d(3), other, "MEMBER", "changes_requested")},
			whose:  lifecycle.TurnAuthor, since: d(3), by: other},
		{name: "a change request the same reviewer later approves is the maintainers' turn",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "changes_requested"), pushed(d(3), false),
				reviewed(d(4), maintainer, "MEMBER", "approved")},
			whose: lifecycle.TurnMaintainers, since: d(4)},
		{name: "a third person's approval changes nothing",
			events: []lifecycle.Event{reviewed(d(2), "carol", "CONTRIBUTOR", "approved")},
			whose:  lifecycle.TurnReviewers, since: opened},
		{name: "a dismissed review passes nothing",
			events: []lifecycle.Event{reviewed(d(2), maintainer, "MEMBER", "dismissed")},
			whose:  lifecycle.TurnReviewers, since: opened},
		{name: "a draft is on the author's turn from when it became one",
			events: []lifecycle.Event{kind(lifecycle.ConvertedToDraft, d(4), maintainer)},
			pr:     lifecycle.PR{Draft: true},
			whose:  lifecycle.TurnAuthor, since: d(4)},
		{name: "a PR opened as a draft is on the author's turn from its creation",
			pr:    lifecycle.PR{Draft: true},
			whose: lifecycle.TurnAuthor, since: opened},
		{name: "a draft stays the author's whatever the author does",
			events: []lifecycle.Event{said(d(2), author, "CONTRIBUTOR"), pushed(d(3), false)},
			pr:     lifecycle.PR{Draft: true},
			whose:  lifecycle.TurnAuthor, since: opened},
		{name: "marking the draft ready hands it to the reviewers",
			events: []lifecycle.Event{said(d(1), maintainer, "MEMBER"), kind(lifecycle.ReadyForReview, d(5), author)},
			whose:  lifecycle.TurnReviewers, since: d(5)},
		{name: "a maintainer's own PR: its author's acts are the author's",
			pr: lifecycle.PR{Author: maintainer},
			events: []lifecycle.Event{said(d(1), maintainer, "MEMBER"), reviewed(d(2), other, "MEMBER", "changes_requested"),
				said(d(3), maintainer, "MEMBER")},
			whose: lifecycle.TurnReviewers, since: d(3)},
		{name: "a maintainer's own PR: another maintainer's review passes it to its author",
			pr:     lifecycle.PR{Author: maintainer},
			events: []lifecycle.Event{said(d(1), maintainer, "MEMBER"), reviewed(d(2), other, "MEMBER", "changes_requested")},
			whose:  lifecycle.TurnAuthor, since: d(2), by: other},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.pr
			if p.Author == "" {
				p.Author = author
			}
			p.CreatedAt = opened
			got := lifecycle.Summarize(p, c.events, staleLabel, self).Turn
			if got.Whose != c.whose || !got.Since.Equal(c.since) || got.By != c.by {
				t.Errorf("TurnOf = %v since %s by %q, want %v since %s by %q", got.Whose, got.Since.Format(time.DateOnly), got.By,
					c.whose, c.since.Format(time.DateOnly), c.by)
			}
		})
	}
}

func TestTurnOfNudgedAt(t *testing.T) {
	at := daysAgo(3)
	events := []lifecycle.Event{
		{Kind: lifecycle.Commented, At: at, Actor: selfLogin, Notice: lifecycle.NudgeNotice},
		{Kind: lifecycle.Commented, At: daysAgo(2), Actor: "mallory", Notice: lifecycle.NudgeNotice}, // a quote
	}
	got := lifecycle.Summarize(lifecycle.PR{Author: author, CreatedAt: daysAgo(10)}, events, staleLabel, []string{selfLogin}).Turn
	if !got.NudgedAt.Equal(at) {
		t.Errorf("NudgedAt = %s, want our own nudge's %s", got.NudgedAt, at)
	}
}

func turnAct(whose lifecycle.Whose, since time.Time) *lifecycle.Activity {
	return &lifecycle.Activity{Turn: lifecycle.Turn{Whose: whose, Since: since}, LastPersonAt: since, LastPersonLogin: maintainer}
}

func authorTurn(p *lifecycle.Policy) { p.StaleClock = lifecycle.ClockAuthorTurn }

func TestDecideNudge(t *testing.T) {
	nudgeDays := func(n int, label string) func(*lifecycle.Policy) {
		return func(p *lifecycle.Policy) { p.DaysBeforeReviewNudge, p.NudgeLabel = n, label }
	}
	nudged := func(whose lifecycle.Whose, since, at time.Time) *lifecycle.Activity {
		a := turnAct(whose, since)
		a.Turn.NudgedAt = at
		return a
	}
	const label = "waiting-on-review"
	cases := []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		policy lifecycle.Policy
		want   lifecycle.NudgeAction
	}{
		{name: "off by default", pr: pr(daysAgo(40)), act: turnAct(lifecycle.TurnReviewers, daysAgo(40)),
			policy: policy(nudgeDays(-1, "")), want: lifecycle.NudgeNone},
		{name: "the listing cannot tell the turn", pr: pr(now), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeDetail},
		{name: "a PR younger than the wait needs no timeline", pr: with(pr(now), created(daysAgo(3))),
			policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "nudged after days-before-review-nudge days on the reviewers' turn", pr: pr(now),
			act: turnAct(lifecycle.TurnReviewers, daysAgo(8)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgePost},
		{name: "not before", pr: pr(now),
			act: turnAct(lifecycle.TurnReviewers, daysAgo(6)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "at most once per turn", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "again on a later reviewers' turn", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(9), daysAgo(20)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgePost},
		{name: "never on the author's turn", pr: pr(now),
			act: turnAct(lifecycle.TurnAuthor, daysAgo(30)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "on the maintainers' turn, to merge", pr: pr(now),
			act: turnAct(lifecycle.TurnMaintainers, daysAgo(30)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgePost},
		{name: "the maintainers' turn, nudged in it already", pr: pr(now),
			act: nudged(lifecycle.TurnMaintainers, daysAgo(30), daysAgo(20)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "the maintainers' turn, not due yet", pr: pr(now),
			act: turnAct(lifecycle.TurnMaintainers, daysAgo(3)), policy: policy(nudgeDays(7, "")), want: lifecycle.NudgeNone},
		{name: "the label a stopped run did not add is added", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10)), policy: policy(nudgeDays(7, label)), want: lifecycle.NudgeLabel},
		{name: "the label comes off when the turn passes", pr: pr(now, label),
			act: nudged(lifecycle.TurnAuthor, daysAgo(2), daysAgo(10)), policy: policy(nudgeDays(7, label)), want: lifecycle.NudgeUnlabel},
		{name: "a labelled PR needs its turn read", pr: with(pr(now, label), created(daysAgo(3))),
			policy: policy(nudgeDays(7, label)), want: lifecycle.NudgeDetail},
		{name: "exempt PRs are left alone", pr: pr(now, "keep"), act: turnAct(lifecycle.TurnReviewers, daysAgo(8)),
			policy: policy(nudgeDays(7, ""), func(p *lifecycle.Policy) { p.ExemptLabels = []string{"keep"} }), want: lifecycle.NudgeNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lifecycle.DecideNudge(c.pr, c.act, now, c.policy); got != c.want {
				t.Errorf("DecideNudge = %d, want %d", got, c.want)
			}
		})
	}
}
