package notice

import (
	"fmt"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// decided is a decision the rules make that posts a text, and the
// configuration it was made under.
type decided struct {
	name  string
	pol   lifecycle.Policy
	kind  Kind
	d     lifecycle.Decision
	label bool // the PR carried the stale label
}

// everyPostingDecision decides PRs in every state that leads to a posted
// text (unmarked and stale; its notice there or missing; a person's
// activity since the mark) under every clock, with and without
// ignore-updates, and a close after days, at once or never: each
// decision that posts a text, with the policy it came from.
func everyPostingDecision(t *testing.T) []decided {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ago := func(days int) time.Time { return now.Add(-time.Duration(days) * lifecycle.Day) }
	pr := lifecycle.PR{Number: 1, Author: "alice", CreatedAt: ago(400), UpdatedAt: ago(300)}
	stale := pr
	stale.Labels = []string{"stale"}
	turn := lifecycle.Turn{Whose: lifecycle.TurnAuthor, Since: ago(350)}
	states := []struct {
		name string
		pr   lifecycle.PR
		act  *lifecycle.Activity
	}{
		{"unmarked, listing only", pr, nil},
		{"unmarked, read", pr, &lifecycle.Activity{LastPersonAt: ago(300), Turn: turn}},
		{"marked, notice there", stale, &lifecycle.Activity{MarkedAt: ago(200), NoticeAt: ago(200), LastPersonAt: ago(300), Turn: turn}},
		{"marked, notice missing", stale, &lifecycle.Activity{MarkedAt: ago(200), LastPersonAt: ago(300), Turn: turn}},
		{"marked, an update nothing explains since", stale, &lifecycle.Activity{MarkedAt: ago(200), NoticeAt: ago(200), LastPersonAt: ago(100), Turn: turn}},
	}
	var out []decided
	for _, clock := range []lifecycle.StaleClock{lifecycle.ClockInactivity, lifecycle.ClockAuthorTurn} {
		for _, ignore := range []bool{false, true} {
			for _, closeDays := range []int{7, 0, -1} {
				pol := lifecycle.Policy{DaysBeforeStale: 30, DaysBeforeClose: closeDays, StaleLabel: "stale", StaleClock: clock,
					IgnoreUpdates: ignore, DaysBeforeReviewNudge: -1, DaysBeforeEscalation: -1}
				for _, s := range states {
					d := lifecycle.Decide(s.pr, s.act, now, pol)
					kind := map[lifecycle.Action]Kind{lifecycle.Mark: KindStale, lifecycle.Notify: KindStale, lifecycle.Close: KindClose}[d.Action]
					if kind == 0 {
						continue
					}
					name := fmt.Sprintf("%s, clock %s, ignore-updates %v, days-before-close %d", s.name, clock, ignore, closeDays)
					out = append(out, decided{name: name, pol: pol, kind: kind, d: d, label: s.pr.HasLabel("stale")})
				}
			}
		}
	}
	// The intake clock: its notice, then its close.
	pol := lifecycle.Policy{DaysBeforeStale: 30, DaysBeforeClose: 7, StaleLabel: "stale", DaysBeforeReviewNudge: -1, DaysBeforeEscalation: -1,
		Intake: lifecycle.Intake{On: true, DaysBeforeClose: 2}}
	for _, told := range []time.Time{{}, ago(2)} {
		young := lifecycle.PR{Number: 2, Author: "dave", AuthorAssociation: "NONE", CreatedAt: ago(1), UpdatedAt: ago(1), Links: lifecycle.Links{Read: true}}
		act := &lifecycle.Activity{Intake: lifecycle.IntakeActivity{Accountable: "dave", Access: lifecycle.AccessNone, NoticeAt: told}}
		d := lifecycle.Decide(young, act, now, pol)
		kind := map[lifecycle.Action]Kind{lifecycle.NotifyIntake: KindIntake, lifecycle.Close: KindIntakeClose}[d.Action]
		out = append(out, decided{name: fmt.Sprintf("intake, told %v", told), pol: pol, kind: kind, d: d})
	}
	return out
}

// TestEveryReasonWorded: every decision the rules make that posts a text
// has its row in the one table of default texts, and every row of the
// rules' texts is one some decision posts. The nudge's and the
// escalation's reasons, which the sweep gives, have theirs; the commands'
// are theirs.
func TestEveryReasonWorded(t *testing.T) {
	t.Parallel()
	used := map[Key]bool{}
	for _, c := range everyPostingDecision(t) {
		k := KeyOf(c.kind, c.d)
		if _, ok := words[k]; !ok {
			t.Errorf("%s: %s (rule %s) has no text in words", c.name, c.d, c.d.Rule)
		}
		used[k] = true
	}
	for _, r := range []lifecycle.Reason{lifecycle.ReasonReviewNudge, lifecycle.ReasonMergeNudge} {
		used[Key{Kind: KindNudge, Reason: r}] = true
	}
	for _, r := range []lifecycle.Reason{lifecycle.ReasonEscalated, lifecycle.ReasonEscalatedAway} {
		used[Key{Kind: KindEscalation, Reason: r}] = true
	}
	// A command's words are its answers' (lifecycle's TestCommandsAreUnits
	// holds each to a decision that answers with it).
	for _, c := range lifecycle.Commands() {
		for _, w := range c.Words {
			used[Key{Kind: w.Kind, Rule: c.Name, Reason: w.Reason}] = true
		}
	}
	for k := range words {
		if !used[k] {
			t.Errorf("words has a row no decision posts: %+v", k)
		}
	}
}

// TestWordsTrueOfEachDecision: the default text of each decision is the
// one true of it: how long the PR stayed marked or was inactive, open
// (ignore-updates) or waited on its author (author-turn), a close date or
// "will not be closed". A message of the user's own serves every reason
// of its kind; the input's default, passed as if set, is not one.
func TestWordsTrueOfEachDecision(t *testing.T) {
	t.Parallel()
	for _, c := range everyPostingDecision(t) {
		want := trueText(c)
		if got := Text(KeyOf(c.kind, c.d), inputs[c.kind]); got != want {
			t.Errorf("%s: %s posts\n%q, want\n%q", c.name, c.d, got, want)
		}
		for _, own := range []string{"mine {{days-inactive}}", ""} {
			if got := Text(KeyOf(c.kind, c.d), own); got != own {
				t.Errorf("%s: with the user's own message %q, %q posted", c.name, own, got)
			}
		}
	}
	for _, tc := range []struct {
		k         Key
		own, want string
	}{
		{Key{Kind: KindNudge, Reason: lifecycle.ReasonReviewNudge}, DefaultNudge, DefaultNudge},
		{Key{Kind: KindNudge, Reason: lifecycle.ReasonReviewNudge}, "mine", "mine"},
		{Key{Kind: KindNudge, Reason: lifecycle.ReasonMergeNudge}, "mine", DefaultMergeNudge},
		{Key{Kind: KindNudge, Reason: lifecycle.ReasonMergeNudge}, DefaultNudge, DefaultMergeNudge},
		{Key{Kind: KindEscalation, Reason: lifecycle.ReasonEscalated}, "", DefaultEscalation},
		{Key{Kind: KindEscalation, Reason: lifecycle.ReasonEscalatedAway}, "mine", DefaultEscalationAway},
	} {
		if got := Text(tc.k, tc.own); got != tc.want {
			t.Errorf("%+v with %q: %q, want %q", tc.k, tc.own, got, tc.want)
		}
	}
}

// trueText is what the default text of c must say, from what the PR went
// through: marked or not, on which clock, and whether it ever closes.
func trueText(c decided) string {
	switch c.kind {
	case KindIntake:
		return lifecycle.DefaultIntake
	case KindIntakeClose:
		return lifecycle.DefaultIntakeClose
	}
	authorTurn := c.pol.StaleClock == lifecycle.ClockAuthorTurn
	open := c.pol.IgnoreUpdates && !authorTurn
	if c.kind == KindStale {
		never := c.d.CloseAt.IsZero()
		switch {
		case authorTurn && never:
			return lifecycle.DefaultStaleAuthorTurnNoClose
		case authorTurn:
			return lifecycle.DefaultStaleAuthorTurn
		case open && never:
			return lifecycle.DefaultStaleOpenNoClose
		case open:
			return lifecycle.DefaultStaleOpen
		case never:
			return lifecycle.DefaultStaleNoClose
		}
		return lifecycle.DefaultStale
	}
	switch marked := c.label; {
	case marked && authorTurn:
		return lifecycle.DefaultCloseAuthorTurn
	case marked:
		return lifecycle.DefaultClose
	case authorTurn:
		return lifecycle.DefaultCloseNowAuthorTurn
	case open:
		return lifecycle.DefaultCloseNowOpen
	}
	return lifecycle.DefaultCloseNow
}

// TestRulesWordsInTheTable: a rule's words are the table's rows under its
// name, found by Text as the sweep asks for them, each text's placeholders
// known, no key given twice; and a rule added to the list brings its words
// with it, no row of notice's to add.
func TestRulesWordsInTheTable(t *testing.T) {
	t.Parallel()
	for _, r := range lifecycle.Rules() {
		for _, w := range r.Words {
			k := Key{Kind: w.Kind, Rule: r.Name, Reason: w.Reason, Never: w.Never}
			if got := Text(k, inputs[w.Kind]); got != w.Text {
				t.Errorf("rule %s, %+v: Text = %q, want its word %q", r.Name, k, got, w.Text)
			}
			if err := Check(w.Text); err != nil {
				t.Errorf("rule %s, %+v: %v", r.Name, k, err)
			}
		}
	}
	const failing lifecycle.Reason = "a required check failing"
	next := lifecycle.Rule{Name: "failing-check", Words: []lifecycle.Word{
		{Kind: KindStale, Reason: failing, Text: "Failing for {{days-inactive}} days: closed on {{close-date}}."},
		{Kind: KindStale, Reason: failing, Never: true, Text: "Failing for {{days-inactive}} days."},
		{Kind: KindClose, Reason: failing, Text: "Closing: failing for {{days-inactive}} days."},
	}}
	rules := append(lifecycle.Rules(), next)
	got, rows := table(rules), len(table(nil))
	for _, r := range rules {
		rows += len(r.Words)
	}
	if len(got) != rows {
		t.Errorf("the table has %d rows for %d words: a key given twice", len(got), rows)
	}
	for _, w := range next.Words {
		d := lifecycle.Decision{Rule: next.Name, Reason: failing}
		if !w.Never {
			d.CloseAt = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		}
		if row, ok := got[KeyOf(w.Kind, d)]; !ok || row.text != w.Text {
			t.Errorf("the added rule's %+v: %q (found %v), want %q", w, row.text, ok, w.Text)
		}
	}
}
