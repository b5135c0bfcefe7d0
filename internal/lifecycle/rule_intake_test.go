package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The intake clock (docs/rules.md "The intake clock").

const intakeDays = 7

func intakeOn(p *lifecycle.Policy) {
	p.Intake = lifecycle.Intake{On: true, DaysBeforeClose: intakeDays, AcceptedLabels: []string{"accepted"}}
}

// unasked is a PR opened two days ago by a non-collaborator, whose links
// were read and name no issue.
func unasked(mod ...func(*lifecycle.PR)) lifecycle.PR {
	p := pr(daysAgo(2))
	p.CreatedAt, p.AuthorAssociation, p.Links = daysAgo(2), "NONE", lifecycle.Links{Read: true}
	for _, m := range mod {
		m(&p)
	}
	return p
}

func links(issues ...lifecycle.LinkedIssue) func(*lifecycle.PR) {
	return func(p *lifecycle.PR) { p.Links.Issues = issues }
}

// mayNotPush is the history of a PR whose author the run learnt may not push.
func mayNotPush(mod ...func(*lifecycle.IntakeActivity)) *lifecycle.IntakeActivity {
	a := &lifecycle.IntakeActivity{Accountable: author, Access: lifecycle.AccessNone}
	for _, m := range mod {
		m(a)
	}
	return a
}

