package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestDecideAuthorTurn(t *testing.T) {
	stale := func(markedAt time.Time, whose lifecycle.Whose, since time.Time) *lifecycle.Activity {
		a := marked(markedAt)
		a.Turn = lifecycle.Turn{Whose: whose, Since: since}
		return a
	}
	authorActed := stale(daysAgo(3), lifecycle.TurnAuthor, daysAgo(60))
	authorActed.Turn.AuthorAt, authorActed.LastPersonAt, authorActed.LastPersonLogin = daysAgo(1), daysAgo(1), author
	pinged := stale(daysAgo(8), lifecycle.TurnAuthor, daysAgo(60))
	pinged.LastPersonAt, pinged.LastPersonLogin = daysAgo(1), "carol"
	unexplained := stale(daysAgo(8), lifecycle.TurnAuthor, daysAgo(60))
	unexplained.LastPersonAt = daysAgo(1)
	cases := []decideCase{
		{name: "the listing cannot tell the turn", pr: pr(daysAgo(40)), want: lifecycle.NeedDetail},
		{name: "a PR younger than days-before-stale needs no timeline", pr: with(pr(daysAgo(1)), created(daysAgo(10))),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "the reviewers' turn is never marked, whatever its age", pr: pr(daysAgo(80)),
			act: turnAct(lifecycle.TurnReviewers, daysAgo(85)), want: lifecycle.Keep, reason: lifecycle.ReasonReviewersTurn},
		{name: "the maintainers' turn is never marked", pr: pr(daysAgo(80)),
			act: turnAct(lifecycle.TurnMaintainers, daysAgo(85)), want: lifecycle.Keep, reason: lifecycle.ReasonMaintainersTurn},
		{name: "marked after days-before-stale days on the author's turn, recent drive-by comments or not", pr: pr(daysAgo(1)),
			act: turnAct(lifecycle.TurnAuthor, daysAgo(31)), want: lifecycle.Mark, reason: lifecycle.ReasonWaitingOnAuthor},
		{name: "not marked before days-before-stale days on the author's turn", pr: pr(daysAgo(29)),
			act: turnAct(lifecycle.TurnAuthor, daysAgo(29)), want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "stale on the reviewers' turn: un-staled, not the author's to answer", pr: pr(now, staleLabel),
			act: stale(daysAgo(3), lifecycle.TurnReviewers, daysAgo(1)), want: lifecycle.Unstale, reason: lifecycle.ReasonNotAuthorsTurn},
		{name: "another bot's mark on the reviewers' turn, nothing since (a switch day): not the author's to answer", pr: pr(daysAgo(3), staleLabel),
			act: stale(daysAgo(3), lifecycle.TurnReviewers, daysAgo(100)), want: lifecycle.Unstale, reason: lifecycle.ReasonNotAuthorsTurn},
		{name: "stale and approved since: un-staled", pr: pr(now, staleLabel),
			act: stale(daysAgo(3), lifecycle.TurnMaintainers, daysAgo(1)), want: lifecycle.Unstale, reason: lifecycle.ReasonNotAuthorsToMerge},
		{name: "the author acted after the mark: un-staled", pr: pr(now, staleLabel),
			act: authorActed, want: lifecycle.Unstale, reason: lifecycle.ReasonAuthorActed},
		{name: "closed after days-before-close more days on the author's turn", pr: pr(now, staleLabel),
			act: stale(daysAgo(8), lifecycle.TurnAuthor, daysAgo(60)), want: lifecycle.Close, reason: lifecycle.ReasonCloseDueAuthorTurn},
		{name: "a third person's comment does not postpone the close", pr: pr(now, staleLabel),
			act: pinged, want: lifecycle.Close, reason: lifecycle.ReasonCloseDueAuthorTurn},
		{name: "an update nothing explains postpones the close", pr: pr(now, staleLabel),
			act: unexplained, want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting},
		{name: "a stale PR's turn unread: the timeline is needed", pr: pr(now, staleLabel),
			act: marked(daysAgo(8)), want: lifecycle.NeedDetail},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lifecycle.Decide(c.pr, c.act, now, policy(authorTurn))
			if got.Action != c.want || c.reason != "" && got.Reason != c.reason {
				t.Errorf("Decide = %v, want %v (%s)", got, c.want, c.reason)
			}
		})
	}
}
