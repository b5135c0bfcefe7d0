package lifecycle_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The rules of README "Whose turn it is" that decide who counts and what
// moves the turn, one table test per rule.

// turnCase is one history and what Summarize must make of it; a field left
// at its zero value is not checked (whose always is).
type turnCase struct {
	name     string
	pr       lifecycle.PR // Author defaults to author, CreatedAt to 60 days ago
	events   []lifecycle.Event
	opts     lifecycle.Options
	whose    lifecycle.Whose
	since    time.Time
	pending  []string // nil: not checked
	approved *bool
}

var yes, no = true, false

func withTurnLabels(o lifecycle.Options, labels ...string) lifecycle.Options {
	o.AuthorTurnLabels = labels
	return o
}

func runTurnCases(t *testing.T, cases []turnCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.pr
			if p.Author == "" {
				p.Author = author
			}
			if p.CreatedAt.IsZero() {
				p.CreatedAt = daysAgo(60)
			}
			o := c.opts
			o.Self = []string{selfLogin}
			a := lifecycle.SummarizeWith(p, c.events, staleLabel, o)
			if a.Turn.Whose != c.whose || !c.since.IsZero() && !a.Turn.Since.Equal(c.since) {
				t.Errorf("turn = %v since %s, want %v since %s", a.Turn.Whose, fmtTime(a.Turn.Since), c.whose, fmtTime(c.since))
			}
			if c.pending != nil && !slices.Equal(a.PendingReviewers, c.pending) {
				t.Errorf("pending = %q, want %q", a.PendingReviewers, c.pending)
			}
			if c.approved != nil && a.Approved != *c.approved {
				t.Errorf("approved = %v, want %v", a.Approved, *c.approved)
			}
		})
	}
}

func requested(at time.Time, by, assoc, reviewer string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.ReviewRequested, At: at, Actor: by, Association: assoc, Reviewer: reviewer}
}