func TestDecideIntake(t *testing.T) {
	toldAt := daysAgo(3)
	told := func(a *lifecycle.IntakeActivity) { a.NoticeAt = toldAt }
	toldLong := func(a *lifecycle.IntakeActivity) { a.NoticeAt = daysAgo(intakeDays) }
	cases := []struct {
		name    string
		pr      lifecycle.PR
		act     *lifecycle.IntakeActivity
		policy  lifecycle.Policy
		off     bool // the clock off for it or lifted: DecideIntake answers false, the other rules decide
		want    lifecycle.Action
		reason  lifecycle.Reason
		closeAt time.Time
		posted  bool
	}{
		{name: "off by default", pr: unasked(), act: mayNotPush(), policy: policy(),
			off: true, reason: lifecycle.ReasonIntakeOff},
		{name: "unasked, author may not push, no notice yet: notify", pr: unasked(), act: mayNotPush(), policy: policy(intakeOn),
			want: lifecycle.NotifyIntake, reason: lifecycle.ReasonIntakeUnasked, closeAt: now.Add(intakeDays * lifecycle.Day)},
		{name: "the listing alone: read the history", pr: unasked(), policy: policy(intakeOn),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonIntakeUnasked},
		{name: "told: wait", pr: unasked(), act: mayNotPush(told), policy: policy(intakeOn),
			want: lifecycle.Keep, reason: lifecycle.ReasonIntakeUnasked, closeAt: toldAt.Add(intakeDays * lifecycle.Day)},
		{name: "told the days ago: close", pr: unasked(), act: mayNotPush(toldLong), policy: policy(intakeOn),
			want: lifecycle.Close, reason: lifecycle.ReasonIntakeDue, closeAt: now},
		{name: "closing comment posted by a run that stopped: close without it again", pr: unasked(),
			act: mayNotPush(toldLong, func(a *lifecycle.IntakeActivity) { a.CloseNoticeAt = daysAgo(0.1) }), policy: policy(intakeOn),
			want: lifecycle.Close, reason: lifecycle.ReasonIntakeDue, closeAt: now, posted: true},
		{name: "the author reopened after the notice: the days count from the reopening", pr: unasked(),
			act: mayNotPush(toldLong, func(a *lifecycle.IntakeActivity) { a.ReopenedAt = daysAgo(1) }), policy: policy(intakeOn),
			want: lifecycle.Keep, reason: lifecycle.ReasonIntakeUnasked, closeAt: daysAgo(1).Add(intakeDays * lifecycle.Day)},
		{name: "a maintainer engaged: the other clocks, for good", pr: unasked(),
			act: mayNotPush(toldLong, func(a *lifecycle.IntakeActivity) { a.EngagedAt = daysAgo(1) }), policy: policy(intakeOn),
			off: true, reason: lifecycle.ReasonIntakeEngaged},
		{name: "author may push", pr: unasked(), act: mayNotPush(func(a *lifecycle.IntakeActivity) { a.Access = lifecycle.AccessWrite }),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeMayPush},
		{name: "author's access unknown: never in the class", pr: unasked(), act: mayNotPush(func(a *lifecycle.IntakeActivity) { a.Access = lifecycle.AccessUnknown }),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccess},
		{name: "a collaborator's PR, on the listing's word", pr: unasked(func(p *lifecycle.PR) { p.AuthorAssociation = "COLLABORATOR" }),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeMayPush},
		{name: "links not read: unknown, never in the class", pr: unasked(func(p *lifecycle.PR) { p.Links.Read = false }), act: mayNotPush(),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeLinks},
		{name: "more links than read: unknown", pr: unasked(links(lifecycle.LinkedIssue{Number: 1}), func(p *lifecycle.PR) { p.Links.More = true }),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeLinks},
		{name: "an issue's labels cut short: unknown", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Partial: true})),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeLinks},
		{name: "an accepted one among links cut short: accepted", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Partial: true},
			lifecycle.LinkedIssue{Number: 2, Labels: []string{"Accepted"}}), func(p *lifecycle.PR) { p.Links.More = true }),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccepted},
		{name: "links an issue carrying an accepted label", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Labels: []string{"bug", "accepted"}})),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccepted},
		{name: "links an issue assigned to the author", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Assignees: []string{"ALICE"}})),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccepted},
		{name: "links an issue a maintainer opened", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Author: "carol", AuthorAssociation: "MEMBER"})),
			act: mayNotPush(), policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccepted},
		{name: "links only an issue nobody accepted: notify", pr: unasked(links(lifecycle.LinkedIssue{Number: 1, Author: author,
			AuthorAssociation: "NONE", Labels: []string{"bug"}, Assignees: []string{"carol"}})),
			act: mayNotPush(), policy: policy(intakeOn), want: lifecycle.NotifyIntake, reason: lifecycle.ReasonIntakeUnasked, closeAt: now.Add(intakeDays * lifecycle.Day)},
		{name: "a draft", pr: unasked(draft), act: mayNotPush(), policy: policy(intakeOn),
			off: true, reason: lifecycle.ReasonDraft},
		{name: "a bot's", pr: unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot = "dependabot[bot]", true }), act: mayNotPush(),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeBot},
		{name: "an exempt label", pr: unasked(func(p *lifecycle.PR) { p.Labels = []string{"keep"} }), act: mayNotPush(),
			policy: policy(intakeOn, func(p *lifecycle.Policy) { p.ExemptLabels = []string{"keep"} }),
			off:    true, reason: lifecycle.ReasonExemptLabel},
		{name: "an exempt author", pr: unasked(), act: mayNotPush(),
			policy: policy(intakeOn, func(p *lifecycle.Policy) { p.ExemptAuthors = []string{author} }),
			off:    true, reason: lifecycle.ReasonExemptAuthor},
		{name: "an agent's PR whose human of record may push", pr: unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot = agent, true }),
			act:    mayNotPush(func(a *lifecycle.IntakeActivity) { a.Accountable, a.Access = "dave", lifecycle.AccessWrite }),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeMayPush},
		{name: "an agent's PR with no human of record: unknown", pr: unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot = agent, true }),
			act:    mayNotPush(func(a *lifecycle.IntakeActivity) { a.Accountable, a.Access = "", lifecycle.AccessUnknown }),
			policy: policy(intakeOn), off: true, reason: lifecycle.ReasonIntakeAccess},
		{name: "an agent's PR whose human of record may not push: notify", pr: unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot = agent, true }),
			act:    mayNotPush(func(a *lifecycle.IntakeActivity) { a.Accountable = "dave" }),
			policy: policy(intakeOn), want: lifecycle.NotifyIntake, reason: lifecycle.ReasonIntakeUnasked, closeAt: now.Add(intakeDays * lifecycle.Day)},
		{name: "opened before the clock could tell it: never told", pr: unasked(created(daysAgo(intakeDays))), act: mayNotPush(), policy: policy(intakeOn),
			off: true, reason: lifecycle.ReasonIntakeOld},
		{name: "told in time, opened twice the days ago: closed", pr: unasked(created(daysAgo(2 * intakeDays))), act: mayNotPush(toldLong), policy: policy(intakeOn),
			want: lifecycle.Close, reason: lifecycle.ReasonIntakeDue, closeAt: now},
		{name: "opened three times the days ago: the other clocks'", pr: unasked(created(daysAgo(3 * intakeDays))), act: mayNotPush(toldLong), policy: policy(intakeOn),
			off: true, reason: lifecycle.ReasonIntakeOld},
		{name: "a quiet day: no notice, and its days do not count", pr: unasked(), act: mayNotPush(),
			policy: policy(intakeOn, func(p *lifecycle.Policy) { p.Quiet = quiet(t, []string{"2026-11-28..2026-11-30"}) }),
			want:   lifecycle.Keep, reason: lifecycle.ReasonQuiet, closeAt: time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, in := lifecycle.DecideIntake(c.pr, c.act, now, c.policy)
			switch {
			case in == c.off || d.Reason != c.reason:
				t.Errorf("DecideIntake = %v, %v %q; want %v, %q", in, d.Action, d.Reason, !c.off, c.reason)
			case c.off:
			case d.Action != c.want || d.Rule != lifecycle.RuleIntake || !d.CloseAt.Equal(c.closeAt) || !d.DueAt.Equal(c.closeAt) || d.CloseNoticePosted != c.posted:
				t.Errorf("DecideIntake = %v %s %q close %v due %v posted %v, want %v %s %q close %v posted %v",
					d.Action, d.Rule, d.Reason, d.CloseAt, d.DueAt, d.CloseNoticePosted, c.want, lifecycle.RuleIntake, c.reason, c.closeAt, c.posted)
			}
		})
	}
}

