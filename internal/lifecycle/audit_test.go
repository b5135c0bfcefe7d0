package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestAuditClose has one case per kind of close the audit tells apart,
// and per turn the replay finds at the close.
func TestAuditClose(t *testing.T) {
	opened := daysAgo(200)
	d := func(n float64) time.Time { return opened.Add(time.Duration(n * float64(lifecycle.Day))) }
	const gha, closeLabel = "github-actions[bot]", "closed-stale"
	pol := lifecycle.AuditPolicy{StaleLabel: staleLabel, CloseLabel: closeLabel, Self: []string{selfLogin}}
	// actions/stale's shape: its comment, its label; later its comment, its close.
	ghaMark := []lifecycle.Event{asBot(comment(d(60), gha)), asBot(labeled(d(60), gha, staleLabel))}
	ghaClose := []lifecycle.Event{asBot(comment(d(90), gha)), asBot(ev(lifecycle.Closed, d(90), gha))}
	// stalepr's: label and notice, later the closing comment, then the close.
	ourMark := []lifecycle.Event{asBot(labeled(d(60), selfLogin, staleLabel)), asBot(staleNotice(d(60), selfLogin, d(60)))}
	ourClose := []lifecycle.Event{asBot(closeNotice(d(90), selfLogin)), asBot(ev(lifecycle.Closed, d(90), selfLogin))}
	join := func(parts ...[]lifecycle.Event) []lifecycle.Event {
		var out []lifecycle.Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	changes := []lifecycle.Event{reviewed(d(5), maintainer, "MEMBER", "changes_requested")}
	approved := []lifecycle.Event{reviewed(d(5), maintainer, "MEMBER", "approved")}
	reopenMarker := lifecycle.Event{Kind: lifecycle.Commented, At: d(100), Actor: selfLogin, Bot: true, Notice: lifecycle.ReopenNotice}
	cases := []struct {
		name     string
		pr       lifecycle.PR
		events   []lifecycle.Event
		kind     lifecycle.CloseKind
		whose    lifecycle.Whose
		wrong    bool
		byAuthor bool
		reopened bool
		pending  bool
	}{
		{name: "actions/stale closed it waiting on the reviewers", events: join(ghaMark, ghaClose),
			kind: lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "actions/stale closed it on the author's turn", events: join(changes, ghaMark, ghaClose),
			kind: lifecycle.ClosedByStaleBot, whose: lifecycle.TurnAuthor},
		{name: "actions/stale closed it approved, waiting on the maintainers", events: join(approved, ghaMark, ghaClose),
			kind: lifecycle.ClosedByStaleBot, whose: lifecycle.TurnMaintainers, wrong: true},
		{name: "stalepr closed it on the author's turn", events: join(changes, ourMark, ourClose),
			kind: lifecycle.ClosedByStalepr, whose: lifecycle.TurnAuthor},
		{name: "stalepr closed it waiting on the reviewers", events: join(ourMark, ourClose),
			kind: lifecycle.ClosedByStalepr, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "a bot's comment and close without the stale label is no stale close",
			events: []lifecycle.Event{asBot(comment(d(90), gha)), asBot(ev(lifecycle.Closed, d(90), gha))},
			kind:   lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers},
		// actions/stale, with no close-pr-message, closes with a
		// bare PATCH, its comment (if any) long before, the label on.
		{name: "a bot's bare close with the stale label on is its stale close",
			events: join(ghaMark, []lifecycle.Event{asBot(ev(lifecycle.Closed, d(90), gha))}),
			kind:   lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "a bot's close an hour after its comment, the stale label on, is its stale close",
			events: join(ghaMark, []lifecycle.Event{asBot(comment(d(89), gha)), asBot(ev(lifecycle.Closed, d(90), gha))}),
			kind:   lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "a person's close with close-pr-label left from a close before a reopening is theirs",
			events: []lifecycle.Event{asBot(ev(lifecycle.Closed, d(80), gha)), asBot(labeled(d(80), gha, closeLabel)),
				ev(lifecycle.Reopened, d(81), author), ev(lifecycle.Closed, d(90), maintainer)},
			kind: lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers},
		{name: "a bot's close with close-pr-label left from before a reopening is audited",
			events: []lifecycle.Event{asBot(ev(lifecycle.Closed, d(80), gha)), asBot(labeled(d(80), gha, closeLabel)),
				ev(lifecycle.Reopened, d(81), author), asBot(ev(lifecycle.Closed, d(90), gha))},
			kind: lifecycle.ClosedWithLabel, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "a person's close is no stale close", events: []lifecycle.Event{ev(lifecycle.Closed, d(90), maintainer)},
			kind: lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers},
		{name: "a closing marker quoted by a person is no stale close",
			events: []lifecycle.Event{closeNotice(d(90), "mallory"), ev(lifecycle.Closed, d(90), "mallory")},
			kind:   lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers},
		{name: "close-pr-label put on just after a person's close (Flink's closed-stale)",
			events: []lifecycle.Event{ev(lifecycle.Closed, d(90), maintainer), labeled(d(90).Add(time.Minute), maintainer, closeLabel)},
			kind:   lifecycle.ClosedWithLabel, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "close-pr-label put on a day after the close does not count",
			events: []lifecycle.Event{ev(lifecycle.Closed, d(90), maintainer), labeled(d(91), maintainer, closeLabel)},
			kind:   lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers},
		{name: "close-pr-label on the closed PR, older than its history: the listing's word",
			pr:     lifecycle.PR{Labels: []string{closeLabel}},
			events: []lifecycle.Event{ev(lifecycle.Closed, d(90), maintainer)},
			kind:   lifecycle.ClosedWithLabel, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "its author closed it with close-pr-label", pr: lifecycle.PR{Labels: []string{closeLabel}},
			events: []lifecycle.Event{ev(lifecycle.Closed, d(90), author)},
			kind:   lifecycle.ClosedWithLabel, whose: lifecycle.TurnReviewers, wrong: true, byAuthor: true},
		{name: "a stale close before a reopening is not the last close",
			events: join(ghaMark, ghaClose, []lifecycle.Event{ev(lifecycle.Reopened, d(95), author), ev(lifecycle.Closed, d(96), author)}),
			kind:   lifecycle.NotStaleClose, whose: lifecycle.TurnReviewers, byAuthor: true},
		{name: "what came after the close does not change the turn",
			events: join(ghaMark, ghaClose, []lifecycle.Event{said(d(91), maintainer, "MEMBER")}),
			kind:   lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "reopened by us once: never audited again",
			events: join(ghaMark, ghaClose, []lifecycle.Event{reopenMarker, asBot(ev(lifecycle.Reopened, d(100), selfLogin)),
				asBot(comment(d(200), gha)), asBot(labeled(d(170), gha, staleLabel)), asBot(ev(lifecycle.Closed, d(200), gha))}),
			reopened: true},
		{name: "our reopen comment without the reopening: a stopped run's, to finish",
			events: join(ghaMark, ghaClose, []lifecycle.Event{reopenMarker}),
			kind:   lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true, pending: true},
		{name: "a reopen marker from another login is a plain comment",
			events: join(ghaMark, ghaClose, []lifecycle.Event{{Kind: lifecycle.Commented, At: d(100), Actor: "mallory", Notice: lifecycle.ReopenNotice},
				ev(lifecycle.Reopened, d(101), "mallory"), asBot(comment(d(150), gha)), asBot(ev(lifecycle.Closed, d(150), gha))}),
			kind: lifecycle.ClosedByStaleBot, whose: lifecycle.TurnReviewers, wrong: true},
		{name: "no close at all", events: changes, kind: lifecycle.NotStaleClose},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pr := tc.pr
			pr.Author, pr.CreatedAt, pr.UpdatedAt = author, opened, now
			got := lifecycle.AuditClose(pr, tc.events, pol)
			if got.Kind != tc.kind || got.Turn.Whose != tc.whose || got.Wrong() != tc.wrong ||
				got.ByAuthor != tc.byAuthor || got.Reopened != tc.reopened || !got.ReopenPostedAt.IsZero() != tc.pending {
				t.Errorf("got kind %v, turn %v, wrong %v, by author %v, reopened %v, reopen posted %v;\nwant %v, %v, %v, %v, %v, pending %v",
					got.Kind, got.Turn.Whose, got.Wrong(), got.ByAuthor, got.Reopened, got.ReopenPostedAt,
					tc.kind, tc.whose, tc.wrong, tc.byAuthor, tc.reopened, tc.pending)
			}
		})
	}
}

