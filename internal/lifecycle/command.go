package lifecycle

import (
	"strings"
	"time"
)

// The reopen command (README "Reopen on command", rules.md): a comment
// whose line starts with the command word (reopen-command, /reopen by
// default) asks stalepr to undo its own stale close. GitHub lets a fork's
// contributor reopen only a PR they closed themselves, so without it the
// closing comment's "reopen it" was a promise the author could not keep.

// CommandNotice is our answer to a reopen command (notice.AnsweredMarker):
// one after a close answers every command after that close, so each close
// is answered at most once, whatever runs and events come.
const CommandNotice Notice = 66

// IsCommand reports whether a comment's text asks for word: one of its
// lines starts with it, alone or followed by a space ("/reopen", "/reopen
// please"), in any letter case. A quote ("> /reopen") or a word inside a
// sentence asks nothing; an empty word never matches (the command is off).
func IsCommand(body, word string) bool {
	word = strings.TrimSpace(word)
	if word == "" {
		return false
	}
	for _, line := range strings.Split(body, "\n") {
		first, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if strings.EqualFold(strings.TrimSpace(first), word) {
			return true
		}
	}
	return false
}

// CommandVerdict is what a reopen command calls for.
type CommandVerdict int

const (
	// NoCommand: nothing to do (no command since the last close, or
	// answered already).
	NoCommand CommandVerdict = iota
	// CommandReopen: reopen the PR, then answer.
	CommandReopen
	// CommandGone: answer that GitHub cannot reopen it (its head branch or
	// fork is gone), and how to continue.
	CommandGone
	// CommandIgnored: a command nobody answers (Reason says why): a third
	// person's, on a close that was not ours, on a merged or locked PR.
	CommandIgnored
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

// ClosedFacts are what a closed PR's listing says beyond PR.
type ClosedFacts struct {
	Merged     bool
	BranchGone bool // its head branch is gone, alone or with its fork: GitHub refuses to reopen it
}

// Command is a closed PR's reopen command, decided.
type Command struct {
	Verdict CommandVerdict
	Reason  Reason
	By      string    // who asked: the first command since the close by someone who may
	At      time.Time // when
	// ClosedAt is the close it undoes.
	ClosedAt time.Time
	// HumanOfRecord is, on a coding agent's PR, the person who answers
	// for it: they may reopen it as its author may.
	HumanOfRecord string
	// Unsure is a login whose write access would decide (a member or
	// collaborator who is not the author): learn it and decide again.
	// Until then it was decided as Options.Assume says.
	Unsure string
}

// DecideCommand decides a closed PR's reopen command from its history
// (any order; markers trusted only from o.Self, as everywhere) and what
// its listing says of it. Only stalepr's own stale close is undone (our
// closing comment since the last reopening, then the close by our own
// login), once per close: our answer after the close ends it. Only its
// author, its human of record (an agent's PR) or someone with write access
// (o.Access, o.Assume; the repository's owner always) may ask; anyone
// else's command is ignored, unanswered. A merged or locked PR is never
// touched. The command is found in comments the sweep flagged
// (Event.Command): bots' and our own never count.
func DecideCommand(pr PR, events []Event, c ClosedFacts, o Options) Command {
	w := newWho(o, pr, events)
	sorted := w.trustedHistory(events)
	ci := lastClose(sorted)
	if ci < 0 {
		return Command{}
	}
	d := Command{ClosedAt: sorted[ci].At, HumanOfRecord: w.human}
	var asks []Event
	for _, e := range sorted[ci+1:] {
		switch {
		case e.Kind == Commented && e.Notice == CommandNotice:
			return Command{Verdict: NoCommand, Reason: ReasonCommandAnswered, ClosedAt: d.ClosedAt}
		case e.Kind == Reopened:
			return Command{} // open again: nothing to undo (the caller reads closed PRs)
		case e.Kind == Commented && e.Command && w.isPerson(e):
			asks = append(asks, e)
		}
	}
	if len(asks) == 0 {
		return Command{}
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
		d.Verdict, d.Reason = CommandGone, ReasonCommandGone
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
