package report

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The runner reads the action's log line by line (a line ends at LF, CR or
// CRLF) and runs a workflow command when a line starts with "::" after
// leading white space, or holds "##[" anywhere (the old syntax). Our own lines
// start with "#<number>", never hold a line break, and have every "##[" taken
// apart, so untrusted text inside them cannot run a command. Untrusted and
// Fence add a second fence: ::stop-commands:: with a random token.

// PRLine is one readable log line about a PR, e.g.
//
//	#12 marked stale: inactive 120 days, closes 2027-01-01 — "title"
//
// worded by it.Outcome ("would mark stale" etc. in a dry run), or as a failure
// when it.Err is set. The line holds no line break and cannot run a workflow
// command.
func PRLine(it sweep.Item, dryRun bool) string {
	verb, detail := describe(it, dryRun)
	if it.Branch != "" {
		detail += ", branch " + strconv.Quote(oneLine(it.Branch, maxReasonRunes)) + " deleted"
	}
	return prLine(it, verb, detail)
}

func describe(it sweep.Item, dry bool) (verb, detail string) {
	inactive := inactiveDays(it)
	closes := "never closes"
	if !it.CloseAt.IsZero() {
		closes = "closes " + closeDate(it.CloseAt)
	}
	reason := oneLine(string(it.Reason), maxReasonRunes)
	if it.SameAs != 0 {
		return wordFailed.in(dry), fmt.Sprintf("the same error as #%d", it.SameAs)
	}
	if it.Err != "" {
		return wordFailed.in(dry), halfDone(it) + oneLine(it.Err, maxErrRunes)
	}
	row, ok := outcomes[it.Outcome]
	switch {
	case !ok:
		return it.Outcome.String(), reason
	case it.Outcome == sweep.Marked, it.Outcome == sweep.Notified, it.Outcome == sweep.StillStale:
		return row.words.in(dry), inactive + ", " + closes
	case it.Outcome == sweep.Closed && (it.Reason == lifecycle.ReasonInactive || it.Reason == lifecycle.ReasonOpenTooLong):
		return row.words.in(dry), inactive // closed unmarked (days-before-close 0): "inactive, inactive 380 days" said it twice
	case it.Outcome == sweep.Closed:
		return row.words.in(dry), reason + ", " + inactive
	}
	return row.words.in(dry), reason
}

// inactiveDays words a PR's InactiveDays: "inactive 120 days", or under
// author-turn "120 days on the author's turn", since a maintainer's
// comment there does not end it.
func inactiveDays(it sweep.Item) string {
	if it.OnAuthorsTurn {
		return plural(it.InactiveDays, "day") + " on the author's turn"
	}
	return "inactive " + plural(it.InactiveDays, "day")
}

// daysHeader is the summary's column of InactiveDays. Under author-turn
// they count a turn: the author's for a mark or a close, the reviewers'
// for a PR un-staled because it waits on them.
func daysHeader(r sweep.Result) string {
	if r.StaleClock == lifecycle.ClockAuthorTurn {
		return "Days in turn"
	}
	return "Days inactive"
}

// prLine is "#12 verb: detail — "title"". The dashboard issue's says so
// ("dashboard issue #12 updated"), without a number before it exists.
func prLine(it sweep.Item, verb, detail string) string {
	line := fmt.Sprintf("#%d %s", it.Number, verb)
	switch {
	case it.Dashboard && it.Number > 0:
		line = "dashboard issue " + line
	case it.Dashboard:
		line = "dashboard issue " + verb
	}
	if detail != "" {
		line += ": " + detail
	}
	if it.Title != "" || it.URL != "" {
		// A PR's line ends with its title; a comment's (a duplicate
		// deleted) has none to show.
		line += " — " + strconv.Quote(oneLine(it.Title, maxTitleRunes))
	}
	return logSafe(line)
}

// logSafe makes sure a line we built can neither end early nor be read as a
// workflow command. Its parts are already one line; this takes apart the old
// "##[command]" syntax, which the runner finds anywhere in a line. A visible
// space is used, not a zero-width character: .NET's culture-aware IndexOf,
// which the runner uses, may ignore zero-width characters.
func logSafe(line string) string {
	line = oneLine(line, 0)
	for strings.Contains(line, "##[") {
		line = strings.ReplaceAll(line, "##[", "# #[")
	}
	if strings.HasPrefix(line, "::") {
		line = " " + line // unreachable for our lines; kept as a guard
	}
	return line
}