func TestSummarizeIntake(t *testing.T) {
	p := unasked()
	o := lifecycle.Options{Self: []string{selfLogin}, Access: map[string]lifecycle.Access{author: lifecycle.AccessNone}}
	notice := lifecycle.Event{Kind: lifecycle.Commented, At: daysAgo(2), Actor: selfLogin, Bot: true, Notice: lifecycle.IntakeNotice}
	cases := []struct {
		name    string
		events  []lifecycle.Event
		o       lifecycle.Options
		engaged time.Time
		access  lifecycle.Access
		noticed bool
	}{
		{name: "our notice only", events: []lifecycle.Event{notice}, o: o, access: lifecycle.AccessNone, noticed: true},
		{name: "the author's comment engages nobody",
			events: []lifecycle.Event{notice, {Kind: lifecycle.Commented, At: daysAgo(1), Actor: author, Association: "NONE"}},
			o:      o, access: lifecycle.AccessNone, noticed: true},
		{name: "a maintainer's comment", events: []lifecycle.Event{notice,
			{Kind: lifecycle.Commented, At: daysAgo(1), Actor: "carol", Association: "MEMBER"}},
			o: o, engaged: daysAgo(1), access: lifecycle.AccessNone, noticed: true},
		{name: "a maintainer's label", events: []lifecycle.Event{{Kind: lifecycle.Labeled, At: daysAgo(1), Actor: "carol", Label: "triage"}},
			o:       lifecycle.Options{Self: o.Self, Access: map[string]lifecycle.Access{author: lifecycle.AccessNone, "carol": lifecycle.AccessWrite}},
			engaged: daysAgo(1), access: lifecycle.AccessNone},
		{name: "a maintainer's reopening", events: []lifecycle.Event{{Kind: lifecycle.Reopened, At: daysAgo(1), Actor: "carol", Association: "OWNER"}},
			o: o, engaged: daysAgo(1), access: lifecycle.AccessNone},
		{name: "an account of unknown access engages: the doubt keeps it open",
			events: []lifecycle.Event{{Kind: lifecycle.Reviewed, At: daysAgo(1), Actor: "erin", Association: "CONTRIBUTOR"}},
			o:      o, engaged: daysAgo(1), access: lifecycle.AccessNone},
		{name: "a third person with no tie engages nobody",
			events: []lifecycle.Event{{Kind: lifecycle.Commented, At: daysAgo(1), Actor: "frank", Association: "NONE"}},
			o:      o, access: lifecycle.AccessNone},
		{name: "a bot's label engages nobody",
			events: []lifecycle.Event{{Kind: lifecycle.Labeled, At: daysAgo(1), Actor: "labeler[bot]", Bot: true, Label: "size/S"}},
			o:      o, access: lifecycle.AccessNone},
		{name: "our own label engages nobody",
			events: []lifecycle.Event{{Kind: lifecycle.Labeled, At: daysAgo(1), Actor: selfLogin, Bot: true, Label: "stale"}},
			o:      o, access: lifecycle.AccessNone},
		{name: "the author's own review tells their access", events: []lifecycle.Event{
			{Kind: lifecycle.Reviewed, At: daysAgo(1), Actor: author, Access: lifecycle.AccessWrite}},
			o: lifecycle.Options{Self: o.Self}, access: lifecycle.AccessWrite},
		{name: "nothing learnt: unknown", o: lifecycle.Options{Self: o.Self}, access: lifecycle.AccessUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := lifecycle.SummarizeIntake(p, c.events, c.o)
			if !a.EngagedAt.Equal(c.engaged) || a.Access != c.access || a.NoticeAt.IsZero() == c.noticed || a.Accountable != author {
				t.Errorf("SummarizeIntake = %+v, want engaged %v, access %v, noticed %v", a, c.engaged, c.access, c.noticed)
			}
		})
	}
}

