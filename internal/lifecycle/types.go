package lifecycle

import (
	"strings"
	"time"
)

// PR is what the repository listing tells about an open pull request.
type PR struct {
	Number    int
	Title     string
	URL       string
	Author    string
	CreatedAt time.Time
	UpdatedAt time.Time
	Draft     bool
	Labels    []string
	Milestone string // title; empty when none
	Assignees []string
	// NodeID is the pull request's GraphQL node ID. The issue listing gives
	// a pull request the PullRequest's node ID (not an Issue's), which is
	// what convertPullRequestToDraft takes, so no extra read is needed.
	NodeID  string
	HeadSHA string // the head commit, when the listing tells (the pulls listing does)
	// Locked: the conversation is locked, so only collaborators can comment.
	// actions/stale leaves such a PR alone; so does stalepr.
	Locked bool
	// Merged: a closed PR was merged (the issue listing's merged_at).
	Merged bool

	// Mergeable is GitHub's GraphQL mergeable state: "MERGEABLE",
	// "CONFLICTING" or "UNKNOWN" (GitHub has not computed it yet); "" when
	// the source does not tell. A conflict is the author's to resolve.
	Mergeable string
	// BaseHeadAt is the committer date of the base branch's head commit;
	// zero when the source does not tell. A conflict arose by the push of
	// that commit at the latest, so it dates the conflict without
	// charging the author for the time before (GitHub records no push
	// time; the committer date of a commit merged on GitHub is the merge).
	BaseHeadAt time.Time
	// ReviewDecision is GitHub's GraphQL reviewDecision: "APPROVED",
	// "CHANGES_REQUESTED" or "REVIEW_REQUIRED"; "" when there is none (no
	// review is required and none decided) or the source does not tell.
	// It counts only reviews by accounts with write access, as branch
	// protection does.
	ReviewDecision string
	// AuthorBot: the PR's author is a Bot account (Dependabot, Renovate,
	// the Copilot coding agent, which authors as "Copilot"). Its own
	// actions still count as the author's.
	AuthorBot bool
	// AuthorAssociation is GitHub's author_association of the PR's author
	// (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE...); "" when unknown.
	AuthorAssociation string
	// Checks is the head commit's status check rollup, when the listing
	// read it (author-turn-when-checks-fail).
	Checks Checks
	// Links are the issues it closes when merged, when the listing read
	// them (the intake clock on).
	Links Links
}

// HasLabel reports whether the PR carries label, compared case-insensitively
// as GitHub does.
func (p PR) HasLabel(label string) bool {
	return ContainsFold(p.Labels, label)
}

// ActivityFrom says whose actions count when inactivity is measured.
type ActivityFrom string

const (
	// Anyone: updated_at decides, as in actions/stale.
	Anyone ActivityFrom = "anyone"
	// People: only timeline events by people (not bots, not stalepr) count.
	People ActivityFrom = "people"
)

// Policy is the part of the configuration that the rules read.
type Policy struct {
	DaysBeforeStale int // -1: never mark
	DaysBeforeClose int // -1: never close
	StaleLabel      string

	ExemptLabels        []string
	OnlyLabels          []string // all required
	AnyOfLabels         []string // at least one required
	ExemptMilestones    []string
	ExemptAllMilestones bool
	ExemptAssignees     []string
	ExemptAllAssignees  bool
	ExemptDraft         bool
	IncludeOnlyAssigned bool
	StartDate           time.Time // zero: no limit; PRs created before it are left alone

	IgnoreUpdates          bool // measure inactivity from created_at
	RemoveStaleWhenUpdated bool
	ActivityFrom           ActivityFrom
	ExemptAwaitingReview   bool
	// NoStaleNotice: stale-pr-message is empty, so our marks carry no
	// notice and a missing one is nothing to complete.
	NoStaleNotice bool

	ExemptAuthors  []string // login patterns (MatchLogin): PRs by these authors are left alone
	ExemptApproved bool     // a PR with a valid approval (Approved) is not marked
	OnlyDraft      bool     // only draft PRs are considered
	CloseAction    CloseAction

	StaleClock            StaleClock // "" means ClockInactivity
	DaysBeforeReviewNudge int        // -1: never nudge
	NudgeLabel            string     // added with the nudge, removed when the turn passes; "" none
	// RerequestOnAnswer: request again the review of those whose change
	// request the author answered (rerequest-reviewers-on-answer; see
	// DecideRerequest).
	RerequestOnAnswer bool
	// DaysBeforeEscalation: days after an unanswered review nudge before
	// the escalation (-1: never); EscalationReviewers are whom it asks,
	// logins or org/team (see DecideEscalation).
	DaysBeforeEscalation int
	EscalationReviewers  []string
	// AwayReviewers are reviewers who are away (away-reviewers): never
	// nudged; a PR that waits on them alone is escalated at once.
	AwayReviewers []string

	BotAccounts []string // bot-accounts: bots whatever GitHub says (see Options.Bots)
	// AgentAccounts are coding agents' logins besides Agents
	// (agent-accounts): their PRs have a human of record (see
	// Activity.HumanOfRecord) and run on AgentClock.
	AgentAccounts []string
	// AgentClock is the clock of coding agents' PRs; off, they run on
	// everyone's (see For).
	AgentClock       AgentClock
	Reviewers        []string // reviewers: logins counted as maintainers (see Options.Reviewers)
	AuthorTurnLabels []string // author-turn-when-labeled: labels that put a PR on its author's turn
	// AuthorTurnWhenChecksFail: a completed, failing, required check on the
	// head commit puts a PR on its author's turn (author-turn-when-checks-fail).
	AuthorTurnWhenChecksFail bool

	AuthorTurnLabel    string // author-turn-label: on while it is the author's turn; "" off (see DecideTurnLabels)
	ReviewersTurnLabel string // reviewers-turn-label: on while it is the reviewers' turn; "" off
	// ConflictLabel (conflict-label): under the author-turn clock, added
	// when a merge conflict puts a PR on its author's turn, off once it
	// merges; our addition dates the conflict (turnFold.conflictSince).
	ConflictLabel string

	Quiet Quiet // quiet periods: days no clock counts, when nothing is marked, closed or nudged (quiet.go)

	Intake Intake // the intake clock (intake.go)

	// ReopenCommand is the reopen command's word ("" off; rule_reopen.go).
	ReopenCommand string
	// AuditClosedDays: the closure audit replays the closes of the last
	// this many days (0: off), listing the closed PRs of that window.
	AuditClosedDays int
}

// CloseAction is what closing a stale PR does.
type CloseAction string

const (
	// CloseClosed closes the PR (the default; the zero value means it too).
	CloseClosed CloseAction = "close"
	// CloseToDraft converts the PR to a draft, posts the closing comment and
	// takes the stale label off; the PR stays open.
	CloseToDraft CloseAction = "draft"
)

// Day is the unit of every threshold.
const Day = 24 * time.Hour

// ContainsFold reports whether list holds s, ignoring case and surrounding
// space, as GitHub compares label names and logins.
func ContainsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

func intersectsFold(a, b []string) bool {
	for _, v := range a {
		if ContainsFold(b, v) {
			return true
		}
	}
	return false
}