// newToken returns a fresh unguessable stop-commands token. A variable so
// tests can check the fence; crypto/rand.Read never fails (Go 1.24+: it
// crashes the program rather than return an error).
var newToken = func() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Untrusted writes text to the action's log between
// "::stop-commands::<token>" and "::<token>::", with a fresh random token, so
// that nothing in the text (an "::add-mask::", "::error::" or "##[...]" in a
// PR title) is run as a workflow command. The text may span lines.
func Untrusted(w io.Writer, text string) error {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	tok := newToken()
	for strings.Contains(strings.ToLower(text), tok) {
		tok = newToken() // a text that guessed the token: practically never
	}
	_, err := io.WriteString(w, "::stop-commands::"+tok+"\n"+text+"::"+tok+"::\n")
	return err
}

// Fence keeps the runner from acting on workflow commands in the log lines
// written between OpenFence and Close, for a stream of lines that holds
// untrusted text (PR lines written as a sweep goes). While it is open the
// runner ignores every workflow command, ours included: issue warnings,
// groups, masks and the like before opening it or after closing it.
type Fence struct {
	w      io.Writer
	token  string
	err    error
	closed bool
}

// OpenFence writes "::stop-commands::<token>" with a fresh random token to w.
// The token is drawn before any of the fenced text is known, so that text
// cannot hold it (but for a 2^-128 chance).
func OpenFence(w io.Writer) *Fence {
	f := &Fence{w: w, token: newToken()}
	_, f.err = io.WriteString(w, "::stop-commands::"+f.token+"\n")
	return f
}

// Close writes "::<token>::", after which the runner acts on commands again.
// It closes once: later calls only return the first write error, if any.
// Write the last fenced line with its line break before closing.
func (f *Fence) Close() error {
	if f == nil {
		return nil
	}
	if !f.closed {
		f.closed = true
		if _, err := io.WriteString(f.w, "::"+f.token+"::\n"); err != nil && f.err == nil {
			f.err = err
		}
	}
	return f.err
}

// Counts is the one-line end-of-run tally for the log, e.g.
//
//	marked stale 3, un-staled 1, closed 2, still stale 4, skipped 7, failed 0, labels cleaned 0; 23 requests (5 writes); rate limit 977 of 1000 left
func Counts(r sweep.Result) string {
	var b strings.Builder
	if r.DryRun {
		b.WriteString("dry run (nothing was changed): ")
	}
	fmt.Fprintf(&b, "%s; %s; rate limit %s", tallyLine(r), requests(r), rateLeft(r))
	for _, note := range pacedNotes(r) {
		b.WriteString("; " + note)
	}
	switch {
	case r.Stopped == nil:
	case r.ListingFailed():
		// Not a limit: what is left is unknown, and main says what failed.
		b.WriteString("; a listing failed")
	case r.Left == 0:
		// Stopped before it knew what needed work (during a listing):
		// "0 left" would not be known to be true.
		fmt.Fprintf(&b, "; stopped early (%s), what it did not reach is left for the next run", oneLine(StopReason(r.Stopped), maxReasonRunes))
	default:
		fmt.Fprintf(&b, "; stopped early (%s), %s", oneLine(StopReason(r.Stopped), maxReasonRunes), leftShort(r))
	}
	return logSafe(b.String())
}

// LeftForNextRun says what a stopped run left: the PRs it knew needed work,
// and, when it stopped inside a listing, those it never listed, which it
// cannot count.
func LeftForNextRun(r sweep.Result) string {
	switch {
	case !r.Unlisted:
		return plural(r.Left, "pull request") + leftKinds(r) + " left for the next run"
	case r.Left == 0:
		return "the pull requests it had not listed yet are left for the next run"
	}
	return plural(r.Left, "pull request") + leftKinds(r) + ", and those it had not listed yet, left for the next run"
}

// leftShort is LeftForNextRun for the counts line.
func leftShort(r sweep.Result) string {
	switch {
	case !r.Unlisted:
		return fmt.Sprintf("%d%s left for the next run", r.Left, leftKinds(r))
	case r.Left == 0:
		return "those not listed yet left for the next run"
	}
	return fmt.Sprintf("%d%s and those not listed yet left for the next run", r.Left, leftKinds(r))
}

// leftKinds is " (1,700 to mark, 34 to close)": what the PRs left were to
// get, in the plan's order, and how many still needed a read to tell; ""
// when nothing was planned for them.
func leftKinds(r sweep.Result) string {
	outs := slices.Sorted(maps.Keys(r.LeftBy))
	var order []string
	n := map[string]int{}
	planned := 0
	for _, o := range outs {
		w := outcomes[o].left
		if w == "" || r.LeftBy[o] == 0 {
			continue
		}
		if n[w] == 0 {
			order = append(order, w)
		}
		n[w] += r.LeftBy[o]
		planned += r.LeftBy[o]
	}
	if planned == 0 {
		return ""
	}
	parts := make([]string, 0, len(order)+1)
	for _, w := range order {
		parts = append(parts, fmt.Sprintf("%d %s", n[w], w))
	}
	if rest := r.Left - planned; rest > 0 {
		parts = append(parts, fmt.Sprintf("%d to read", rest))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
