package report

import (
	"errors"
	"fmt"

	"github.com/stalepr/stalepr/internal/sweep"
)

// The sentences that end a run, read first in the log: how it stopped,
// what failed, and the words of main's own refusals.

// Cancelled says that a cancelled run left work for the next one.
func Cancelled(res sweep.Result) string {
	return "the run was cancelled before it finished: " + LeftForNextRun(res)
}

// WriteRefusedLine says that GitHub refused the run's first write, and why.
func WriteRefusedLine(res sweep.Result) string {
	return "GitHub refused the run's first write, so it stopped there: " + ErrorText(res.WriteRefused()) +
		" " + LeftForNextRun(res) + "."
}

// StoppedEarly says which limit stopped the run and what it left.
func StoppedEarly(res sweep.Result) string {
	return fmt.Sprintf("stopped early (%s): %s", StopReason(res.Stopped), LeftForNextRun(res))
}

// OutputsFailed words a step output or summary file that could not be
// written: the log has the run's work.
func OutputsFailed(err error) string {
	return err.Error() + ". The log above has what the run did; check that the runner's user can write the file"
}

// FailedLine says how many PRs failed and the first one's error, so the
// line read first names a cause; the log and the summary have the rest.
func FailedLine(failed []sweep.Item) string {
	n := "1 pull request could not be processed and was"
	if len(failed) != 1 {
		n = fmt.Sprintf("%d pull requests could not be processed and were", len(failed))
	}
	return fmt.Sprintf("%s %s (the log and the summary list them); the first, #%d: %s%s",
		n, untouched(failed), failed[0].Number, halfDone(failed[0]), ErrorText(errors.New(failed[0].Err)))
}

// ListingFailed words a failed listing with what was changed before it (the
// clean-up listing of closed PRs runs after the writes, so "nothing was
// changed" is not always true) and its cause: the error is a
// *ghapi.Problem when the failure has a class, which already says what to
// do (a fixed hint would be wrong for most failures).
func ListingFailed(res sweep.Result) string {
	done := len(res.Marked()) + len(res.Unstaled()) + len(res.Closed()) + len(res.Cleaned())
	var changed string
	switch {
	case res.DryRun:
		changed = "nothing was changed (dry run)"
	case done == 0:
		changed = "nothing was changed"
	default:
		changed = fmt.Sprintf("%d pull requests were changed before it, as the log shows", done)
	}
	var le *sweep.ListingError
	errors.As(res.Stopped, &le)
	return fmt.Sprintf("listing the pull requests failed, %s, and the next run lists them again: %s", changed, ErrorText(le.Err))
}

// OptedOut says that a fleet's repository opted out with its file at path.
func OptedOut(path string) string {
	return path + " has enabled: false: this repository opted out of the fleet's sweep"
}

// DashboardWarnings are the warnings a run's dashboard issue calls for: each
// failure of its update. The sweep's work stands, and the next run tries
// again.
func DashboardWarnings(res sweep.Result) []string {
	var out []string
	for _, it := range res.Dashboard {
		if it.Outcome != sweep.Failed {
			continue
		}
		out = append(out, "dashboard issue not updated (the next run tries again): "+oneLine(it.Err, maxErrRunes))
	}
	return out
}

// TokenFromShell names where a person at a terminal puts the token: the
// CLI has no repo-token flag, only the environment variable env.
func TokenFromShell(env string) string {
	return "the " + env + " environment variable, for example " + env + "=$(gh auth token) stalepr -repo owner/name"
}