// TestTurnReviewRequestByMaintainer: a review request made or moved by a
// maintainer puts the PR on the reviewers' turn, after any comment; a
// maintainer's plain comment is no change request while a review is still
// requested of someone.
func TestTurnReviewRequestByMaintainer(t *testing.T) {
	moved := []lifecycle.Event{
		requested(daysAgo(50), maintainer, "MEMBER", maintainer),
		said(daysAgo(45), maintainer, "MEMBER"), // "not my area, r? @mo"
		{Kind: lifecycle.ReviewRequestRemoved, At: daysAgo(45), Actor: maintainer, Association: "MEMBER", Reviewer: maintainer},
		requested(daysAgo(45), maintainer, "MEMBER", other),
	}
	runTurnCases(t, []turnCase{
		{name: "the request moved to another maintainer: the reviewers' turn", events: moved,
			whose: lifecycle.TurnReviewers, pending: []string{other}},
		{name: "a maintainer's request after a change request: the reviewers' turn",
			events: []lifecycle.Event{reviewed(daysAgo(40), maintainer, "MEMBER", "changes_requested"),
				requested(daysAgo(30), maintainer, "MEMBER", other)},
			whose: lifecycle.TurnReviewers, since: daysAgo(30)},
		{name: "a maintainer's comment while a review is requested: still the reviewers'",
			events: []lifecycle.Event{requested(daysAgo(50), author, "CONTRIBUTOR", other), said(daysAgo(40), maintainer, "MEMBER")},
			whose:  lifecycle.TurnReviewers},
		{name: "the requested reviewer's own comment answers the request: the author's",
			events: []lifecycle.Event{reviewed(daysAgo(50), maintainer, "MEMBER", "changes_requested"), pushed(daysAgo(45), false),
				requested(daysAgo(45), author, "CONTRIBUTOR", maintainer), said(daysAgo(40), maintainer, "MEMBER")},
			whose: lifecycle.TurnAuthor, since: daysAgo(40), pending: []string{maintainer}},
		{name: "another maintainer's comment while it is requested of someone else does not",
			events: []lifecycle.Event{requested(daysAgo(45), author, "CONTRIBUTOR", maintainer), said(daysAgo(40), other, "MEMBER")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a maintainer's comment with no review requested: the author's",
			events: []lifecycle.Event{said(daysAgo(40), maintainer, "MEMBER")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(40)},
		{name: "a request GitHub does not qualify is its maker's, as their comment tells",
			events: []lifecycle.Event{said(daysAgo(40), maintainer, "MEMBER"), requested(daysAgo(30), maintainer, "", other)},
			whose:  lifecycle.TurnReviewers, since: daysAgo(30)},
		{name: "a maintainer's request of a bot passes nothing",
			events: []lifecycle.Event{said(daysAgo(40), maintainer, "MEMBER"),
				{Kind: lifecycle.ReviewRequested, At: daysAgo(30), Actor: maintainer, Association: "MEMBER", Reviewer: "Copilot", ReviewerBot: true}},
			whose: lifecycle.TurnAuthor, since: daysAgo(40), pending: []string{}},
		{name: "a third person's request passes nothing",
			events: []lifecycle.Event{said(daysAgo(40), maintainer, "MEMBER"), requested(daysAgo(30), "carol", "NONE", other)},
			whose:  lifecycle.TurnAuthor, since: daysAgo(40)},
	})
}

// TestTurnBotAuthorActs: the author's own actions count even when the
// author is a bot.
func TestTurnBotAuthorActs(t *testing.T) {
	dependabot := lifecycle.PR{Author: "dependabot[bot]", AuthorBot: true}
	asked := said(daysAgo(30), maintainer, "MEMBER") // "@dependabot rebase"
	runTurnCases(t, []turnCase{
		{name: "the bot author's force push hands it back", pr: dependabot,
			events: []lifecycle.Event{asked, asBot(ev(lifecycle.ForcePushed, daysAgo(29.9), "dependabot[bot]"))},
			whose:  lifecycle.TurnReviewers, since: daysAgo(29.9)},
		{name: "the bot author's commit hands it back", pr: dependabot,
			events: []lifecycle.Event{asked, pushed(daysAgo(29), true)},
			whose:  lifecycle.TurnReviewers, since: daysAgo(29)},
		{name: "the Copilot coding agent's commit, by its account", pr: lifecycle.PR{Author: "Copilot", AuthorBot: true},
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(29), Bot: true, CommitAuthor: "Copilot"}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(29)},
		{name: "another bot's comment on a bot's PR changes nothing", pr: dependabot,
			events: []lifecycle.Event{asked, botComment(daysAgo(29), "ci-helper[bot]")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "a bot's commit on a person's PR changes nothing",
			events: []lifecycle.Event{asked, pushed(daysAgo(29), true)},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
	})
	a := lifecycle.SummarizeWith(with(pr(daysAgo(29.9)), func(p *lifecycle.PR) { *p = dependabot; p.CreatedAt = daysAgo(60) }),
		[]lifecycle.Event{asked, asBot(ev(lifecycle.ForcePushed, daysAgo(29.9), "dependabot[bot]"))}, staleLabel, lifecycle.Options{})
	if !a.LastPersonAt.Equal(daysAgo(29.9)) {
		t.Errorf("the bot author's push is not activity: last %s", fmtTime(a.LastPersonAt))
	}
}

// TestTurnClockFromAuthorsLastAction: on the author's turn the stale clock
// counts from the later of the turn's start and the author's last action.
func TestTurnClockFromAuthorsLastAction(t *testing.T) {
	draft := with(pr(daysAgo(12)), func(p *lifecycle.PR) { p.Draft = true; p.CreatedAt = daysAgo(100) })
	events := []lifecycle.Event{said(daysAgo(90), maintainer, "MEMBER"), pushed(daysAgo(40), false), pushed(daysAgo(25), false), pushed(daysAgo(12), false)}
	a := lifecycle.Summarize(draft, events, staleLabel, nil)
	if a.Turn.Whose != lifecycle.TurnAuthor || !a.Turn.ClockFrom().Equal(daysAgo(12)) {
		t.Fatalf("turn %v, clock from %s; want the author's, from the last push 12 days ago", a.Turn.Whose, fmtTime(a.Turn.ClockFrom()))
	}
	for _, clock := range []lifecycle.StaleClock{lifecycle.ClockAuthorTurn, lifecycle.ClockInactivity} {
		p := policy(func(p *lifecycle.Policy) { p.StaleClock = clock; p.DaysBeforeStale = 20 })
		if d := lifecycle.Decide(draft, &a, now, p); d.Action == lifecycle.Mark {
			t.Errorf("%s: a draft its author pushed to 12 days ago is marked (inactive since %s)", clock, fmtTime(d.InactiveSince))
		}
	}
	p := policy(func(p *lifecycle.Policy) { p.StaleClock = lifecycle.ClockAuthorTurn; p.DaysBeforeStale = 10 })
	if d := lifecycle.Decide(draft, &a, now, p); d.Action != lifecycle.Mark || !d.InactiveSince.Equal(daysAgo(12)) {
		t.Errorf("after 10 days: %v inactive since %s, want marked, inactive since the last push", d, fmtTime(d.InactiveSince))
	}
}

// TestTurnBotAccounts: bot-accounts are bots whatever GitHub says: never
// activity, never a turn.
func TestTurnBotAccounts(t *testing.T) {
	ci := lifecycle.Options{Bots: []string{"project-ci"}}
	runTurnCases(t, []turnCase{
		{name: "a CI account's comment does not pass the turn", opts: ci,
			events: []lifecycle.Event{pushed(daysAgo(30), false), said(daysAgo(29), "project-ci", "COLLABORATOR")},
			whose:  lifecycle.TurnReviewers},
		{name: "a CI account's review request is no person pending", opts: ci,
			events: []lifecycle.Event{requested(daysAgo(30), author, "CONTRIBUTOR", "project-ci")},
			whose:  lifecycle.TurnReviewers, pending: []string{}},
		{name: "without bot-accounts it is a maintainer's comment",
			events: []lifecycle.Event{pushed(daysAgo(30), false), said(daysAgo(29), "project-ci", "COLLABORATOR")},
			whose:  lifecycle.TurnAuthor},
	})
	a := lifecycle.SummarizeWith(pr(daysAgo(1)), []lifecycle.Event{said(daysAgo(1), "Project-CI", "MEMBER")}, staleLabel, ci)
	if !a.LastPersonAt.IsZero() {
		t.Errorf("a bot account's comment is activity: %s by %s", fmtTime(a.LastPersonAt), a.LastPersonLogin)
	}
}

// TestTurnMaintainerIsWriteAccess: a maintainer is an account with write
// access, as learnt (Options.Access) or as a review tells; the association
// is the fallback; reviewers adds maintainers.
func TestTurnMaintainerIsWriteAccess(t *testing.T) {
	member := []lifecycle.Event{said(daysAgo(30), "orgmate", "MEMBER")}
	hidden := []lifecycle.Event{said(daysAgo(30), "quiet", "CONTRIBUTOR")}
	runTurnCases(t, []turnCase{
		{name: "an organisation member without write access is no maintainer", events: member,
			opts: lifecycle.Options{Access: map[string]lifecycle.Access{"orgmate": lifecycle.AccessNone}}, whose: lifecycle.TurnReviewers},
		{name: "a private member with write access is one", events: hidden,
			opts: lifecycle.Options{Access: map[string]lifecycle.Access{"quiet": lifecycle.AccessWrite}}, whose: lifecycle.TurnAuthor},
		{name: "unknown access: the association decides", events: member, whose: lifecycle.TurnAuthor},
		{name: "a review's authorCanPushToRepository answers for its author's comments",
			events: []lifecycle.Event{{Kind: lifecycle.Reviewed, At: daysAgo(40), Actor: "quiet", Association: "CONTRIBUTOR", ReviewState: "dismissed", Access: lifecycle.AccessWrite},
				hidden[0]},
			whose: lifecycle.TurnAuthor},
		{name: "reviewers adds maintainers", events: hidden,
			opts: lifecycle.Options{Reviewers: []string{"Quiet"}}, whose: lifecycle.TurnAuthor},
		{name: "a listed team's pending request: an organisation member's review answers it as a maintainer's",
			opts: lifecycle.Options{Reviewers: []string{"octo/docs"}, Access: map[string]lifecycle.Access{"quiet": lifecycle.AccessNone}},
			events: []lifecycle.Event{{Kind: lifecycle.ReviewRequested, At: daysAgo(40), Actor: author, Team: "octo/docs"},
				reviewed(daysAgo(30), "quiet", "MEMBER", "changes_requested")},
			whose: lifecycle.TurnAuthor, since: daysAgo(30), pending: []string{}},
		{name: "REST's slug of a listed team",
			opts:   lifecycle.Options{Reviewers: []string{"octo/docs"}},
			events: []lifecycle.Event{requested(daysAgo(40), author, "", "team:docs"), reviewed(daysAgo(30), "quiet", "MEMBER", "approved")},
			whose:  lifecycle.TurnMaintainers, since: daysAgo(30), pending: []string{}, approved: &yes},
		{name: "no listed team pending: a stranger's review is a stranger's",
			opts:   lifecycle.Options{Reviewers: []string{"octo/docs"}},
			events: []lifecycle.Event{requested(daysAgo(40), author, "", "team:core"), reviewed(daysAgo(30), "quiet", "CONTRIBUTOR", "changes_requested")},
			whose:  lifecycle.TurnReviewers, pending: []string{"team:core"}},
	})
	a := lifecycle.SummarizeWith(pr(daysAgo(1)), append(member, hidden...), staleLabel,
		lifecycle.Options{Access: map[string]lifecycle.Access{"orgmate": lifecycle.AccessWrite}})
	if !slices.Equal(a.Unsure, []string{"quiet"}) {
		t.Errorf("Unsure = %q, want only the account whose access is unknown", a.Unsure)
	}
}

// TestTurnCommitsByTheirAccounts: commits count by their GitHub author and
// committer: someone else's content push (a co-author's, a maintainer
// finishing the work) answers for the PR's side as the author's does; a
// merge of the base ("Update branch") or a bot's commit answers nothing.
func TestTurnCommitsByTheirAccounts(t *testing.T) {
	asked := reviewed(daysAgo(30), maintainer, "MEMBER", "changes_requested")
	approved := reviewed(daysAgo(30), maintainer, "MEMBER", "approved")
	runTurnCases(t, []turnCase{
		{name: "a maintainer's fixup answers for the PR: the reviewers' turn",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: maintainer, CommitCommitter: maintainer, Headline: "Rename as asked"}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a co-author's commit with no committer account answers too",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: "carol"}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a maintainer's Update branch (a merge by its headline) answers nothing",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: other, Headline: "Merge branch 'main' into rename"}},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "a merge of the upstream remote answers nothing",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: other, Headline: "Merge remote-tracking branch 'upstream/main' into rename"}},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "a merge by its parents answers nothing",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: other, SHA: "m", Parents: []string{"a", "b"}}},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "a maintainer's push after an approval sets it aside: the reviewers'",
			events: []lifecycle.Event{approved, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: other, Headline: "Fix the typo"}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a bot's commit by its account answers nothing",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: "pre-commit-ci[bot]", Bot: true, Headline: "[pre-commit.ci] auto fixes"}},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "the author's commit hands it back",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: "Alice"}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a maintainer's commit the author committed (a rebase) is the author's",
			events: []lifecycle.Event{asked, {Kind: lifecycle.Committed, At: daysAgo(20), CommitAuthor: maintainer, CommitCommitter: author}},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a commit with no account keeps today's meaning: the author's",
			events: []lifecycle.Event{asked, pushed(daysAgo(20), false)},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a commit with no account a bot made is nobody's",
			events: []lifecycle.Event{asked, pushed(daysAgo(20), true)},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
	})
}

// TestTurnListedTeamAnsweredByItsOwn: while a team listed in reviewers has
// a pending request, only a review by someone who may be of that team (a
// member of its organisation) answers it as a maintainer's; a stranger's
// change request (NONE, a first-time contributor, an outside collaborator
// without write access, an account GitHub does not qualify) is no answer
// of the team's and starts no author's clock. One with write access
// answers as the maintainer they are.
func TestTurnListedTeamAnsweredByItsOwn(t *testing.T) {
	team := requested(daysAgo(40), author, "", "team:core")
	listed := lifecycle.Options{Reviewers: []string{"octo/core"}}
	stranger := func(assoc string, access lifecycle.Access) []lifecycle.Event {
		r := reviewed(daysAgo(31), "drive-by", assoc, "changes_requested")
		r.Access = access
		return []lifecycle.Event{team, r}
	}
	var cases []turnCase
	for _, assoc := range []string{"NONE", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "MANNEQUIN", "CONTRIBUTOR", "COLLABORATOR", ""} {
		for _, access := range []lifecycle.Access{lifecycle.AccessNone, lifecycle.AccessUnknown} {
			o := listed
			o.Assume = lifecycle.AccessNone // an account whose access the run would ask turns out without it
			cases = append(cases, turnCase{name: fmt.Sprintf("a stranger %q (access %d) is not the team", assoc, access),
				events: stranger(assoc, access), opts: o, whose: lifecycle.TurnReviewers, pending: []string{"team:core"}})
		}
	}
	cases = append(cases,
		turnCase{name: "an organisation member without write access answers for it", events: stranger("MEMBER", lifecycle.AccessNone),
			opts: listed, whose: lifecycle.TurnAuthor, since: daysAgo(31), pending: []string{}},
		turnCase{name: "so does the organisation's owner", events: stranger("OWNER", lifecycle.AccessNone),
			opts: listed, whose: lifecycle.TurnAuthor, since: daysAgo(31), pending: []string{}},
		turnCase{name: "an account with write access is a maintainer, whatever its association",
			events: stranger("CONTRIBUTOR", lifecycle.AccessWrite), opts: listed, whose: lifecycle.TurnAuthor, since: daysAgo(31), pending: []string{}},
		turnCase{name: "the association its comment told answers for a review with none",
			events: append(stranger("", lifecycle.AccessNone), said(daysAgo(35), "drive-by", "MEMBER")),
			opts:   listed, whose: lifecycle.TurnAuthor, since: daysAgo(31), pending: []string{}},
	)
	runTurnCases(t, cases)
}

// TestTurnTeamAndBotReviewers: a team's request is answered by a
// maintainer's review, never a bot's; a bot is never pending.
func TestTurnTeamAndBotReviewers(t *testing.T) {
	team := lifecycle.Event{Kind: lifecycle.ReviewRequested, At: daysAgo(50), Actor: author, Team: "octo/core"}
	copilot := lifecycle.Event{Kind: lifecycle.ReviewRequested, At: daysAgo(50), Actor: author, Reviewer: "Copilot", ReviewerBot: true}
	botReview := lifecycle.Event{Kind: lifecycle.Reviewed, At: daysAgo(49), Actor: "copilot-pull-request-reviewer[bot]", Bot: true, ReviewState: "commented"}
	runTurnCases(t, []turnCase{
		{name: "a bot's review does not answer a team's request",
			events: []lifecycle.Event{team, botReview}, whose: lifecycle.TurnReviewers, pending: []string{"team:octo/core"}},
		{name: "a stranger's review does not answer it",
			events: []lifecycle.Event{team, reviewed(daysAgo(40), "carol", "NONE", "approved")}, whose: lifecycle.TurnReviewers, pending: []string{"team:octo/core"}},
		{name: "a maintainer's review does",
			events: []lifecycle.Event{team, reviewed(daysAgo(40), maintainer, "MEMBER", "commented")}, whose: lifecycle.TurnAuthor, pending: []string{}},
		{name: "REST's team:slug form still works",
			events: []lifecycle.Event{requested(daysAgo(50), author, "", "team:core"), reviewed(daysAgo(40), maintainer, "MEMBER", "approved")},
			whose:  lifecycle.TurnMaintainers, pending: []string{}},
		{name: "Copilot's request is never pending", events: []lifecycle.Event{copilot}, whose: lifecycle.TurnReviewers, pending: []string{}},
		{name: "nor a [bot] login's", events: []lifecycle.Event{requested(daysAgo(50), author, "", "renovate[bot]")},
			whose: lifecycle.TurnReviewers, pending: []string{}},
		{name: "the author asking Copilot hands nothing back",
			events: []lifecycle.Event{said(daysAgo(45), maintainer, "MEMBER"), copilot}, whose: lifecycle.TurnAuthor, since: daysAgo(45)},
	})
}

// TestTurnApprovalFollowsReviewDecision: exempt-approved and the
// maintainers' turn follow reviewDecision when known; otherwise only
// reviews by accounts with write access count.
func TestTurnApprovalFollowsReviewDecision(t *testing.T) {
	mine := reviewed(daysAgo(40), maintainer, "MEMBER", "approved")
	runTurnCases(t, []turnCase{
		{name: "a stranger's change request does not cancel a maintainer's approval",
			events: []lifecycle.Event{mine, reviewed(daysAgo(30), "carol", "NONE", "changes_requested")},
			whose:  lifecycle.TurnMaintainers, approved: &yes},
		{name: "a bot's approval exempts nothing",
			events: []lifecycle.Event{asBot(reviewed(daysAgo(40), "helper[bot]", "MEMBER", "approved"))},
			whose:  lifecycle.TurnReviewers, approved: &no},
		{name: "a stranger's approval exempts nothing",
			events: []lifecycle.Event{reviewed(daysAgo(40), "carol", "CONTRIBUTOR", "approved")},
			whose:  lifecycle.TurnReviewers, approved: &no},
		{name: "reviewDecision REVIEW_REQUIRED: one approval is not enough", pr: lifecycle.PR{ReviewDecision: "REVIEW_REQUIRED"},
			events: []lifecycle.Event{mine}, whose: lifecycle.TurnReviewers, approved: &no},
		{name: "reviewDecision APPROVED exempts, whoever the reviews seem to be by", pr: lifecycle.PR{ReviewDecision: "APPROVED"},
			events: []lifecycle.Event{reviewed(daysAgo(40), "carol", "CONTRIBUTOR", "approved")}, whose: lifecycle.TurnReviewers, approved: &yes},
	})
}

// TestTurnApprovedThenPushed: approved, then the author pushes: back on the
// reviewers' turn.
func TestTurnApprovedThenPushed(t *testing.T) {
	mine := reviewed(daysAgo(40), maintainer, "MEMBER", "approved")
	runTurnCases(t, []turnCase{
		{name: "the author's push after the approval", events: []lifecycle.Event{mine, pushed(daysAgo(20), false)},
			whose: lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "the author's force push after the approval", events: []lifecycle.Event{mine, ev(lifecycle.ForcePushed, daysAgo(20), author)},
			whose: lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "the author's comment after it: still theirs to merge", events: []lifecycle.Event{mine, said(daysAgo(20), author, "CONTRIBUTOR")},
			whose: lifecycle.TurnMaintainers, since: daysAgo(40)},
		{name: "a re-approval after the push", events: []lifecycle.Event{mine, pushed(daysAgo(20), false), reviewed(daysAgo(10), maintainer, "MEMBER", "approved")},
			whose: lifecycle.TurnMaintainers, since: daysAgo(10)},
	})
}

// TestTurnConflictOrAuthorLabel: a merge conflict, or a label of
// author-turn-when-labeled, puts the PR on the author's turn.
func TestTurnConflictOrAuthorLabel(t *testing.T) {
	labels := lifecycle.Options{AuthorTurnLabels: []string{"S-waiting-on-author"}}
	runTurnCases(t, []turnCase{
		{name: "mergeable CONFLICTING", pr: lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(20)},
			whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "a conflict dates from the base's latest push, not the PR's last update (our label)",
			pr:    lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(2), BaseHeadAt: daysAgo(20)},
			whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "a conflict on a PR quiet since before the base's push: from the push",
			pr:     lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(50), BaseHeadAt: daysAgo(5)},
			events: []lifecycle.Event{pushed(daysAgo(50), false)},
			whose:  lifecycle.TurnAuthor, since: daysAgo(5)},
		{name: "a base push before the turn began: from the turn's start",
			pr:     lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(2), BaseHeadAt: daysAgo(70)},
			events: []lifecycle.Event{pushed(daysAgo(30), false)},
			whose:  lifecycle.TurnAuthor, since: daysAgo(60)},
		{name: "MERGEABLE: the reviewers' turn", pr: lifecycle.PR{Mergeable: "MERGEABLE", UpdatedAt: daysAgo(20)},
			whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "the label, from when it was added", opts: labels, pr: lifecycle.PR{Labels: []string{"s-waiting-on-author"}},
			events: []lifecycle.Event{labeled(daysAgo(15), maintainer, "S-waiting-on-author")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(15)},
		{name: "the label taken off: the turn as the history has it", opts: labels,
			events: []lifecycle.Event{labeled(daysAgo(15), maintainer, "S-waiting-on-author"), unlabeled(daysAgo(10), maintainer, "S-waiting-on-author")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a label not listed", pr: lifecycle.PR{Labels: []string{"S-waiting-on-author"}},
			whose: lifecycle.TurnReviewers},
	})
}

// TestTurnConflictFirstSeen: our conflict-label addition, still on, is a
// time the PR was in conflict already: the conflict's turn counts from it
// when it is earlier than the base's latest push, so a conflict ages on a
// base pushed to every day. Only our own addition counts; the turn's start
// still bounds it.
func TestTurnConflictFirstSeen(t *testing.T) {
	rec := lifecycle.Options{ConflictLabel: "merge-conflict"}
	busy := lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(1), BaseHeadAt: daysAgo(1), Labels: []string{"merge-conflict"}}
	seen := labeled(daysAgo(40), selfLogin, "merge-conflict")
	runTurnCases(t, []turnCase{
		{name: "seen 40 days ago, the base pushed yesterday: from the sighting", opts: rec, pr: busy,
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen}, whose: lifecycle.TurnAuthor, since: daysAgo(40)},
		{name: "without the record: from the base's latest push", pr: busy,
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen}, whose: lifecycle.TurnAuthor, since: daysAgo(1)},
		{name: "a person's label is no sighting of ours", opts: rec, pr: busy,
			events: []lifecycle.Event{pushed(daysAgo(55), false), labeled(daysAgo(40), maintainer, "merge-conflict")}, whose: lifecycle.TurnAuthor, since: daysAgo(1)},
		{name: "another bot's label neither", opts: rec, pr: busy,
			events: []lifecycle.Event{pushed(daysAgo(55), false), asBot(labeled(daysAgo(40), "conflict-bot[bot]", "merge-conflict"))}, whose: lifecycle.TurnAuthor, since: daysAgo(1)},
		{name: "the label since taken off: no record", opts: rec, pr: lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(1), BaseHeadAt: daysAgo(1)},
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen, unlabeled(daysAgo(30), selfLogin, "merge-conflict")}, whose: lifecycle.TurnAuthor, since: daysAgo(1)},
		{name: "the author pushed since the sighting: from the push", opts: rec, pr: busy,
			events: []lifecycle.Event{seen, pushed(daysAgo(20), false)}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "a base push earlier than the sighting: from the push", opts: rec,
			pr:     lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(1), BaseHeadAt: daysAgo(45), Labels: []string{"merge-conflict"}},
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen}, whose: lifecycle.TurnAuthor, since: daysAgo(45)},
		{name: "a record left on a PR that merges: the reviewers' turn", opts: rec,
			pr:     lifecycle.PR{Mergeable: "MERGEABLE", UpdatedAt: daysAgo(1), BaseHeadAt: daysAgo(1), Labels: []string{"merge-conflict"}},
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "listed in author-turn-when-labeled too: the label's turn, from our addition", pr: busy,
			opts:   lifecycle.Options{ConflictLabel: "merge-conflict", AuthorTurnLabels: []string{"merge-conflict"}},
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen}, whose: lifecycle.TurnAuthor, since: daysAgo(40)},
		{name: "someone else's push since the sighting: from the push", opts: rec, pr: busy,
			events: []lifecycle.Event{pushed(daysAgo(55), false), seen, {Kind: lifecycle.Committed, At: daysAgo(25), CommitAuthor: "ci", Bot: true}},
			whose:  lifecycle.TurnAuthor, since: daysAgo(25)},
	})
}