// TestIntakeRule: the intake clock as a rule of Decide: after the
// exemptions, before the stale clock; a PR out of its class (or lifted by
// a maintainer) is the stale clock's, a PR in it the intake clock's alone.
func TestIntakeRule(t *testing.T) {
	told := func(a *lifecycle.IntakeActivity) { a.NoticeAt = daysAgo(3) }
	old := func(p *lifecycle.PR) { p.UpdatedAt = daysAgo(staleDays + 1) } // the stale clock would mark it
	act := func(a *lifecycle.IntakeActivity) *lifecycle.Activity { return &lifecycle.Activity{Intake: *a} }
	cases := []struct {
		name    string
		pr      lifecycle.PR
		act     *lifecycle.Activity
		policy  lifecycle.Policy
		want    lifecycle.Action
		rule    lifecycle.RuleName
		closeAt time.Time
	}{
		{name: "off: the stale clock", pr: unasked(old), act: act(mayNotPush()), policy: policy(),
			want: lifecycle.Mark, rule: lifecycle.RuleInactivity, closeAt: now.Add(closeDays * lifecycle.Day)},
		{name: "in the class: the notice, no label", pr: unasked(old), act: act(mayNotPush()), policy: policy(intakeOn),
			want: lifecycle.NotifyIntake, rule: lifecycle.RuleIntake, closeAt: now.Add(intakeDays * lifecycle.Day)},
		{name: "told: it waits, the stale clock does not mark it", pr: unasked(old), act: act(mayNotPush(told)), policy: policy(intakeOn),
			want: lifecycle.Keep, rule: lifecycle.RuleIntake, closeAt: daysAgo(3).Add(intakeDays * lifecycle.Day)},
		{name: "told the days ago: closed by the intake clock", pr: unasked(), act: act(mayNotPush(func(a *lifecycle.IntakeActivity) { a.NoticeAt = daysAgo(intakeDays) })),
			policy: policy(intakeOn), want: lifecycle.Close, rule: lifecycle.RuleIntake, closeAt: now},
		{name: "the listing alone: its history read", pr: unasked(), policy: policy(intakeOn),
			want: lifecycle.NeedDetail, rule: lifecycle.RuleIntake},
		{name: "a maintainer engaged: the stale clock again", pr: unasked(old),
			act:    act(mayNotPush(told, func(a *lifecycle.IntakeActivity) { a.EngagedAt = daysAgo(1) })),
			policy: policy(intakeOn), want: lifecycle.Mark, rule: lifecycle.RuleInactivity, closeAt: now.Add(closeDays * lifecycle.Day)},
		{name: "links not read: the stale clock", pr: unasked(old, func(p *lifecycle.PR) { p.Links.Read = false }), act: act(mayNotPush()),
			policy: policy(intakeOn), want: lifecycle.Mark, rule: lifecycle.RuleInactivity, closeAt: now.Add(closeDays * lifecycle.Day)},
		{name: "stale-labelled: the stale clock's", pr: unasked(func(p *lifecycle.PR) { p.Labels = []string{staleLabel} }),
			act: act(mayNotPush()), policy: policy(intakeOn), want: lifecycle.Skip, rule: lifecycle.RuleInactivity},
		{name: "an exempt label: exempt before any clock", pr: unasked(func(p *lifecycle.PR) { p.Labels = []string{"keep"} }), act: act(mayNotPush()),
			policy: policy(intakeOn, func(p *lifecycle.Policy) { p.ExemptLabels = []string{"keep"} }), want: lifecycle.Skip, rule: lifecycle.RuleExempt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := lifecycle.Decide(c.pr, c.act, now, c.policy)
			if d.Action != c.want || d.Rule != c.rule || !d.CloseAt.Equal(c.closeAt) {
				t.Fatalf("Decide = %v rule %q close %v, want %v rule %q close %v", d, d.Rule, d.CloseAt, c.want, c.rule, c.closeAt)
			}
			if d.Rule != lifecycle.RuleIntake || d.Action == lifecycle.Close || d.Action == lifecycle.NeedDetail {
				return
			}
			// The forecast is the close the notice announced.
			if next := lifecycle.Next(c.pr, c.act, d, now, c.policy); next.Action != lifecycle.Close || !next.At.Equal(c.closeAt) {
				t.Errorf("Next = %+v, want a close at %v", next, c.closeAt)
			}
		})
	}
}

