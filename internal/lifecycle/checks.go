package lifecycle

import (
	"strings"
	"time"
)

// Checks is what GitHub's status check rollup says of a PR's head commit:
// its check runs and commit statuses. It is read only when
// author-turn-when-checks-fail is on; the zero value (not Complete) when
// not read.
type Checks struct {
	// Commit is the commit the rollup is of: it counts only while it is
	// the PR's head (PR.HeadSHA), so a failure on an older commit never does.
	Commit string
	// Complete: every context of the rollup was read (no null node, no
	// further page). A context not read might be the failure's re-run that
	// passed, so an incomplete rollup tells nothing.
	Complete bool
	Contexts []Check
}

// Required says whether GitHub requires a check to pass before the PR
// may merge (GraphQL isRequired, which knows branch protection and
// rulesets alike).
type Required int

const (
	RequiredUnknown Required = iota // not read, or GitHub did not say
	RequiredYes
	RequiredNo
)

// Check is one context of the rollup: a check run or a commit status.
type Check struct {
	Name string // the check run's name, or the commit status's context
	// Status is the check run's status (COMPLETED, IN_PROGRESS, QUEUED...);
	// "" for a commit status, which has none.
	Status string
	// Conclusion is the check run's conclusion (SUCCESS, FAILURE...), or
	// the commit status's state (SUCCESS, FAILURE, ERROR, PENDING, EXPECTED).
	Conclusion string
	// At is when it completed: the check run's completedAt, the commit
	// status's createdAt; zero when not completed.
	At       time.Time
	Required Required
}

// completed reports whether the check has its final word: a check run
// completed with a conclusion, a commit status no longer pending.
func (c Check) completed() bool {
	if c.At.IsZero() {
		return false
	}
	if c.Status != "" {
		return strings.EqualFold(c.Status, "COMPLETED") && c.Conclusion != ""
	}
	switch strings.ToUpper(c.Conclusion) {
	case "SUCCESS", "FAILURE", "ERROR":
		return true
	}
	return false
}

// failed reports whether the check's conclusion is a failure the author
// has to answer. A cancelled run (usually superseded by a newer one), one
// awaiting an action (a maintainer's approval of a first-time
// contributor's workflows), a neutral, skipped or stale one is not.
func (c Check) failed() bool {
	switch strings.ToUpper(c.Conclusion) {
	case "FAILURE", "TIMED_OUT", "STARTUP_FAILURE", "ERROR":
		return true
	}
	return false
}

// latestChecks keeps the latest context of each name: a re-run replaces
// the run it repeats. A run not completed yet is the latest of its name
// (it started after every completed one GitHub still lists); of completed
// ones the latest completion wins, and on a tie a pass does.
func latestChecks(contexts []Check) map[string]Check {
	latest := map[string]Check{}
	for _, c := range contexts {
		prev, seen := latest[c.Name]
		switch {
		case !seen, !c.completed() && prev.completed():
			latest[c.Name] = c
		case !c.completed() || !prev.completed():
			// Both under way, or only the one kept is: keep it.
		case c.At.After(prev.At), c.At.Equal(prev.At) && !c.failed():
			latest[c.Name] = c
		}
	}
	return latest
}

// failingCheck is the required check whose failure puts the PR on its
// author's turn, and when it completed: the earliest of the latest
// contexts (one per name) on the PR's head commit that completed failing
// after the author's last action (after: a push, or an answer such as "a
// flaky test, please re-run", which hands the turn back as any answer
// does) and that GitHub requires. Anything
// unknown (the rollup not read or not complete, of another commit, a
// requirement GitHub did not state) puts nobody on a turn: a failure may be
// spurious (a flaky test, a runner's outage), so only a failure that
// certainly blocks the merge of the current head counts.
func failingCheck(pr PR, after time.Time) (name string, at time.Time, ok bool) {
	c := pr.Checks
	if !c.Complete || c.Commit == "" || !strings.EqualFold(c.Commit, pr.HeadSHA) {
		return "", time.Time{}, false
	}
	for _, l := range latestChecks(c.Contexts) {
		if !l.completed() || !l.failed() || l.Required != RequiredYes || !l.At.After(after) {
			continue
		}
		if !ok || l.At.Before(at) || l.At.Equal(at) && l.Name < name {
			name, at, ok = l.Name, l.At, true
		}
	}
	return name, at, ok
}

// greenAgain is when the PR's required checks stopped failing: a required
// check on the head commit that failed after the author's last action (or
// a person's word since, after) would have put the PR on its author's turn
// (failingCheck), and the latest run of its name no longer fails. The
// turn came back from the author at that run's completion (a pass, or a
// cancelled or neutral run), or, while the re-run is under way, at least
// at the failure; of several such checks, the latest. ok is false when no
// failure was replaced, or the rollup tells nothing (failingCheck's
// unknowns).
func greenAgain(pr PR, after time.Time) (at time.Time, ok bool) {
	c := pr.Checks
	if !c.Complete || c.Commit == "" || !strings.EqualFold(c.Commit, pr.HeadSHA) {
		return time.Time{}, false
	}
	latest := latestChecks(c.Contexts)
	for _, x := range c.Contexts {
		l := latest[x.Name]
		if !x.completed() || !x.failed() || x.Required != RequiredYes || !x.At.After(after) || l.completed() && l.failed() {
			continue
		}
		end := l.At
		if !l.completed() {
			// GitHub dates a run under way by nothing (a status by its
			// creation): it started after the failure, at least.
			end = Later(x.At, l.At)
		}
		at, ok = Later(at, end), true
	}
	return at, ok
}