// TestDecideConflictRecord: under the author-turn clock, conflict-label
// goes on when a merge conflict puts the PR on its author's turn, unless a
// person took it off; ours comes off once GitHub says it merges (unknown
// is no answer); nothing under the inactivity clock.
func TestDecideConflictRecord(t *testing.T) {
	pol := policy(func(p *lifecycle.Policy) { p.StaleClock, p.ConflictLabel = lifecycle.ClockAuthorTurn, "merge-conflict" })
	act := func(t lifecycle.Turn) *lifecycle.Activity { return &lifecycle.Activity{Turn: t} }
	conflict := lifecycle.Turn{Whose: lifecycle.TurnAuthor, Since: daysAgo(3), Conflict: true}
	ours := lifecycle.Turn{Whose: lifecycle.TurnReviewers, Since: daysAgo(3), ConflictSeenAt: daysAgo(9)}
	withLabel := func(mergeable string) lifecycle.PR {
		p := pr(daysAgo(1), "Merge-Conflict")
		p.Mergeable = mergeable
		return p
	}
	conflicted := pr(daysAgo(1))
	conflicted.Mergeable = "CONFLICTING"
	cases := []struct {
		name string
		pr   lifecycle.PR
		act  *lifecycle.Activity
		pol  lifecycle.Policy
		want lifecycle.TurnLabels
	}{
		{name: "a conflict's turn: on", pr: conflicted, act: act(conflict), pol: pol, want: lifecycle.TurnLabels{AddConflict: "merge-conflict"}},
		{name: "on already: nothing", pr: withLabel("CONFLICTING"), act: act(conflict), pol: pol},
		{name: "a person took it off: not put back", pr: conflicted, act: act(func() lifecycle.Turn { c := conflict; c.ConflictUnwanted = true; return c }()), pol: pol},
		{name: "on the author's turn for a review, in conflict too: no record needed", pr: conflicted,
			act: act(lifecycle.Turn{Whose: lifecycle.TurnAuthor, Since: daysAgo(3), By: maintainer}), pol: pol},
		{name: "ours, and it merges: off", pr: withLabel("MERGEABLE"), act: act(ours), pol: pol, want: lifecycle.TurnLabels{RemoveConflict: "merge-conflict"}},
		{name: "ours, on the author's turn by it (author-turn-when-labeled), and it merges: off", pr: withLabel("MERGEABLE"),
			act: act(lifecycle.Turn{Whose: lifecycle.TurnAuthor, Since: daysAgo(9), Label: "merge-conflict", ConflictSeenAt: daysAgo(9)}),
			pol: pol, want: lifecycle.TurnLabels{RemoveConflict: "merge-conflict"}},
		{name: "ours, mergeable unknown: left on", pr: withLabel(""), act: act(ours), pol: pol},
		{name: "ours, mergeable UNKNOWN: left on", pr: withLabel("UNKNOWN"), act: act(ours), pol: pol},
		{name: "someone else's, and it merges: not ours to take off", pr: withLabel("MERGEABLE"),
			act: act(lifecycle.Turn{Whose: lifecycle.TurnReviewers, Since: daysAgo(3)}), pol: pol},
		{name: "the inactivity clock: no record", pr: conflicted, act: act(conflict),
			pol: policy(func(p *lifecycle.Policy) { p.ConflictLabel = "merge-conflict" })},
		{name: "turn unknown: read it", pr: conflicted, act: act(lifecycle.Turn{}), pol: pol, want: lifecycle.TurnLabels{Detail: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lifecycle.DecideTurnLabels(c.pr, c.act, c.pol); got != c.want {
				t.Errorf("DecideTurnLabels = %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestTurnLabelNeverPutBack: a turn label a person took off is not put
// back while the turn they left lasts (a draft stays its author's whatever
// the label says); a new turn, passed by an action, labels afresh.
func TestTurnLabelNeverPutBack(t *testing.T) {
	const onAuthor, onReviewers = "waiting-on-author", "waiting-on-review"
	pol := policy(func(p *lifecycle.Policy) { p.AuthorTurnLabel, p.ReviewersTurnLabel = onAuthor, onReviewers })
	opts := lifecycle.Options{Self: []string{selfLogin}, AuthorTurnLabel: onAuthor, ReviewersTurnLabel: onReviewers}
	draft := with(pr(daysAgo(1)), func(p *lifecycle.PR) { p.Draft, p.CreatedAt = true, daysAgo(60) })
	removed := []lifecycle.Event{asBot(labeled(daysAgo(50), selfLogin, onAuthor)), unlabeled(daysAgo(20), maintainer, onAuthor)}
	for _, c := range []struct {
		name   string
		events []lifecycle.Event
		want   lifecycle.TurnLabels
	}{
		{"taken off by a person: not put back", removed, lifecycle.TurnLabels{}},
		{"a new turn after it: labelled afresh", append(removed, kind(lifecycle.ReadyForReview, daysAgo(10), author),
			kind(lifecycle.ConvertedToDraft, daysAgo(5), author)), lifecycle.TurnLabels{Add: onAuthor}},
		{"taken off by stalepr: put on", []lifecycle.Event{asBot(unlabeled(daysAgo(20), selfLogin, onAuthor))}, lifecycle.TurnLabels{Add: onAuthor}},
	} {
		a := lifecycle.SummarizeWith(draft, c.events, staleLabel, opts)
		if got := lifecycle.DecideTurnLabels(draft, &a, pol); got != c.want {
			t.Errorf("%s: %+v (turn %v, unwanted %q), want %+v", c.name, got, a.Turn.Whose, a.Turn.Unwanted, c.want)
		}
	}
}

// TestTurnStaleMaintainersPushAfterMark: under author-turn a maintainer's
// commit pushed on the marked head (its git date old) un-stales nothing,
// so the next run does not mark the PR again; the author's does.
func TestTurnStaleMaintainersPushAfterMark(t *testing.T) {
	p := with(pr(daysAgo(1), staleLabel), func(p *lifecycle.PR) { p.CreatedAt = daysAgo(60) })
	history := func(commitAuthor string) []lifecycle.Event {
		notice := staleNotice(daysAgo(3), selfLogin, daysAgo(3))
		notice.MarkHead = "h1"
		return []lifecycle.Event{
			reviewed(daysAgo(30), maintainer, "MEMBER", "changes_requested"),
			labeled(daysAgo(3), selfLogin, staleLabel), notice,
			{Kind: lifecycle.Committed, At: daysAgo(40), SHA: "h2", Parents: []string{"h1"}, CommitAuthor: commitAuthor},
		}
	}
	pol := policy(authorTurn)
	for _, c := range []struct {
		by   string
		want lifecycle.Action
	}{{maintainer, lifecycle.Keep}, {author, lifecycle.Unstale}} {
		a := lifecycle.SummarizeWith(p, history(c.by), staleLabel, lifecycle.Options{Self: []string{selfLogin}})
		if d := lifecycle.Decide(p, &a, now, pol); d.Action != c.want {
			t.Errorf("%s pushed after the mark: %v, want %v", c.by, d, c.want)
		}
	}
}

// TestDecideTurnLabels: the turn's label on, the other off, neither on the
// maintainers' turn; exempt PRs left alone; the timeline needed first.
func TestDecideTurnLabels(t *testing.T) {
	const onAuthor, onReviewers = "waiting-on-author", "waiting-on-review"
	pol := policy(func(p *lifecycle.Policy) { p.AuthorTurnLabel, p.ReviewersTurnLabel = onAuthor, onReviewers })
	act := func(w lifecycle.Whose) *lifecycle.Activity { return turnAct(w, daysAgo(5)) }
	for _, c := range []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		pol    lifecycle.Policy
		labels lifecycle.TurnLabels
	}{
		{"off", pr(now), act(lifecycle.TurnAuthor), policy(), lifecycle.TurnLabels{}},
		{"the turn unread", pr(now), nil, pol, lifecycle.TurnLabels{Detail: true}},
		{"the author's turn: its label on", pr(now), act(lifecycle.TurnAuthor), pol, lifecycle.TurnLabels{Add: onAuthor}},
		{"passed to the reviewers: swapped", pr(now, onAuthor), act(lifecycle.TurnReviewers), pol, lifecycle.TurnLabels{Add: onReviewers, Remove: onAuthor}},
		{"already right: nothing", pr(now, "Waiting-On-Review"), act(lifecycle.TurnReviewers), pol, lifecycle.TurnLabels{}},
		{"the maintainers' turn: neither", pr(now, onReviewers), act(lifecycle.TurnMaintainers), pol, lifecycle.TurnLabels{Remove: onReviewers}},
		{"exempt: left alone", with(pr(now, onAuthor), func(p *lifecycle.PR) { p.Locked = true }), act(lifecycle.TurnReviewers), pol, lifecycle.TurnLabels{}},
	} {
		if got := lifecycle.DecideTurnLabels(c.pr, c.act, c.pol); got != c.labels {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.labels)
		}
	}
}

// TestTurnLabelHandOver: a person adding a turn label by hand hands the
// turn to that party, taking one off hands it to the other; stalepr's own
// label and another bot's pass nothing. Labelling needs the triage role,
// so a triager's word counts as a maintainer's.
func TestTurnLabelHandOver(t *testing.T) {
	opts := lifecycle.Options{AuthorTurnLabel: "waiting-on-author", ReviewersTurnLabel: "waiting-on-review",
		Access: map[string]lifecycle.Access{maintainer: lifecycle.AccessWrite, "carol": lifecycle.AccessNone}}
	conflict := lifecycle.PR{Mergeable: "CONFLICTING", UpdatedAt: daysAgo(1)}
	runTurnCases(t, []turnCase{
		{name: "a maintainer's waiting-on-author: the author's turn", opts: opts,
			events: []lifecycle.Event{labeled(daysAgo(20), maintainer, "waiting-on-author")}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "a maintainer's waiting-on-review: the reviewers'", opts: opts,
			events: []lifecycle.Event{said(daysAgo(30), maintainer, "MEMBER"), labeled(daysAgo(20), maintainer, "waiting-on-review")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "stalepr's own label passes nothing", opts: opts,
			events: []lifecycle.Event{asBot(labeled(daysAgo(20), selfLogin, "waiting-on-author"))}, whose: lifecycle.TurnReviewers},
		{name: "another bot's label passes nothing", opts: opts,
			events: []lifecycle.Event{asBot(labeled(daysAgo(20), "triagebot[bot]", "waiting-on-author"))}, whose: lifecycle.TurnReviewers},
		{name: "a triager's label (no write access) hands it over", opts: opts,
			events: []lifecycle.Event{labeled(daysAgo(20), "carol", "waiting-on-author")}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "the author taking waiting-on-author off: the reviewers'", opts: opts,
			events: []lifecycle.Event{said(daysAgo(30), maintainer, "MEMBER"), labeled(daysAgo(29), selfLogin, "waiting-on-author"),
				unlabeled(daysAgo(20), author, "waiting-on-author")},
			whose: lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a maintainer taking waiting-on-review off: the author's", opts: opts,
			events: []lifecycle.Event{labeled(daysAgo(29), selfLogin, "waiting-on-review"), unlabeled(daysAgo(20), maintainer, "waiting-on-review")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "stalepr taking its label off passes nothing", opts: opts,
			events: []lifecycle.Event{said(daysAgo(30), maintainer, "MEMBER"), asBot(unlabeled(daysAgo(20), selfLogin, "waiting-on-author"))},
			whose:  lifecycle.TurnAuthor, since: daysAgo(30)},
		{name: "a conflict does not overrule a person's later word", opts: opts, pr: conflict,
			events: []lifecycle.Event{said(daysAgo(30), maintainer, "MEMBER"), unlabeled(daysAgo(20), maintainer, "waiting-on-author")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "a conflict overrules a word an action has since passed by", opts: opts, pr: conflict,
			events: []lifecycle.Event{unlabeled(daysAgo(25), maintainer, "waiting-on-author"), said(daysAgo(20), maintainer, "MEMBER"),
				said(daysAgo(10), author, "CONTRIBUTOR")},
			whose: lifecycle.TurnAuthor, since: daysAgo(1)},
		{name: "an author-turn-when-labeled label added after the word overrules it",
			opts: withTurnLabels(opts, "needs-rebase"), pr: lifecycle.PR{Labels: []string{"needs-rebase"}},
			events: []lifecycle.Event{unlabeled(daysAgo(20), maintainer, "waiting-on-author"), labeled(daysAgo(10), maintainer, "needs-rebase")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(10)},
		{name: "one added before the word does not", opts: withTurnLabels(opts, "needs-rebase"), pr: lifecycle.PR{Labels: []string{"needs-rebase"}},
			events: []lifecycle.Event{labeled(daysAgo(25), maintainer, "needs-rebase"), unlabeled(daysAgo(20), maintainer, "waiting-on-author")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "the author's push hands it back after the hand-over", opts: opts,
			events: []lifecycle.Event{labeled(daysAgo(20), maintainer, "waiting-on-author"), pushed(daysAgo(10), false)},
			whose:  lifecycle.TurnReviewers, since: daysAgo(10)},
	})
}
