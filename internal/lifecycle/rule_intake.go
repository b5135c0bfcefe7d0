package lifecycle

import (
	"strings"
	"time"
)

// RuleIntake is the intake clock: an unsolicited PR that links no
// issue a maintainer accepted (days-before-intake-close).
const RuleIntake RuleName = "intake"

// The intake clock (days-before-intake-close; docs/rules.md "The intake
// clock"): a pull request nobody asked for, from an author who may not
// push, that links no issue a maintainer accepted, is told once how to get
// one accepted and closed after the days, unless a maintainer engages
// first; then the other clocks apply to it for good. Off by default.
//
// Every unknown keeps a PR out of the class: an author whose push access
// the run could not learn, links GitHub did not list whole, an issue whose
// labels or assignees were cut short. Closing what was wanted is the harm;
// a notice not posted is not.

// IntakeNotice is our intake notice: a value apart from the others, as
// ReopenNotice, far enough to leave room for the rules beside it. Its
// closing comment is every close's (CloseNotice), whose marker names the
// rule that closed.
const IntakeNotice Notice = 80

// Intake is the intake clock's part of the policy.
// The zero value is off, as AgentClock's.
type Intake struct {
	On              bool     // days-before-intake-close is not -1
	DaysBeforeClose int      // days-before-intake-close
	AcceptedLabels  []string // intake-accepted-labels: an issue carrying one is accepted
}

// LinkedIssue is an issue a pull request closes when merged (GitHub's
// closingIssuesReferences), with what says whether a maintainer accepted it.
type LinkedIssue struct {
	Number            int
	Labels            []string
	Assignees         []string
	Author            string // login; "" for a deleted account
	AuthorAssociation string // of the issue's author
	// Partial: GitHub listed more labels or assignees than were read, so
	// the issue's acceptance is not known from what was.
	Partial bool
}

// Links is what the listing read of a pull request's closing references.
type Links struct {
	Read   bool // the listing read them (the intake clock on); false: unknown
	More   bool // GitHub has more than were read: unknown beyond Issues
	Issues []LinkedIssue
}

// Accepted reports whether a maintainer accepted issue for pr's author:
// it carries one of the accepted labels, is assigned to the author, or a
// maintainer opened it (author_association OWNER, MEMBER or COLLABORATOR:
// GitHub's own word on the issue's author, as the projects that gate on
// it read it).
func (i Intake) Accepted(issue LinkedIssue, author string) bool {
	return intersectsFold(issue.Labels, i.AcceptedLabels) ||
		author != "" && ContainsFold(issue.Assignees, author) ||
		IsMaintainer(issue.AuthorAssociation)
}

// linksAccepted reports whether pr links an accepted issue (yes) and
// whether that is known: no accepted issue among partly read links is
// not known.
func (i Intake) linksAccepted(pr PR) (yes, known bool) {
	if !pr.Links.Read {
		return false, false
	}
	known = !pr.Links.More
	for _, issue := range pr.Links.Issues {
		if i.Accepted(issue, pr.Author) {
			return true, true
		}
		known = known && !issue.Partial
	}
	return false, known
}

// IntakeActivity is what a pull request's history tells the intake clock.
type IntakeActivity struct {
	// Accountable is who answers for the PR: its author, or on a coding
	// agent's PR its human of record ("" when the history names nobody).
	Accountable string
	// Access is Accountable's push access as the run or a review told it
	// (authorCanPushToRepository); AccessUnknown when neither did.
	Access Access
	// EngagedAt is the first time a maintainer engaged (a comment, a
	// review, a review comment, a label added or taken off, a review
	// requested, a reopening), by anyone but the author, a bot or us; an
	// account whose access is not known counts, so the doubt keeps the PR
	// open. Zero when none did.
	EngagedAt time.Time
	// NoticeAt is our intake notice; CloseNoticeAt our closing comment
	// since it (a run that stopped before the close); zero when none.
	NoticeAt, CloseNoticeAt time.Time
	// ReopenedAt is the author's last reopening (ours on the author's
	// command too; or readying the draft our close converted): the close
	// counts again from it.
	ReopenedAt time.Time
}

// SummarizeIntake reads what the intake clock needs from pr's history,
// with what the run knows of the accounts (o.Access).
func SummarizeIntake(pr PR, events []Event, o Options) IntakeActivity {
	sorted := chronological(events)
	o.Assume = AccessWrite // an engagement in doubt lifts the clock
	w := newWho(o, pr, sorted)
	a := IntakeActivity{Accountable: pr.Author}
	if w.isAgent(pr.Author) {
		a.Accountable = w.human
	}
	if a.Accountable != "" {
		a.Access, _ = w.access(strings.ToLower(a.Accountable))
	}
	for _, e := range sorted {
		switch {
		case w.isSelf(e.Actor) && e.Kind == Commented:
			switch e.Notice {
			case IntakeNotice:
				a.NoticeAt = e.At
			case CloseNotice:
				a.CloseNoticeAt = e.At
			}
		case w.isAuthor(e.Actor) && a.reopens(e), e.Kind == Reopened && w.isSelf(e.Actor):
			// Ours is the author's /reopen (reopen-command), or the audit's.
			a.ReopenedAt, a.CloseNoticeAt = e.At, time.Time{}
		case a.EngagedAt.IsZero() && engages(e) && !w.isAuthor(e.Actor) && w.maintainer(e):
			a.EngagedAt = e.At
		}
	}
	return a
}

