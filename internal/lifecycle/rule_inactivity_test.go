package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestDecideStale(t *testing.T) { // rule 1
	runDecide(t, []decideCase{
		{
			name: "inactive exactly DaysBeforeStale days: not stale yet",
			pr:   pr(daysAgo(staleDays)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive, inactiveSince: daysAgo(staleDays),
		},
		{
			name: "inactive DaysBeforeStale days and one second: mark",
			pr:   pr(daysAgo(staleDays).Add(-time.Second)), policy: policy(),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
			inactiveSince: daysAgo(staleDays).Add(-time.Second), markedAt: now, closeAt: now.Add(closeDays * lifecycle.Day),
		},
		{
			name: "recently updated: keep",
			pr:   pr(daysAgo(1)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive, inactiveSince: daysAgo(1),
		},
		{
			name: "mark with closing disabled: never closes",
			pr:   pr(daysAgo(40)), policy: policy(func(p *lifecycle.Policy) { p.DaysBeforeClose = -1 }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, markedAt: now, closeAtZero: true,
		},
		{
			name: "DaysBeforeStale -1: never mark",
			pr:   pr(daysAgo(3650)), policy: policy(func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }),
			want: lifecycle.Keep, reason: lifecycle.ReasonNeverStale,
		},
		{
			name: "IgnoreUpdates: judged from CreatedAt, recent updates do not count",
			pr:   with(pr(daysAgo(1)), created(daysAgo(31))), act: &lifecycle.Activity{LastPersonAt: daysAgo(1)},
			policy: policy(func(p *lifecycle.Policy) { p.IgnoreUpdates = true }),
			want:   lifecycle.Mark, reason: lifecycle.ReasonOpenTooLong, inactiveSince: daysAgo(31),
		},
		{
			name: "IgnoreUpdates: updated after the cutoff, listing only: a reopening may hide there, need detail",
			pr:   with(pr(daysAgo(1)), created(daysAgo(31))), policy: policy(func(p *lifecycle.Policy) { p.IgnoreUpdates = true }),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonActive,
		},
		{
			name: "IgnoreUpdates: not updated since the cutoff: mark without detail",
			pr:   with(pr(daysAgo(40)), created(daysAgo(100))), policy: policy(func(p *lifecycle.Policy) { p.IgnoreUpdates = true }),
			want: lifecycle.Mark, reason: lifecycle.ReasonOpenTooLong, inactiveSince: daysAgo(100),
		},
		{
			name: "IgnoreUpdates: reopened inside the window: fresh (rule 5, whatever the inputs)",
			pr:   with(pr(daysAgo(1)), created(daysAgo(100))), act: &lifecycle.Activity{ReopenedAt: daysAgo(2)},
			policy: policy(func(p *lifecycle.Policy) { p.IgnoreUpdates = true; p.DaysBeforeClose = 0 }),
			want:   lifecycle.Keep, reason: lifecycle.ReasonActive, inactiveSince: daysAgo(2),
		},
		{
			name: "IgnoreUpdates: created within DaysBeforeStale: keep",
			pr:   with(pr(daysAgo(1)), created(daysAgo(29))), policy: policy(func(p *lifecycle.Policy) { p.IgnoreUpdates = true }),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive, inactiveSince: daysAgo(29),
		},
		{
			name: "IgnoreUpdates with People: CreatedAt decides",
			pr:   with(pr(daysAgo(1)), created(daysAgo(31))), act: &lifecycle.Activity{LastPersonAt: daysAgo(1)},
			policy: policy(func(p *lifecycle.Policy) {
				p.IgnoreUpdates = true
				p.ActivityFrom = lifecycle.People
			}),
			want: lifecycle.Mark, reason: lifecycle.ReasonOpenTooLong, inactiveSince: daysAgo(31),
		},
	})
}

func TestDecideKeptAlive(t *testing.T) { // rule 2
	keepLabel := policy(func(p *lifecycle.Policy) { p.RemoveStaleWhenUpdated = false })
	runDecide(t, []decideCase{
		{
			name:   "person activity after the mark: unstale",
			pr:     pr(daysAgo(1), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(5), NoticeAt: daysAgo(5), LastPersonAt: daysAgo(1), LastPersonLogin: "bob"},
			policy: policy(),
			want:   lifecycle.Unstale, reason: lifecycle.ReasonPersonActivity, inactiveSince: daysAgo(1), markedAt: daysAgo(5),
		},
		{
			name:   "person activity only before the mark: stays stale",
			pr:     pr(daysAgo(5), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(5), NoticeAt: daysAgo(5), LastPersonAt: daysAgo(40)},
			policy: policy(),
			want:   lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, markedAt: daysAgo(5), closeAt: daysAgo(5).Add(closeDays * lifecycle.Day),
		},
		{
			name:   "person activity at the very instant of the mark is not after it",
			pr:     pr(daysAgo(5), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(5), NoticeAt: daysAgo(5), LastPersonAt: daysAgo(5)},
			policy: policy(),
			want:   lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting,
		},
		{
			name:   "RemoveStaleWhenUpdated false: label stays, person activity postpones the close",
			pr:     pr(daysAgo(3), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(10), NoticeAt: daysAgo(10), LastPersonAt: daysAgo(3)},
			policy: keepLabel,
			want:   lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting,
			inactiveSince: daysAgo(3), markedAt: daysAgo(10), closeAt: daysAgo(3).Add(closeDays * lifecycle.Day),
		},
		{
			// The reason says what the clock counted from: a person
			// acted after the mark, so not "since the mark".
			name:   "RemoveStaleWhenUpdated false: close clock runs from the last person activity",
			pr:     pr(daysAgo(8), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(20), NoticeAt: daysAgo(20), LastPersonAt: daysAgo(8)},
			policy: keepLabel,
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDueSincePerson, inactiveSince: daysAgo(8), markedAt: daysAgo(20),
		},
		{
			name:   "RemoveStaleWhenUpdated false, nobody since the mark: closed since the mark",
			pr:     pr(daysAgo(20), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(20), NoticeAt: daysAgo(20), LastPersonAt: daysAgo(40)},
			policy: keepLabel,
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDue, inactiveSince: daysAgo(20),
		},
		{
			name:   "mark undated, label removed on activity: unstale",
			pr:     pr(daysAgo(8), staleLabel),
			act:    &lifecycle.Activity{LastPersonAt: daysAgo(8), LastPersonLogin: "bob"},
			policy: policy(),
			want:   lifecycle.Unstale, reason: lifecycle.ReasonPersonActivity,
		},
		{
			name:   "from the timeline, mark undated: cannot tell when it was marked",
			pr:     pr(daysAgo(8), staleLabel),
			act:    &lifecycle.Activity{LastPersonAt: daysAgo(8), LastPersonLogin: "bob"},
			policy: keepLabel,
			want:   lifecycle.Skip, reason: lifecycle.ReasonMarkUnknown,
		},
	})
}

func TestDecideClose(t *testing.T) { // rule 3
	runDecide(t, []decideCase{
		{
			name: "no person activity for DaysBeforeClose days after the mark: close",
			pr:   pr(daysAgo(closeDays), staleLabel), act: marked(daysAgo(closeDays)), policy: policy(),
			want: lifecycle.Close, reason: lifecycle.ReasonCloseDue, markedAt: daysAgo(closeDays), closeAt: now,
		},
		{
			name: "one second before DaysBeforeClose days after the mark: keep waiting",
			pr:   pr(daysAgo(closeDays), staleLabel), act: marked(daysAgo(closeDays).Add(time.Second)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: now.Add(time.Second),
		},
		{
			name: "DaysBeforeClose -1: never close",
			pr:   pr(daysAgo(300), staleLabel), act: marked(daysAgo(300)),
			policy: policy(func(p *lifecycle.Policy) { p.DaysBeforeClose = -1 }),
			want:   lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAtZero: true,
		},
		{
			name:   "our closing comment already posted after the mark: close without commenting again",
			pr:     pr(daysAgo(1), staleLabel),
			act:    &lifecycle.Activity{MarkedAt: daysAgo(8), NoticeAt: daysAgo(8), CloseNoticeAt: daysAgo(1)},
			policy: policy(),
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDue, noticePosted: true,
		},
		{
			name: "listing only, updated before the close window: need detail (a person may have acted after the mark)",
			pr:   pr(daysAgo(8), staleLabel), policy: policy(),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonStaleWaiting,
		},
		{
			name: "our notice posted late (a run stopped between label and notice): the clock runs from the notice",
			pr:   pr(daysAgo(2), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(40), NoticeAt: daysAgo(2)}, policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: daysAgo(2).Add(closeDays * lifecycle.Day),
		},
		{
			name: "someone else's mark keeps its clock: close days-before-close after the label",
			pr:   pr(daysAgo(8), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(8), ForeignMark: true}, policy: policy(),
			want: lifecycle.Close, reason: lifecycle.ReasonCloseDue, closeAt: daysAgo(1),
		},
		{
			name: "someone else's mark, not yet due: keep, no notice of ours",
			pr:   pr(daysAgo(3), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(3), ForeignMark: true}, policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: daysAgo(3).Add(closeDays * lifecycle.Day),
		},
		{
			name: "listing only, updated inside the close window: need detail",
			pr:   pr(daysAgo(3), staleLabel), policy: policy(),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonStaleWaiting,
		},
		{
			name: "listing only, updated exactly at the close cutoff: need detail",
			pr:   pr(daysAgo(closeDays), staleLabel), policy: policy(),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonStaleWaiting,
		},
		{
			name: "listing only, closing disabled: need detail, never close",
			pr:   pr(daysAgo(300), staleLabel), policy: policy(func(p *lifecycle.Policy) { p.DaysBeforeClose = -1 }),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonStaleWaiting,
		},
		{
			name: "stale label matched case-insensitively",
			pr:   pr(daysAgo(8), "Stale"), act: marked(daysAgo(8)), policy: policy(),
			want: lifecycle.Close, reason: lifecycle.ReasonCloseDue,
		},
	})
}

func TestDecideNotify(t *testing.T) { // rule 7
	runDecide(t, []decideCase{
		{
			name: "labelled, mark known, not yet due, notice missing: notify, closing a full window after it",
			pr:   pr(daysAgo(2), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(2)}, policy: policy(),
			want: lifecycle.Notify, reason: lifecycle.ReasonNoticeMissing, markedAt: daysAgo(2), closeAt: now.Add(closeDays * lifecycle.Day),
		},
		{
			name: "labelled, notice present, not yet due: keep",
			pr:   pr(daysAgo(2), staleLabel), act: marked(daysAgo(2)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, markedAt: daysAgo(2),
		},
		{
			name: "our label without notice and already due: notify first, never close untold",
			pr:   pr(daysAgo(9), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(9)}, policy: policy(),
			want: lifecycle.Notify, reason: lifecycle.ReasonNoticeMissing, closeAt: now.Add(closeDays * lifecycle.Day),
		},
		{
			name: "no stale message configured: a missing notice is normal, the label's clock decides",
			pr:   pr(daysAgo(9), staleLabel), act: &lifecycle.Activity{MarkedAt: daysAgo(9)},
			policy: policy(func(p *lifecycle.Policy) { p.NoStaleNotice = true }),
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDue,
		},
		{
			name: "mark unknown and no person activity: skip, never close when unsure",
			pr:   pr(daysAgo(2), staleLabel), act: &lifecycle.Activity{}, policy: policy(),
			want: lifecycle.Skip, reason: lifecycle.ReasonMarkUnknown,
		},
		{
			name: "mark unknown, person activity, label kept on activity: skip",
			pr:   pr(daysAgo(2), staleLabel), act: &lifecycle.Activity{LastPersonAt: daysAgo(50)},
			policy: policy(func(p *lifecycle.Policy) { p.RemoveStaleWhenUpdated = false }),
			want:   lifecycle.Skip, reason: lifecycle.ReasonMarkUnknown,
		},
	})
}

// TestNoticePostedLateCounts: a notice posted late (Notify) says the days
// the mark counted, as the history tells them, never more than the PR was
// inactive: not the days since the label (a PR opened 90 days ago is not
// "open for 2 days"), and under each clock what that clock counts from.
// Its close stays a full window from now.
func TestNoticePostedLateCounts(t *testing.T) {
	labelled := pr(daysAgo(2), staleLabel) // created 90 days ago
	unnoticed := func(edit func(a *lifecycle.Activity)) *lifecycle.Activity {
		a := &lifecycle.Activity{MarkedAt: daysAgo(2), LastPersonAt: daysAgo(20), LastPersonLogin: "maintainer"}
		edit(a)
		return a
	}
	people := func(p *lifecycle.Policy) { p.ActivityFrom = lifecycle.People }
	ignoreUpdates := func(p *lifecycle.Policy) { p.IgnoreUpdates = true }
	keepLabel := func(p *lifecycle.Policy) { p.RemoveStaleWhenUpdated = false }
	onAuthor := func(a *lifecycle.Activity) { a.Turn = lifecycle.Turn{Whose: lifecycle.TurnAuthor, Since: daysAgo(20)} }
	notify := func(name string, act *lifecycle.Activity, p lifecycle.Policy, reason lifecycle.Reason, since time.Time) decideCase {
		return decideCase{name: name, pr: labelled, act: act, policy: p, want: lifecycle.Notify, reason: reason,
			inactiveSince: since, markedAt: daysAgo(2), closeAt: now.Add(closeDays * lifecycle.Day)}
	}
	runDecide(t, []decideCase{
		notify("anyone: since a person's last activity before the mark", unnoticed(func(*lifecycle.Activity) {}),
			policy(), lifecycle.ReasonNoticeMissing, daysAgo(20)),
		notify("anyone: a bot's comment after the person is activity too, never more days than the truth",
			unnoticed(func(a *lifecycle.Activity) { a.TouchedAt = daysAgo(10) }), policy(), lifecycle.ReasonNoticeMissing, daysAgo(10)),
		notify("anyone: nothing since the opening", unnoticed(func(a *lifecycle.Activity) { a.LastPersonAt, a.LastPersonLogin = time.Time{}, "" }),
			policy(), lifecycle.ReasonNoticeMissing, daysAgo(90)),
		notify("anyone: a reopening after the person's activity", unnoticed(func(a *lifecycle.Activity) { a.ReopenedAt = daysAgo(15) }),
			policy(), lifecycle.ReasonNoticeMissing, daysAgo(15)),
		notify("people: a bot's comment is not activity", unnoticed(func(a *lifecycle.Activity) { a.TouchedAt = daysAgo(10) }),
			policy(people), lifecycle.ReasonNoticeMissing, daysAgo(20)),
		notify("people: a reopening by a bot still counts", unnoticed(func(a *lifecycle.Activity) { a.ReopenedAt = daysAgo(15) }),
			policy(people), lifecycle.ReasonNoticeMissing, daysAgo(15)),
		notify("label kept on activity: a person's comment since the mark shortens the days",
			unnoticed(func(a *lifecycle.Activity) { a.LastPersonAt = daysAgo(1) }), policy(keepLabel), lifecycle.ReasonNoticeMissing, daysAgo(1)),
		notify("ignore-updates: since the opening, whatever the activity", unnoticed(func(a *lifecycle.Activity) { a.TouchedAt = daysAgo(10) }),
			policy(ignoreUpdates), lifecycle.ReasonNoticeMissingOpen, daysAgo(90)),
		notify("ignore-updates: since the last reopening", unnoticed(func(a *lifecycle.Activity) { a.ReopenedAt = daysAgo(50) }),
			policy(ignoreUpdates), lifecycle.ReasonNoticeMissingOpen, daysAgo(50)),
		notify("author-turn: since the author's turn began", unnoticed(onAuthor), policy(authorTurn), lifecycle.ReasonNoticeMissing, daysAgo(20)),
		notify("author-turn: the author's last action on their turn (a draft they keep working on)",
			unnoticed(func(a *lifecycle.Activity) { onAuthor(a); a.Turn.AuthorAt = daysAgo(12) }), policy(authorTurn), lifecycle.ReasonNoticeMissing, daysAgo(12)),
	})
}

func TestDecidePeople(t *testing.T) { // rule 8
	people := policy(func(p *lifecycle.Policy) { p.ActivityFrom = lifecycle.People })
	awaiting := policy(func(p *lifecycle.Policy) { p.ExemptAwaitingReview = true })
	runDecide(t, []decideCase{
		{
			name: "people: created before the cutoff, updated after it, listing only: need detail",
			pr:   pr(daysAgo(1)), policy: people,
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonActive,
		},
		{
			name: "people: a labeller bot relabelling daily does not keep it alive",
			pr:   pr(daysAgo(1)), act: &lifecycle.Activity{LastPersonAt: daysAgo(40)}, policy: people,
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, inactiveSince: daysAgo(40),
		},
		{
			name: "people: no person activity ever: inactive since creation",
			pr:   pr(daysAgo(1)), act: &lifecycle.Activity{}, policy: people,
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, inactiveSince: daysAgo(90),
		},
		{
			name: "people: recent person activity: keep",
			pr:   pr(daysAgo(1)), act: &lifecycle.Activity{LastPersonAt: daysAgo(2)}, policy: people,
			want: lifecycle.Keep, reason: lifecycle.ReasonActive, inactiveSince: daysAgo(2),
		},
		{
			name: "people: created inside the window: keep without detail",
			pr:   with(pr(daysAgo(1)), created(daysAgo(10))), policy: people,
			want: lifecycle.Keep, reason: lifecycle.ReasonActive,
		},
		{
			name: "people: not updated since the cutoff: mark without detail",
			pr:   pr(daysAgo(31)), policy: people,
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, inactiveSince: daysAgo(31),
		},
		{
			name: "anyone: updated after the cutoff: keep without detail",
			pr:   pr(daysAgo(1)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive,
		},
		{
			name: "exempt awaiting review, listing only, inactive: need detail",
			pr:   pr(daysAgo(40)), policy: awaiting,
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt awaiting review, awaiting: skip",
			pr:   pr(daysAgo(40)), act: &lifecycle.Activity{AwaitingReview: true, PendingReviewers: []string{"bob"}}, policy: awaiting,
			want: lifecycle.Skip, reason: lifecycle.ReasonAwaitingReview,
		},
		{
			name: "exempt awaiting review, not awaiting: mark",
			pr:   pr(daysAgo(40)), act: &lifecycle.Activity{}, policy: awaiting,
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt awaiting review, active: keep without detail",
			pr:   pr(daysAgo(1)), policy: awaiting,
			want: lifecycle.Keep, reason: lifecycle.ReasonActive,
		},
		{
			name: "awaiting review without the exemption: mark",
			pr:   pr(daysAgo(40)), act: &lifecycle.Activity{AwaitingReview: true}, policy: policy(),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
	})
}

// TestDecideFromTimeline runs the rules end to end: a stale-labelled PR's
// timeline is summarised, then decided.
func TestDecideFromTimeline(t *testing.T) { // rules 2, 4, 5
	self := []string{selfLogin}
	m := daysAgo(10) // the mark: due 3 days ago
	markedBySelf := []lifecycle.Event{labeled(m, selfLogin, staleLabel), staleNotice(m.Add(time.Second), selfLogin, m)}
	then := func(evs ...lifecycle.Event) []lifecycle.Event {
		return append(append([]lifecycle.Event(nil), markedBySelf...), evs...)
	}

	tests := []struct {
		name   string
		events []lifecycle.Event
		policy lifecycle.Policy
		want   lifecycle.Action
	}{
		{"nothing after the mark: close", markedBySelf, policy(), lifecycle.Close},
		{"a pasted marker is a person's comment: unstale", then(staleNotice(daysAgo(1), "mallory", daysAgo(1))), policy(), lifecycle.Unstale},
		{"a pasted close marker does not skip the closing comment", then(closeNotice(daysAgo(1), "mallory")), policy(), lifecycle.Unstale},
		{"bot comments never count", then(botComment(daysAgo(2), "codecov"), comment(daysAgo(1), "sonar[bot]")), policy(), lifecycle.Close},
		{"label churn by bots never counts", then(
			asBot(labeled(daysAgo(3), "labeler", "size/XL")), unlabeled(daysAgo(2), "labeler[bot]", "size/L"),
		), policy(), lifecycle.Close},
		{"a person's comment after the mark: unstale", then(comment(daysAgo(1), "bob")), policy(), lifecycle.Unstale},
		{"a person's review after the mark: unstale", then(ev(lifecycle.Reviewed, daysAgo(1), "bob")), policy(), lifecycle.Unstale},
		{"a push after the mark: unstale", then(commit(daysAgo(1))), policy(), lifecycle.Unstale},
		{"a person's label change after the mark: unstale", then(labeled(daysAgo(1), "bob", "needs-review")), policy(), lifecycle.Unstale},
		{"adding the stale label by a person is not activity", []lifecycle.Event{
			labeled(m, "bob", staleLabel), staleNotice(m.Add(time.Second), selfLogin, m),
		}, policy(), lifecycle.Close},
		{"a person's stale label without our notice: no notice of ours, waits", []lifecycle.Event{labeled(daysAgo(2), "bob", staleLabel)}, policy(), lifecycle.Keep},
		{"a person's stale label: closes days-before-close after it", []lifecycle.Event{labeled(daysAgo(8), "bob", staleLabel)}, policy(), lifecycle.Close},
		{"actions/stale's mark (its comment, then its label, as our login): no notice of ours", []lifecycle.Event{
			botComment(daysAgo(3), "github-actions[bot]"), asBot(labeled(daysAgo(3).Add(2*time.Second), "github-actions[bot]", staleLabel)),
		}, policy(), lifecycle.Keep},
		{"actions/stale's mark 8 days ago keeps its clock: close", []lifecycle.Event{
			botComment(daysAgo(8), "github-actions[bot]"), asBot(labeled(daysAgo(8).Add(2*time.Second), "github-actions[bot]", staleLabel)),
		}, policy(), lifecycle.Close},
		{"our own label without any comment (a run stopped in between): notify", []lifecycle.Event{
			asBot(labeled(daysAgo(8), selfLogin, staleLabel)),
		}, policy(), lifecycle.Notify},
		{"re-labelling restarts the close clock", []lifecycle.Event{
			labeled(daysAgo(20), selfLogin, staleLabel), staleNotice(daysAgo(20), selfLogin, daysAgo(20)),
			unlabeled(daysAgo(4), "bob", staleLabel), labeled(daysAgo(3), "bob", staleLabel),
			staleNotice(daysAgo(3), selfLogin, daysAgo(3)),
		}, policy(), lifecycle.Keep},
		{"re-labelling restarts the clock and needs a fresh notice", []lifecycle.Event{
			labeled(daysAgo(20), selfLogin, staleLabel), staleNotice(daysAgo(20), selfLogin, daysAgo(20)),
			unlabeled(daysAgo(4), "triage[bot]", staleLabel), labeled(daysAgo(3), "triage[bot]", staleLabel),
		}, policy(), lifecycle.Notify},
		{"later bot writes do not restart the clock", then(
			botComment(daysAgo(1), "ci"), asBot(labeled(daysAgo(1), "labeler", "ci-passed")),
		), policy(), lifecycle.Close},
		{"closed by the action and reopened by a person: unstale", then(
			closeNotice(daysAgo(3), selfLogin), ev(lifecycle.Closed, daysAgo(3), selfLogin), ev(lifecycle.Reopened, daysAgo(1), author),
		), policy(), lifecycle.Unstale},
		{"closed by the action and reopened by a bot: still due", then(
			closeNotice(daysAgo(3), selfLogin), ev(lifecycle.Closed, daysAgo(3), selfLogin), ev(lifecycle.Reopened, daysAgo(1), "restore[bot]"),
		), policy(), lifecycle.Close},
		{"label kept on activity: a recent person comment postpones the close", then(comment(daysAgo(1), "bob")),
			policy(func(p *lifecycle.Policy) { p.RemoveStaleWhenUpdated = false }), lifecycle.Keep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			act := lifecycle.Summarize(lifecycle.PR{Author: author}, tt.events, staleLabel, self)
			p := pr(now.Add(-time.Hour), staleLabel)
			if got := lifecycle.Decide(p, &act, now, tt.policy); got.Action != tt.want {
				t.Errorf("Decide = %v, want %v; activity %+v", got, tt.want, act)
			}
		})
	}
}

func TestDecideZeroDaysBeforeCloseClosesAtOnce(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	pol := lifecycle.Policy{DaysBeforeStale: 30, DaysBeforeClose: 0, StaleLabel: "stale", RemoveStaleWhenUpdated: true}
	pr := lifecycle.PR{Number: 1, CreatedAt: now.AddDate(0, 0, -90), UpdatedAt: now.AddDate(0, 0, -31)}
	if d := lifecycle.Decide(pr, nil, now, pol); d.Action != lifecycle.Close {
		t.Fatalf("days-before-close 0: decision %v, want close in the same run", d)
	}
	pr.UpdatedAt = now.AddDate(0, 0, -29)
	if d := lifecycle.Decide(pr, nil, now, pol); d.Action != lifecycle.Keep {
		t.Fatalf("active PR with days-before-close 0: decision %v, want keep", d)
	}
}