// TestIntakeCandidate: the PRs whose links the sweep reads are the ones the
// listing cannot put out of the class.
func TestIntakeCandidate(t *testing.T) {
	for _, c := range []struct {
		name string
		pr   lifecycle.PR
		p    lifecycle.Policy
		want bool
	}{
		{"off", unasked(), policy(), false},
		{"a contributor's PR", unasked(), policy(intakeOn), true},
		{"a member's PR", unasked(func(p *lifecycle.PR) { p.AuthorAssociation = "MEMBER" }), policy(intakeOn), false},
		{"a draft", unasked(draft), policy(intakeOn), false},
		{"a bot's", unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot = "renovate[bot]", true }), policy(intakeOn), false},
		{"an agent's, whatever its association", unasked(func(p *lifecycle.PR) { p.Author, p.AuthorBot, p.AuthorAssociation = agent, true, "NONE" }),
			policy(intakeOn), true},
		{"stale-labelled", unasked(func(p *lifecycle.PR) { p.Labels = []string{staleLabel} }), policy(intakeOn), false},
		{"opened three times the days ago", unasked(created(daysAgo(3 * intakeDays))), policy(intakeOn), false},
		{"opened a little less long ago", unasked(created(daysAgo(3*intakeDays - 0.5))), policy(intakeOn), true},
	} {
		if got := lifecycle.IntakeCandidate(c.pr, now, c.p); got != c.want {
			t.Errorf("%s: IntakeCandidate = %v, want %v", c.name, got, c.want)
		}
	}
}
