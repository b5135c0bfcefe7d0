package api

import (
	"context"
	"errors"
)

// Stop is why a run stopped making requests: a limit, the run's deadline.
// The rest is left for the next run. An adapter (ghapi, a test's fake) returns an
// error that errors.Is finds a Stop in (the value itself, wrapped, or a
// *StopError); a run cancelled (a cancelled workflow, SIGTERM) ends with
// the context's own context.Canceled.
type Stop int

// The stops. Their texts are what the report says a run stopped on.
const (
	Budget      Stop = iota + 1 // operations-per-run reached
	RateReserve                 // rate-limit-reserve reached
	RateLimit                   // GitHub's primary rate limit used up
	Secondary                   // GitHub's secondary rate limit
	Deadline                    // run-timeout reached
)

var stopText = map[Stop]string{
	Budget:      "operations-per-run reached",
	RateReserve: "rate-limit reserve reached",
	RateLimit:   "rate limit exceeded",
	Secondary:   "secondary rate limit",
	Deadline:    "run-timeout reached",
}

func (s Stop) Error() string { return stopText[s] }

// StopError is an adapter's own error that means a stop: errors.Is finds
// its Reason, errors.As and the text still see the error it carries.
type StopError struct {
	Reason Stop
	Err    error
}

func (e *StopError) Error() string        { return e.Err.Error() }
func (e *StopError) Unwrap() error        { return e.Err }
func (e *StopError) Is(target error) bool { return target == e.Reason }

// IsStop reports whether err means the run must stop making requests: a
// Stop, or the run being cancelled. A slow attempt's own timeout
// (context.DeadlineExceeded) is a transient failure of that request, not
// this.
func IsStop(err error) bool {
	for s := range stopText {
		if errors.Is(err, s) {
			return true
		}
	}
	return errors.Is(err, context.Canceled)
}

// Refusals GitHub answers that a sweep acts on: the adapter wraps them,
// the sweep and the report find them with errors.Is.
var (
	// ErrBranchKept: GitHub refused to delete a branch it protects.
	ErrBranchKept = errors.New("GitHub keeps the branch")
	// ErrNotCollaborator: GitHub refused a review request (422) because
	// an account or a team it named is not a collaborator of the
	// repository. It refuses the request whole: nobody it named was asked.
	ErrNotCollaborator = errors.New("GitHub requests the review of the repository's collaborators only")
	// ErrOutcomeUnknown: a comment was sent and nothing told whether
	// GitHub made it; it is not sent again (ghapi.Client.PostComment).
	ErrOutcomeUnknown = errors.New("outcome unknown")
	// ErrWriteRefused: GitHub refused a write to this token for want of
	// permission (a 403 "Resource not accessible by integration"). Every
	// later write would be refused too, so the run stops at the first.
	ErrWriteRefused = errors.New("GitHub refuses this token's writes")
	// ErrPermissionRefused: GitHub refused to tell an account's repository
	// permission to this token (403: it needs push access to ask). The
	// account's author_association is all there is to go on then; any
	// other failure of that read is a failed read like any other.
	ErrPermissionRefused = errors.New("GitHub refuses to tell this token the accounts' repository permissions")
	// ErrDraftForbidden: GitHub refused convertPullRequestToDraft to this token.
	// It does so for a workflow's GITHUB_TOKEN whatever its permissions say
	// (HTTP 200 with a FORBIDDEN error), so its text says which token works.
	ErrDraftForbidden = errors.New("GitHub refuses to convert pull requests to drafts with this token " +
		"(FORBIDDEN: Resource not accessible by integration), whatever the workflow's permissions say. " +
		"close-action: draft needs a personal access token (classic with the repo scope, or fine-grained with " +
		"Pull requests: read and write) or a GitHub App token in repo-token; or use close-action: close")
)
