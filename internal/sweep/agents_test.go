package sweep_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// No text stalepr posts ever mentions a bot author: a mention of @Copilot
// can start a paid run of the coding agent. A message's {{author}} names
// the agent without the @.
func TestNoTextMentionsAnAgent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	agent := fakegithub.Bot("Copilot")
	toMark := w.pr(100, func(is *fakegithub.Issue) { is.User = agent })
	toClose := w.markedPR(40, func(is *fakegithub.Issue) { is.User = agent })
	w.run(map[string]string{"stale-pr-message": "{{author}}: no activity for {{days-inactive}} days.",
		"close-pr-message": "Closing, {{author}}.", "write-interval": "0s"})
	for _, n := range []int{toMark, toClose} {
		var texts []string
		for _, c := range w.fake.Comments(n) {
			texts = append(texts, c.Body)
		}
		all := strings.Join(texts, "\n")
		if !strings.Contains(all, "Copilot") || strings.Contains(all, "@Copilot") {
			t.Errorf("#%d: want the agent named without a mention:\n%s", n, all)
		}
	}
}

// Coding agents' pull requests through the HTTP path, from histories shaped
// as GitHub shows the Copilot coding agent's: the PR authored by the Bot
// Copilot, a draft until a person marks it ready, assigned to the person
// who delegated the work, its commits made as copilot-swe-agent[bot] (no
// GitHub user), and its review requested of that person.
var (
	copilot        = fakegithub.Bot("Copilot")
	copilotCommits = fakegithub.Bot("copilot-swe-agent[bot]")
)

func asDraft(is *fakegithub.Issue) { is.Draft = true }

// agentPR adds a Copilot PR opened d days ago as a draft, alice having
// delegated the work (assigned recorded either way: alice assigning the
// agent, or the agent assigning her), with the agent's first commit and
// its review request of alice.
func (w *world) agentPR(d float64, agentAssigns bool) int {
	n := w.openPR(d, copilot, asDraft)
	if agentAssigns {
		w.fake.Assign(n, copilot, daysAgo(d), alice)
	} else {
		w.fake.Assign(n, alice, daysAgo(d), copilot)
	}
	w.fake.PushAs(n, copilotCommits, daysAgo(d-0.1), "Initial plan")
	w.fake.RequestReview(n, copilot, daysAgo(d-0.2), alice.Login)
	return n
}

// noAgentMentioned fails when any comment on PR n mentions an agent.
func (w *world) noAgentMentioned(t *testing.T, n int) {
	t.Helper()
	for _, c := range w.fake.Comments(n) {
		low := strings.ToLower(c.Body)
		if strings.Contains(low, "@copilot") || strings.Contains(low, "@copilot-swe-agent") {
			t.Errorf("#%d: a comment mentions the agent:\n%s", n, c.Body)
		}
	}
}

// onlyComment is the one comment stalepr posted on PR n.
func (w *world) onlyComment(t *testing.T, n int) string {
	t.Helper()
	var ours []string
	for _, c := range w.fake.Comments(n) {
		if strings.Contains(c.Body, "<!-- stalepr:") {
			ours = append(ours, c.Body)
		}
	}
	if len(ours) != 1 {
		t.Fatalf("#%d: %d comments of stalepr's, want 1: %q", n, len(ours), ours)
	}
	return ours[0]
}

// A draft nobody looked at: with the agent clock set, exempt-draft-pr does
// not exempt it, the agent clock marks it, and the notice addresses the
// person who assigned the agent; a person's draft stays exempt.
func TestAgentDraftNobodyLookedAt(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.agentPR(20, false)
	person := w.openPR(20, bob, asDraft)
	res := w.run(map[string]string{"exempt-draft-pr": "true", "days-before-agent-pr-stale": "14", "days-before-agent-pr-close": "7",
		"stale-pr-message": "{{author}}: no activity for {{days-inactive}} days, closes {{close-date}} ({{days-before-close}} days).",
		"write-interval":   "0s"})
	if !has(res.Items, n) || !w.hasLabel(n, "stale") {
		t.Fatalf("the agent's draft was not marked on the agent clock: %v", res.Items)
	}
	body := w.onlyComment(t, n)
	want := "@alice: no activity for 19 days, closes " + t0.Add(7*lifecycle.Day).Format("2006-01-02") + " (7 days)."
	if !strings.HasPrefix(body, want) {
		t.Errorf("notice %q, want it to start %q", body, want)
	}
	w.noAgentMentioned(t, n)
	if w.hasLabel(person, "stale") || why(res.Items, person) != lifecycle.ReasonDraft {
		t.Errorf("a person's draft: labels %v, reason %q; want it exempt", w.labels(person), why(res.Items, person))
	}
}

