// Package report turns a sweep.Result into text for people and for later
// workflow steps: the job summary (markdown), the step outputs (JSON) and the
// lines of the action's log.
//
// Everything here is pure string building: the caller (internal/runner) appends
// the summary to GITHUB_STEP_SUMMARY and the outputs to GITHUB_OUTPUT itself,
// not through go-githubactions' AddStepSummary and SetOutput, which panic on a
// file error, and writes the log lines to stdout. PR
// titles, error texts and any other text that came from GitHub are untrusted:
// every function escapes them for the place they end up in.
package report
