package runner

import (
	"fmt"
	"io"
	"os"

	"github.com/sethvargo/go-githubactions"

	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// IO is how a run talks to what runs it: the Actions runner, which reads
// workflow commands in the log and file commands, or a person at a
// terminal, who reads plain lines. Everything else in run is the same for
// both.
type IO interface {
	// Mask hides a secret in every later line of the log.
	Mask(secret string)
	Warn(msg string)
	// Fail reports an error the user must act on; title names what failed
	// (an input, the outputs).
	Fail(title, msg string)
	Note(msg string)
	// StartLog begins the sweep's log lines under title; the lines go to the
	// writer returned until end is called.
	StartLog(title string) (w io.Writer, end func())
	Outputs(outs []report.Output) error
	// Summary hands over the run's summary; extra is a paragraph of notes
	// that main adds (outputs cut to fit).
	Summary(r sweep.Result, repo, extra string) error
	// Line writes one line of the run's log, outside startLog's lines.
	Line(msg string)
}

// Summary formats for a terminal (-summary).
const (
	Text     = "text"
	Markdown = "markdown"
)

// New picks the Actions runner's IO when GITHUB_ACTIONS is "true", as the
// runner sets it, and the terminal's otherwise.
func New(getenv func(string) string, stdout, stderr io.Writer, summaryFormat, summaryFile string) IO {
	if InWorkflow(getenv) {
		return &actions{
			gha:    githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(stdout)),
			getenv: getenv, stdout: stdout,
		}
	}
	return &terminal{stdout: stdout, stderr: stderr, markdown: summaryFormat == Markdown, summaryFile: summaryFile}
}

// actions speaks to the runner: workflow commands on stdout, outputs and
// the job summary appended to the files the runner names.
type actions struct {
	gha    *githubactions.Action
	getenv func(string) string
	stdout io.Writer
}

func (a *actions) Mask(secret string) { a.gha.AddMask(secret) }
func (a *actions) Warn(msg string)    { a.gha.Warningf("%s", msg) }
func (a *actions) Note(msg string)    { a.gha.Noticef("%s", msg) }

func (a *actions) Fail(title, msg string) {
	if title == "" {
		a.gha.Errorf("%s", msg)
		return
	}
	a.gha.WithFieldsMap(map[string]string{"title": "stalepr: " + title}).Errorf("%s", msg)
}

// StartLog opens a group and, inside it, a stop-commands fence: PR titles in
// the lines cannot run workflow commands.
func (a *actions) StartLog(title string) (io.Writer, func()) {
	a.gha.Group(title)
	fence := report.OpenFence(a.stdout)
	return a.stdout, func() {
		_ = fence.Close()
		a.gha.EndGroup()
	}
}

// Outputs appends to GITHUB_OUTPUT itself rather than through
// go-githubactions' SetOutput, which panics when the file cannot be written
// (on a self-hosted runner with a file owned by another user, say).
func (a *actions) Outputs(outs []report.Output) error {
	path := a.getenv("GITHUB_OUTPUT")
	if path == "" {
		return nil
	}
	if err := appendFile(path, report.OutputFile(outs)); err != nil {
		return fmt.Errorf("writing the step outputs to GITHUB_OUTPUT (%s): %w", path, err)
	}
	return nil
}

// Summary appends the markdown summary to GITHUB_STEP_SUMMARY (AddStepSummary
// panics on a file error too). Without that file, as in a sandbox run inside
// a workflow, it goes to the log, fenced.
func (a *actions) Summary(r sweep.Result, repo, extra string) error {
	md := report.Summary(r, repo) + extra
	path := a.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		fmt.Fprintln(a.stdout, "\n----- job summary (markdown) -----")
		return report.Untrusted(a.stdout, md)
	}
	if err := appendFile(path, md+"\n"); err != nil {
		return fmt.Errorf("writing the job summary to GITHUB_STEP_SUMMARY (%s): %w", path, err)
	}
	return nil
}

func (a *actions) Line(msg string) { fmt.Fprintln(a.stdout, msg) }

// appendFile appends text to the file at path, creating it as the runner
// would have.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// terminal speaks to a person: no workflow command at all (so never
// ::add-mask:: with the token). The log, notes, warnings and errors
// ("stalepr: ..." lines) go to stderr; the summary, plain text or markdown,
// to stdout, or to the file of -summary-file, so that
// stalepr -summary=markdown > summary.md holds the summary alone.
type terminal struct {
	stdout, stderr io.Writer
	markdown       bool
	summaryFile    string
}

func (*terminal) Mask(string)          {} // nothing to hide from: the token is never printed
func (t *terminal) Warn(msg string)    { fmt.Fprintln(t.stderr, "stalepr: warning:", msg) }
func (t *terminal) Fail(_, msg string) { fmt.Fprintln(t.stderr, "stalepr:", msg) }
func (t *terminal) Note(msg string)    { fmt.Fprintln(t.stderr, msg) }
func (t *terminal) Line(msg string)    { fmt.Fprintln(t.stderr, msg) }

func (t *terminal) StartLog(title string) (io.Writer, func()) {
	fmt.Fprintln(t.stderr, title)
	return t.stderr, func() {}
}

// Outputs are for later steps of a workflow: a terminal has none.
func (*terminal) Outputs([]report.Output) error { return nil }

func (t *terminal) Summary(r sweep.Result, repo, extra string) error {
	s := report.Text(r, repo)
	if t.markdown {
		s = report.Summary(r, repo)
	}
	if t.summaryFile != "" {
		if err := os.WriteFile(t.summaryFile, []byte(s+extra), 0o644); err != nil {
			return fmt.Errorf("writing the summary to -summary-file %s: %w", t.summaryFile, err)
		}
		return nil
	}
	_, err := fmt.Fprint(t.stdout, s, extra)
	return err
}

// InWorkflow reports whether the run is a GitHub Actions job, as the runner
// says with GITHUB_ACTIONS.
func InWorkflow(getenv func(string) string) bool { return getenv("GITHUB_ACTIONS") == "true" }

// Exit codes, listed by -help and in the README.
const (
	ExitOK        = 0   // the sweep finished, or a limit left PRs for the next run
	ExitFailed    = 1   // some PRs failed, a listing failed, or the outputs or summary could not be written
	ExitUsage     = 2   // bad flags or inputs: nothing was sent to GitHub
	ExitCancelled = 130 // interrupted (Ctrl-C, SIGTERM): PRs not reached are left for the next run
)

// ExitCodesHelp lists the exit codes for -help.
const ExitCodesHelp = `
Exit codes:
  0    the sweep finished, or a limit (operations-per-run, the rate limit) left
       pull requests for the next run
  1    some pull requests failed, a listing failed, or the outputs or the job
       summary could not be written
  2    bad flags or inputs; nothing was sent to GitHub
  130  interrupted (Ctrl-C, SIGTERM); pull requests not reached are left for
       the next run
`