// TestAuditCloseByTheSweepsRules: the audit judges a close by the turn's
// rules the sweep applies (the labels that put a PR on its author's turn,
// failing required checks at the close), so it never calls wrong a close
// the sweep itself would have made; checks re-run since the close tell
// nothing of it.
func TestAuditCloseByTheSweepsRules(t *testing.T) {
	opened := daysAgo(200)
	d := func(n float64) time.Time { return opened.Add(time.Duration(n * float64(lifecycle.Day))) }
	const gha = "github-actions[bot]"
	closed := []lifecycle.Event{asBot(comment(d(60), gha)), asBot(labeled(d(60), gha, staleLabel)),
		asBot(comment(d(90), gha)), asBot(ev(lifecycle.Closed, d(90), gha))}
	failing := lifecycle.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: d(50), Required: lifecycle.RequiredYes}
	rerun := lifecycle.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: d(120), Required: lifecycle.RequiredYes}
	checks := func(cs ...lifecycle.Check) lifecycle.Checks {
		return lifecycle.Checks{Commit: "h1", Complete: true, Contexts: cs}
	}
	rules := lifecycle.Options{AuthorTurnLabels: []string{"needs-rebase"}, ChecksFail: true}
	for _, c := range []struct {
		name        string
		pr          lifecycle.PR
		events      []lifecycle.Event
		turn        lifecycle.Options
		wrong       bool
		checksKnown bool
	}{
		{name: "waiting on the reviewers: wrong", events: closed, turn: rules, wrong: true},
		{name: "labelled needs-rebase by a maintainer before the close: the author's turn",
			events: append([]lifecycle.Event{labeled(d(40), maintainer, "needs-rebase")}, closed...),
			pr:     lifecycle.PR{Labels: []string{"needs-rebase"}}, turn: rules},
		{name: "the same without the project's rules: wrong", pr: lifecycle.PR{Labels: []string{"needs-rebase"}},
			events: append([]lifecycle.Event{labeled(d(40), maintainer, "needs-rebase")}, closed...), wrong: true},
		{name: "a required check failing at the close: the author's turn", pr: lifecycle.PR{Checks: checks(failing)},
			events: closed, turn: rules, checksKnown: true},
		{name: "the failure re-run green after the close: unknown, wrong by the history alone",
			pr: lifecycle.PR{Checks: checks(failing, rerun)}, events: closed, turn: rules, wrong: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := c.pr
			pr.Author, pr.CreatedAt, pr.UpdatedAt, pr.HeadSHA = author, opened, now, "h1"
			got := lifecycle.AuditClose(pr, c.events, lifecycle.AuditPolicy{StaleLabel: staleLabel, Self: []string{selfLogin}, Turn: c.turn})
			if got.Wrong() != c.wrong || got.ChecksKnown != c.checksKnown {
				t.Errorf("wrong %v (turn %v), checks known %v; want %v, %v", got.Wrong(), got.Turn.Whose, got.ChecksKnown, c.wrong, c.checksKnown)
			}
		})
	}
}

