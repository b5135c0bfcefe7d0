package lifecycle

import (
	"strings"
	"time"
)

// RuleReopen is the reopen command (README "Reopen on command", rules.md):
// a comment whose line starts with the command word (reopen-command,
// /reopen by default) asks stalepr to undo its own stale close. GitHub lets
// a fork's contributor reopen only a PR they closed themselves, so without
// it the closing comment's "reopen it" was a promise the author could not
// keep. It keys its answers' words; no marker records it (Command.Name).
const RuleReopen RuleName = "reopen"

// reopenWindow is how far back the scheduled run looks for a reopen
// command the event path missed: a command moves its PR's updated_at, so
// the closed PRs updated since are where it is. A run at least weekly
// finds every one; the closure audit's longer window, when on, serves.
const reopenWindow = 7 * Day

// reopenCommand is the reopen command: its word, the closed PRs it looks
// among, its decision and its answers. Its Needs is on when there are
// closes of ours to undo (stalepr closes, or the closure audit lists closed
// PRs anyway); close-action draft closes nothing: its PRs stay open.
var reopenCommand = Command{Name: RuleReopen,
	Word: func(p Policy) string { return p.ReopenCommand },
	Needs: func(p Policy, now time.Time, n *Needs) {
		if p.ReopenCommand != "" && p.CloseAction != CloseToDraft && (p.Closes() || p.AuditClosedDays > 0) {
			n.closedSince(now.Add(-reopenWindow))
		}
	},
	Decide: decideReopen,
	Words: []Word{
		{TextAnswer, ReasonCommandReopen, false, DefaultCommandReopened},
		{TextAnswer, ReasonCommandGone, false, DefaultCommandGone},
	},
}

// The answers to a reopen command: a reopening by the workflow's token
// leaves the PR's workflow runs waiting for a maintainer's approval
// (GitHub, since 2026-06), so the answer says so; a PR whose branch is gone
// cannot be reopened, and the answer says how to continue from its
// commits, which GitHub keeps under pull/N/head.
const (
	DefaultCommandReopened = "Reopened as asked: the stale clock starts afresh. GitHub holds the workflow runs of a pull request " +
		"a bot reopens until a maintainer approves them (from the Checks tab); a new push starts them too."
	DefaultCommandGone = "This pull request cannot be reopened: its branch is gone (deleted, alone or with its fork), " +
		"and GitHub reopens a pull request only with its branch. To continue, fetch its commits " +
		"(`git fetch {{repository}} pull/{{number}}/head:pr-{{number}}`), push them to a branch and open a new pull request " +
		"that links to this one."
)

// Reasons of the reopen command.
const (
	ReasonCommandReopen     Reason = "reopen command after stalepr's stale close"
	ReasonCommandGone       Reason = "reopen command, but its head branch is gone: GitHub cannot reopen it"
	ReasonCommandMerged     Reason = "reopen command on a merged pull request: nothing to reopen"
	ReasonCommandNotOurs    Reason = "reopen command, but stalepr did not make its last close: a person's close is a decision, another bot's is the closure audit's"
	ReasonCommandStranger   Reason = "reopen command by someone who is neither its author nor a maintainer: ignored"
	ReasonCommandAnswered   Reason = "reopen command answered already"
	ReasonCommandKeptClosed Reason = "reopen command after a close the command does not undo (the intake clock's: an accepted issue or a maintainer reopens it)"
)

// keepsClosed reports whether the rule named keeps its closes from the
// reopen command (Rule.KeepsClosed); a name this version does not know,
// or an earlier version's close that names none, is the stale clock's.
func keepsClosed(name RuleName) bool {
	r, _ := RuleNamed(name)
	return r.KeepsClosed
}

// decideReopen decides a closed PR's reopen command from its history
// (any order; markers trusted only from o.Self, as everywhere) and what
// its listing says of it. Only stalepr's own stale close is undone (our
// closing comment since the last reopening, then the close by our own
// login), once per close: our answer after the close ends it. Only its
// author, its human of record (an agent's PR) or someone with write access
// (o.Access, o.Assume; the repository's owner always) may ask; anyone
// else's command is ignored, unanswered. A merged or locked PR is never
// touched. The command is found in comments the sweep flagged
// (Event.Command): bots' and our own never count.
func decideReopen(pr PR, events []Event, c ClosedFacts, o Options) CommandDecision {
	w := newWho(o, pr, events)
	sorted := w.trustedHistory(events)
	ci := lastClose(sorted)
	if ci < 0 {
		return CommandDecision{}
	}
	d := CommandDecision{ClosedAt: sorted[ci].At, HumanOfRecord: w.human}
	var asks []Event
	for _, e := range sorted[ci+1:] {
		switch {
		case e.Kind == Commented && e.Notice == CommandNotice:
			return CommandDecision{Verdict: NoCommand, Reason: ReasonCommandAnswered, ClosedAt: d.ClosedAt}
		case e.Kind == Reopened:
			return CommandDecision{} // open again: nothing to undo (the caller reads closed PRs)
		case e.Kind == Commented && e.Command && w.isPerson(e):
			asks = append(asks, e)
		}
	}
	if len(asks) == 0 {
		return CommandDecision{}
	}
	d.Verdict = CommandIgnored
	switch {
	case c.Merged:
		d.Reason = ReasonCommandMerged
		return d
	case pr.Locked:
		d.Reason = ReasonLocked
		return d
	}
	switch rule, ours := ourClose(sorted, ci, w); {
	case !ours:
		d.Reason = ReasonCommandNotOurs
		return d
	case keepsClosed(rule):
		d.Reason = ReasonCommandKeptClosed
		return d
	}
	for _, e := range asks {
		may, unsure := w.mayReopen(e)
		if unsure && d.Unsure == "" {
			d.Unsure = e.Actor
		}
		if may {
			d.By, d.At = e.Actor, e.At
			break
		}
	}
	switch {
	case d.By == "":
		d.Reason = ReasonCommandStranger
	case c.BranchGone:
		d.Verdict, d.Reason = CommandAnswer, ReasonCommandGone
	default:
		d.Verdict, d.Reason = CommandReopen, ReasonCommandReopen
	}
	return d
}

// ourClose reports whether the close at sorted[ci] was stalepr's: our
// closing comment since the reopening before it, and the close by our own
// login; and the rule its marker names ("" for an earlier version's). A
// person who closed after our comment (a run stopped between the two) made
// a close of their own.
func ourClose(sorted []Event, ci int, w who) (RuleName, bool) {
	if !w.isSelf(sorted[ci].Actor) {
		return "", false
	}
	for _, e := range sorted[lastReopenBefore(sorted, ci):ci] {
		if e.Kind == Commented && e.Notice == CloseNotice {
			return e.Rule, true
		}
	}
	return "", false
}

// mayReopen reports whether e's actor may reopen the PR with the command:
// its author, its human of record, or a maintainer (write access, as
// who.maintainer tells it); unsure when only the account's access, not
// known yet, decides.
func (w who) mayReopen(e Event) (may, unsure bool) {
	if w.isAuthor(e.Actor) || w.isHuman(e.Actor) {
		return true, false
	}
	may = w.maintainer(e)
	key := strings.ToLower(e.Actor)
	_, asked := w.unsure[key]
	a, _ := w.access(key)
	return may, asked && a == AccessUnknown
}
