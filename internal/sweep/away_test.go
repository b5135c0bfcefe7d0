package sweep_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Availability, end to end through the HTTP path: docs/rules.md
// "Availability".

// TestAwayNotNudged: a reviewer listed away is not mentioned by the nudge,
// which says why; the others are.
func TestAwayNotNudged(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	w.fake.RequestReview(n, alice, daysAgo(10), "sam")
	w.run(sfWith(nudgeInputs, "away-reviewers", "rey"))
	if w.notices(n, "nudge") != 1 {
		t.Fatalf("#%d: %d nudges, want 1", n, w.notices(n, "nudge"))
	}
	body := w.fake.Comments(n)[0].Body
	if !strings.Contains(body, "@sam") || strings.Contains(body, "@rey") || !strings.Contains(body, "Not asked: rey, who is away.") {
		t.Errorf("the nudge must mention @sam, and name rey as away without a mention:\n%s", body)
	}
}

// TestAwayEscalatesAtOnce: a PR that waits on away reviewers alone gets no
// nudge; on the day the nudge would have come it is escalated, once, and
// the escalation says why. Without escalation, nothing is written.
func TestAwayEscalatesAtOnce(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	young := w.openPR(5, alice)
	w.fake.RequestReview(young, alice, daysAgo(5), "rey")

	w.run(sfWith(nudgeInputs, "away-reviewers", "rey"))
	if got := w.fake.Writes(); got != 0 {
		t.Fatalf("without escalation: %d writes, want none", got)
	}
	inputs := sfWith(escalateInputs, "away-reviewers", "rey")
	res := w.run(inputs)
	if got := numbers(res.With(sweep.Escalated)); len(got) != 1 || got[0] != n || len(res.Nudged()) != 0 {
		t.Fatalf("escalated %v, nudged %v; want #%d escalated alone, nobody nudged", got, numbers(res.Nudged()), n)
	}
	body := w.fake.Comments(n)[0].Body
	if !strings.Contains(body, "@lead") || strings.Contains(body, "@rey") || !strings.Contains(body, "Not asked: rey, who is away.") {
		t.Errorf("the escalation must mention @lead and name rey as away:\n%s", body)
	}
	// No nudge was posted: none went unanswered, and neither text says so.
	if strings.Contains(body, "unanswered") || !strings.Contains(body, "none of its reviewers can be asked now") {
		t.Errorf("the escalation of a PR never nudged must say its reviewers cannot be asked, not that a reminder went unanswered:\n%s", body)
	}
	if r := why(res.Items, n); strings.Contains(string(r), "unanswered") || !strings.HasPrefix(string(r), string(lifecycle.ReasonEscalatedAway)) {
		t.Errorf("#%d escalated for %q, want %q", n, r, lifecycle.ReasonEscalatedAway)
	}
	w.clock.Advance(3 * lifecycle.Day)
	w.run(inputs)
	if w.escalations(n) != 1 || w.notices(n, "nudge") != 0 || w.escalations(young) != 1 {
		t.Errorf("after three days: #%d %d escalations, %d nudges (want 1, 0); #%d %d escalations (want 1)",
			n, w.escalations(n), w.notices(n, "nudge"), young, w.escalations(young))
	}
}

// TestAwayEscalationDueWithNobodyToAsk: a PR whose reviewers are all away
// gets no nudge; with every escalation reviewer away too, nobody is asked,
// and the dashboard's row says since when the escalation is due: when the
// nudge would have come, not the nudge-less zero date (0001-01-01).
func TestAwayEscalationDueWithNobodyToAsk(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	res := w.run(sfWith(escalateInputs, "away-reviewers", "rey,lead", "escalation-reviewers", "lead"))
	for _, it := range res.Queue {
		if it.Number != n {
			continue
		}
		if want := daysAgo(3); !it.Escalate || !it.EscalationDue.Equal(want) {
			t.Errorf("#%d: escalate %v, due %v; want due %v (the nudge's day: 7 days into the reviewers' turn)", n, it.Escalate, it.EscalationDue, want)
		}
		d := report.Dashboard(res)
		if !strings.Contains(d, "due 2026\u201111\u201126") || !strings.Contains(d, "or none was posted, every reviewer they wait on being away or busy") {
			t.Errorf("the dashboard's Escalated section must say no nudge was posted, and the escalation's due date:\n%s", d)
		}
		return
	}
	t.Fatalf("#%d not in the queue", n)
}

// TestWithdrawnReviewerEscalatesAtOnce: a reviewer who withdraws the review
// requested of them, with nobody else asked, leaves the PR with nobody to
// ask: no nudge names nobody, and the escalation comes on the next run
// (the nudge's day being past), saying who withdrew, not 14 days late
// after a nudge that asked no one. A PR whose reviewer is still asked is
// nudged as before.
func TestWithdrawnReviewerEscalatesAtOnce(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	bob := fakegithub.Person("bob")
	f.AddMember(bob.Login)
	n := w.openPR(20, alice)
	f.RequestReview(n, alice, daysAgo(20), bob.Login)
	f.RemoveReviewRequest(n, bob, daysAgo(18), bob.Login) // "not me"
	asked := w.openPR(20, alice)
	f.RequestReview(asked, alice, daysAgo(20), bob.Login)

	w.run(nudgeInputs)
	if ws := w.writesTo(n); len(ws) != 0 {
		t.Errorf("#%d without escalation: writes %v, want none (a nudge would name nobody)", n, ws)
	}
	if w.notices(asked, "nudge") != 1 || !strings.Contains(w.fake.Comments(asked)[0].Body, "@bob") {
		t.Errorf("#%d, bob still asked: want one nudge mentioning @bob: %v", asked, w.fake.Comments(asked))
	}

	res := w.run(escalateInputs)
	if got := numbers(res.With(sweep.Escalated)); len(got) != 1 || got[0] != n {
		t.Fatalf("escalated %v, want #%d alone", got, n)
	}
	if w.notices(n, "nudge") != 0 || w.escalations(n) != 1 || w.requestsOf(n, "lead", action) != 1 {
		t.Errorf("#%d: %d nudges, %d escalations, %d requests of lead; want no nudge, one escalation asking lead",
			n, w.notices(n, "nudge"), w.escalations(n), w.requestsOf(n, "lead", action))
	}
	body := w.fake.Comments(n)[0].Body
	if !strings.Contains(body, "@lead") || strings.Contains(body, "@bob") || !strings.Contains(body, "none of its reviewers can be asked now") ||
		!strings.Contains(body, "Not asked: bob, who withdrew from the review.") {
		t.Errorf("the escalation must ask @lead, say nobody can be asked and that bob withdrew (no mention):\n%s", body)
	}
}