// Marked ready by a person and waiting on review: never marked under
// stale-clock author-turn, whatever the agent clock; the nudge mentions
// the pending reviewers and, for {{author}}, the human of record, never
// the agent.
func TestAgentReadyWaitingOnReview(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.agentPR(40, true)
	w.fake.ReadyForReview(n, alice, daysAgo(30))
	w.fake.RequestReview(n, alice, daysAgo(30), mia.Login)
	res := w.run(map[string]string{"stale-clock": "author-turn", "days-before-agent-pr-stale": "14", "days-before-agent-pr-close": "7",
		"days-before-review-nudge": "7", "review-nudge-message": "{{reviewers}}: {{author}}'s pull request waits {{days-waiting}} days.",
		"write-interval": "0s"})
	if w.hasLabel(n, "stale") {
		t.Fatalf("marked on the reviewers' turn: %v", res.Items)
	}
	body := w.onlyComment(t, n)
	if !strings.Contains(body, "@mia") || !strings.Contains(body, ": @alice's pull request waits 30 days.") {
		t.Errorf("nudge %q, want @mia nudged and @alice named the author", body)
	}
	w.noAgentMentioned(t, n)
}

// A change request the agent addressed (its push after the review) is the
// reviewers' turn again; one it did not address is its human of record's
// turn, marked on the agent clock with a notice that addresses them.
func TestAgentChangeRequest(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	addressed := w.agentPR(60, true)
	f.ReadyForReview(addressed, alice, daysAgo(50))
	f.Review(addressed, mia, daysAgo(40), "CHANGES_REQUESTED", "@Copilot please handle the error")
	f.PushAs(addressed, copilotCommits, daysAgo(39), "Handle the error")
	waiting := w.agentPR(60, false)
	f.ReadyForReview(waiting, alice, daysAgo(50))
	f.Review(waiting, mia, daysAgo(30), "CHANGES_REQUESTED", "please handle the error")
	res := w.run(map[string]string{"stale-clock": "author-turn", "days-before-agent-pr-stale": "14", "days-before-agent-pr-close": "7",
		"stale-pr-message": "{{author}}: this waits {{waiting-on-author}}.", "write-interval": "0s"})
	if w.hasLabel(addressed, "stale") {
		t.Errorf("the change request the agent addressed: marked (%q)", why(res.Items, addressed))
	}
	if !w.hasLabel(waiting, "stale") {
		t.Fatalf("the change request nobody addressed: not marked (%q)", why(res.Items, waiting))
	}
	body := w.onlyComment(t, waiting)
	if !strings.HasPrefix(body, "@alice: this waits on its author since "+daysAgo(30).Format("2006-01-02")+", after mia's review.") {
		t.Errorf("notice %q, want it to address @alice", body)
	}
	w.noAgentMentioned(t, waiting)
	w.noAgentMentioned(t, addressed)
}

// An agent's PR whose history names no person (no assignment, nobody
// marked it ready or pushed to it): its human of record is unknown, and
// its notices mention nobody.
func TestAgentUnknownHumanMentionsNobody(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(30, copilot)
	w.fake.PushAs(n, copilotCommits, daysAgo(29.9), "Initial plan")
	w.run(map[string]string{"days-before-agent-pr-stale": "14", "stale-pr-message": "{{author}}: no activity.", "write-interval": "0s"})
	body := w.onlyComment(t, n)
	if !strings.HasPrefix(body, "Copilot: no activity.") || strings.Contains(strings.Split(body, "<!--")[0], "@") {
		t.Errorf("notice %q, want the agent named without a mention, and no one mentioned", body)
	}
}

// An agent's PR whose history is longer than its listing page, the
// assignment in the older part: its history is read before the mark, so
// the notice addresses the person who assigned the agent.
func TestAgentLongHistoryReadsTheHumanOfRecord(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(200, copilot)
	w.fake.Assign(n, alice, daysAgo(200), copilot)
	for i := range 110 {
		w.fake.Comment(n, ci, daysAgo(199-float64(i)/10), "build passed")
	}
	res := w.run(map[string]string{"days-before-agent-pr-stale": "14", "stale-pr-message": "{{author}}: no activity.", "write-interval": "0s"})
	if !w.hasLabel(n, "stale") {
		t.Fatalf("not marked: %v", res.Items)
	}
	if body := w.onlyComment(t, n); !strings.HasPrefix(body, "@alice: no activity.") {
		t.Errorf("notice %q, want it to address @alice", body)
	}
}