// reopens reports whether the author's e undoes our close: a reopening,
// or under close-action draft marking the converted draft ready after our
// closing comment. Either way the close counts a full window from it.
func (a IntakeActivity) reopens(e Event) bool {
	return e.Kind == Reopened || e.Kind == ReadyForReview && !a.CloseNoticeAt.IsZero()
}

// engages reports whether e is a kind of event by which a maintainer
// takes up a pull request.
func engages(e Event) bool {
	switch e.Kind {
	case Commented, Reviewed, ReviewCommented, Labeled, Unlabeled, ReviewRequested, Reopened:
		return true
	}
	return false
}

// Reasons of the intake clock.
const (
	ReasonIntakeOff      Reason = "intake clock off"
	ReasonIntakeBot      Reason = "a bot's pull request"
	ReasonIntakeStale    Reason = "on the stale clock"
	ReasonIntakeOld      Reason = "opened before the intake clock could tell it"
	ReasonIntakeMayPush  Reason = "author may push"
	ReasonIntakeAccess   Reason = "cannot tell whether the author may push"
	ReasonIntakeAccepted Reason = "links an accepted issue"
	ReasonIntakeLinks    Reason = "cannot tell whether it links an accepted issue"
	ReasonIntakeEngaged  Reason = "a maintainer engaged"
	ReasonIntakeUnasked  Reason = "links no accepted issue"
	ReasonIntakeDue      Reason = "no accepted issue and no maintainer since the intake notice"
)

// DecideIntake applies the intake clock to pr. act is nil when only the
// listing is known. false (with the reason why) leaves the PR to the other
// rules, the clock off for it or lifted; a decision is the intake clock's
// alone: its notice (NotifyIntake), its wait (Keep, dated by its close),
// its close, or the history to read first (NeedDetail).
func DecideIntake(pr PR, act *IntakeActivity, now time.Time, p Policy) (Decision, bool) {
	if r, off := intakeExempt(pr, now, p); off {
		return Decision{Reason: r}, false
	}
	if accepted, known := p.Intake.linksAccepted(pr); accepted || !known {
		r := ReasonIntakeAccepted
		if !accepted {
			r = ReasonIntakeLinks
		}
		return Decision{Reason: r}, false
	}
	if act == nil {
		return Decision{Action: NeedDetail, Reason: ReasonIntakeUnasked, Rule: RuleIntake}, true
	}
	switch {
	case act.Access == AccessWrite:
		return Decision{Reason: ReasonIntakeMayPush}, false
	case act.Access != AccessNone:
		return Decision{Reason: ReasonIntakeAccess}, false
	case !act.EngagedAt.IsZero():
		return Decision{Reason: ReasonIntakeEngaged}, false
	}
	if act.NoticeAt.IsZero() && !now.Before(p.intakeCloseDate(pr.CreatedAt)) {
		// Told soon after opening or never: a PR open before the clock
		// was turned on (or that no run reached in time) is the other
		// clocks'.
		return Decision{Reason: ReasonIntakeOld}, false
	}
	since := Later(act.NoticeAt, act.ReopenedAt)
	if act.NoticeAt.IsZero() {
		// Told first, whatever a crash or a deleted notice left: the close
		// counts a full window from the notice.
		closeAt := p.intakeCloseDate(now)
		d := Decision{Action: NotifyIntake, Reason: ReasonIntakeUnasked, Rule: RuleIntake, CloseAt: closeAt, DueAt: closeAt, InactiveSince: since}
		return p.holdIntake(d, now), true
	}
	closeAt := p.intakeCloseDate(since)
	d := Decision{Action: Keep, Reason: ReasonIntakeUnasked, Rule: RuleIntake, CloseAt: closeAt, DueAt: closeAt, InactiveSince: since}
	if !now.Before(d.CloseAt) {
		d.Action, d.Reason, d.CloseNoticePosted = Close, ReasonIntakeDue, !act.CloseNoticeAt.IsZero()
	}
	return p.holdIntake(d, now), true
}