// TestAuditTrustsTheRuleThatClosed: our own close whose marker names a
// rule on now (Policy.RuleOn) is the sweep's own: not replayed, never
// wrong, its rule recorded. Replayed as before: an earlier version's
// marker (no rule), a later version's rule, a rule off now (another
// clock, a clock that closes nothing), and a close by someone else after
// our comment; a person quoting the marker made no close of ours.
func TestAuditTrustsTheRuleThatClosed(t *testing.T) {
	opened := daysAgo(200)
	d := func(n float64) time.Time { return opened.Add(time.Duration(n * float64(lifecycle.Day))) }
	authorTurn := lifecycle.Policy{StaleClock: lifecycle.ClockAuthorTurn, DaysBeforeClose: 7}
	inactivity := lifecycle.Policy{DaysBeforeClose: 7}
	neverCloses := lifecycle.Policy{StaleClock: lifecycle.ClockAuthorTurn, DaysBeforeClose: -1}
	// Waiting on the reviewers: the replay calls every close of it wrong.
	closed := func(rule lifecycle.RuleName, commenter, closer string) []lifecycle.Event {
		marker := closeNotice(d(90), commenter)
		marker.Rule = rule
		return []lifecycle.Event{asBot(labeled(d(60), selfLogin, staleLabel)), asBot(staleNotice(d(60), selfLogin, d(60))),
			asBot(marker), asBot(ev(lifecycle.Closed, d(90), closer))}
	}
	for _, c := range []struct {
		name    string
		events  []lifecycle.Event
		on      func(lifecycle.RuleName) bool
		kind    lifecycle.CloseKind
		rule    lifecycle.RuleName
		trusted bool
	}{
		{"author-turn, on", closed(lifecycle.RuleAuthorTurn, selfLogin, selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleAuthorTurn, true},
		{"inactivity, on", closed(lifecycle.RuleInactivity, selfLogin, selfLogin), inactivity.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleInactivity, true},
		{"inactivity, the clock now author-turn", closed(lifecycle.RuleInactivity, selfLogin, selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleInactivity, false},
		{"author-turn, the clock now closing nothing", closed(lifecycle.RuleAuthorTurn, selfLogin, selfLogin), neverCloses.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleAuthorTurn, false},
		{"an earlier version's marker", closed("", selfLogin, selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, "", false},
		{"a later version's rule", closed("failing-checks-2", selfLogin, selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, "failing-checks-2", false},
		{"the intake clock, not answered yet", closed(lifecycle.RuleIntake, selfLogin, selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleIntake, false},
		{"no policy to tell", closed(lifecycle.RuleAuthorTurn, selfLogin, selfLogin), nil,
			lifecycle.ClosedByStalepr, lifecycle.RuleAuthorTurn, false},
		{"our comment, a maintainer's close", closed(lifecycle.RuleAuthorTurn, selfLogin, maintainer), authorTurn.RuleOn,
			lifecycle.ClosedByStalepr, lifecycle.RuleAuthorTurn, false},
		{"a person's comment quoting our marker", closed(lifecycle.RuleAuthorTurn, "mallory", selfLogin), authorTurn.RuleOn,
			lifecycle.ClosedByStaleBot, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := lifecycle.PR{Author: author, CreatedAt: opened, UpdatedAt: now, Labels: []string{"closed-stale"}}
			got := lifecycle.AuditClose(pr, c.events, lifecycle.AuditPolicy{StaleLabel: staleLabel, CloseLabel: "closed-stale",
				Self: []string{selfLogin}, RuleOn: c.on})
			if got.Kind != c.kind || got.Rule != c.rule || got.Trusted != c.trusted || got.Wrong() == c.trusted {
				t.Errorf("kind %v, rule %q, trusted %v, wrong %v (turn %v); want %v, %q, trusted %v, wrong %v",
					got.Kind, got.Rule, got.Trusted, got.Wrong(), got.Turn.Whose, c.kind, c.rule, c.trusted, !c.trusted)
			}
		})
	}
}

// TestRuleOn: a rule is on where it closes the PR under its own clock:
// the agents' clock closing does not put everyone's on, nor the reverse.
func TestRuleOn(t *testing.T) {
	p := lifecycle.Policy{DaysBeforeClose: -1, AgentClock: lifecycle.AgentClock{On: true, DaysBeforeStale: 10, DaysBeforeClose: 3}}
	person, agent := lifecycle.PR{Author: author}, lifecycle.PR{Author: "Copilot"}
	if p.For(person).RuleOn(lifecycle.RuleInactivity) || !p.For(agent).RuleOn(lifecycle.RuleInactivity) {
		t.Errorf("inactivity on for a person's PR %v, an agent's %v; want off, on",
			p.For(person).RuleOn(lifecycle.RuleInactivity), p.For(agent).RuleOn(lifecycle.RuleInactivity))
	}
	p.DaysBeforeClose, p.AgentClock.DaysBeforeClose = 7, -1
	if !p.For(person).RuleOn(lifecycle.RuleInactivity) || p.For(agent).RuleOn(lifecycle.RuleInactivity) {
		t.Error("inactivity: want on for a person's PR, off for an agent's whose clock closes nothing")
	}
	for _, r := range []lifecycle.RuleName{lifecycle.RuleExempt, lifecycle.RuleClosedSince, lifecycle.RuleIntake, "", "failing-checks-2"} {
		if p.RuleOn(r) {
			t.Errorf("RuleOn(%q): want off", r)
		}
	}
}