// intakeExempt reports why pr is not the intake clock's whatever its
// links: the clock off, a draft (not yet asking anyone), a bot's, an
// author who may push by author_association (OWNER, MEMBER, COLLABORATOR:
// never a question), the other clocks' exemptions.
func intakeExempt(pr PR, now time.Time, p Policy) (Reason, bool) {
	if !p.Intake.On {
		return ReasonIntakeOff, true
	}
	if !now.Before(pr.CreatedAt.Add(intakeSpan * time.Duration(p.Intake.DaysBeforeClose) * Day)) {
		return ReasonIntakeOld, true
	}
	if r, exempt := exemption(pr, p); exempt {
		return r, true
	}
	switch {
	case pr.Draft:
		return ReasonDraft, true
	case pr.HasLabel(p.StaleLabel):
		// On the stale clock already (marked before the intake clock was
		// on, or while it waited): one clock closes it, never two.
		return ReasonIntakeStale, true
	case p.ClassOf(pr) == AuthorBot:
		return ReasonIntakeBot, true
	case !p.IsAgent(pr.Author) && IsMaintainer(pr.AuthorAssociation):
		return ReasonIntakeMayPush, true
	}
	return "", false
}

// intakeSpan is how many days-before-intake-close after its opening a PR
// may be the intake clock's: told within the first, closed within the
// second, a third for runs that came late (a quiet period, a run that
// stopped). Older, its links are not read and the other clocks decide it.
const intakeSpan = 3

func (p Policy) intakeCloseDate(from time.Time) time.Time {
	return p.Quiet.after(from, time.Duration(p.Intake.DaysBeforeClose)*Day)
}

// holdIntake keeps the intake clock's writes off quiet days, as hold does
// the other clocks'.
func (p Policy) holdIntake(d Decision, now time.Time) Decision {
	if (d.Action == NotifyIntake || d.Action == Close) && p.Quiet.Paused(now) {
		d.Action, d.Reason, d.CloseNoticePosted = Keep, ReasonQuiet, false
	}
	return d
}

// intakeRule is the intake clock (DecideIntake) as a rule: it decides a PR in
// its class (an author who may not push, no accepted issue linked, no
// maintainer engaged) and leaves any other PR to the next rule, for good
// once a maintainer engaged.
var intakeRule = Rule{Name: RuleIntake, Needs: intakeNeeds, Decide: decideIntake,
	Words: []Word{
		{TextIntake, ReasonIntakeUnasked, false, DefaultIntake},
		{TextIntakeClose, ReasonIntakeDue, false, DefaultIntakeClose},
	},
	Closes:    func(p Policy) bool { return p.Intake.On },
	CloseKind: TextIntakeClose, // its own input, intake-close-message
	CloseDays: func(p Policy) int { return p.Intake.DaysBeforeClose },
	Next:      nextIntake,
	// Reopened on its author's word alone, a PR nobody asked for would be
	// closed again in its window: an accepted issue or a maintainer's
	// reopening is its way back.
	KeepsClosed: true}

// DefaultIntake is the intake notice (days-before-intake-close): posted
// once on a pull request whose author may not push and that links no issue
// a maintainer accepted. DefaultIntakeClose is its closing comment. Both
// say what keeps the pull request open; a project says how its issues are
// accepted in its own intake-message.
const (
	DefaultIntake = "Thanks, {{author}}. This project takes pull requests for issues a maintainer has accepted, " +
		"and this one links none (write \"Fixes #123\" in its description to link one). " +
		"Unless a maintainer takes it up or it links an accepted issue, it will be closed on {{close-date}}."
	DefaultIntakeClose = "Closing this pull request: it links no issue a maintainer accepted, and no maintainer took it up " +
		"in {{days-before-close}} days. Open an issue describing the change first; once it is accepted, this can be reopened."
)

// intakeNeeds: the class may hold any open PR, however young (the notice
// comes soon after opening), so the open listing is read to its end; the
// links are read for the PRs that may be in the class (IntakeCandidate).
func intakeNeeds(p Policy, _ time.Time, n *Needs) {
	if p.Intake.On {
		n.ListOpen, n.ReadAll, n.Links = true, true, true
	}
}

// decideIntake is DecideIntake as a rule decides, on the intake part of
// the PR's activity when read.
func decideIntake(f Facts) (Decision, bool) {
	var act *IntakeActivity
	if f.Act != nil {
		act = &f.Act.Intake
	}
	return DecideIntake(f.PR, act, f.Now, f.Policy)
}

// IntakeCandidate reports whether pr may be in the intake class at now on
// what the listing shows but its links (young enough, not exempt, its
// author not a maintainer by association): the sweep reads the links of these
// only (Reader.Links), and a PR whose links were not read stays out.
func IntakeCandidate(pr PR, now time.Time, p Policy) bool {
	_, out := intakeExempt(pr, now, p.For(pr))
	return !out
}

// nextIntake is the intake clock's next step after d: its close, on the
// date the notice announced (its DueAt), if nothing but time happens; the
// notice's own decision is not asked again, as a mark's is not.
func nextIntake(d Decision, now time.Time, p Policy) Step {
	if d.Action != NotifyIntake && d.Action != Keep || d.CloseAt.IsZero() {
		return Step{}
	}
	return Step{Action: Close, At: p.Due(d.CloseAt, now)}
}
