package dashboard

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/api"
)

// Cost is what one update usually spends: the listing and one edit (or the
// creation). A run holds it back from the sweep (ghapi.Client.Hold), so a
// capped sweep still leaves the dashboard its requests. Closing a duplicate
// (after two runs at once) costs one more each, when the budget allows.
const Cost = 2

// GitHub is every call an update makes, in this package's own types;
// ghapi.Client implements it. A stop (a limit, the deadline) is an
// api.Stop.
type GitHub interface {
	LabelledIssues(ctx context.Context, label string) ([]api.Issue, error)
	CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error)
	EditIssue(ctx context.Context, number int, body string, close bool) error
	Viewer(ctx context.Context) (login string, err error)
}

// Logger receives the update's log lines.
type Logger interface {
	Printf(format string, args ...any)
}

// Options say which issue and how.
type Options struct {
	Title  string    // dashboard-issue: the title it is created with
	DryRun bool      // debug-only: print the body instead of writing it
	Self   string    // the login stalepr writes as, when the sweep learnt it; "": asked when needed
	Now    time.Time // the run's clock, for the "updated" line
}

// Outcome is what an update did (or, in a dry run, would do).
type Outcome struct {
	Number int    // the dashboard issue; 0 when none exists (yet)
	Action string // created, edited, unchanged, left alone; "would ..." in a dry run
	Closed []int  // duplicates closed
}

// updater is one update.
type updater struct {
	gh  GitHub
	o   Options
	log Logger

	self string // the login GitHub names for the token
}

// Update brings the dashboard issue up to date with content (what
// report.Dashboard rendered). It never creates a second issue: the issue is
// created with its label and markers in one request, so it is found from the
// moment it exists; after creating, the run lists again, and when two runs
// created one each, every run keeps the oldest and closes the others.
func Update(ctx context.Context, gh GitHub, o Options, content string, log Logger) (Outcome, error) {
	u := &updater{gh: gh, o: o, log: log, self: o.Self}
	ours, err := u.find(ctx)
	if err != nil {
		return Outcome{}, err
	}
	block := Block(content, o.Now)
	if len(ours) == 0 {
		return u.create(ctx, content, block)
	}
	return u.keep(ctx, ours, content, block)
}

// find lists our dashboard issues, oldest first: labelled, and written by
// the identity stalepr writes as (a person's issue with our label and
// markers is never taken for ours).
func (u *updater) find(ctx context.Context) ([]api.Issue, error) {
	list, err := u.gh.LabelledIssues(ctx, Label)
	if err != nil {
		return nil, fmt.Errorf("find the dashboard issue: %w", err)
	}
	var ours []api.Issue
	for _, is := range list {
		mine, err := u.mine(ctx, is)
		if err != nil {
			return nil, err
		}
		if mine {
			ours = append(ours, is)
		}
	}
	sort.Slice(ours, func(i, j int) bool { return ours[i].Number < ours[j].Number })
	return ours, nil
}

// mine reports whether stalepr's identity wrote is: the login GitHub names
// for the token (github-actions[bot] under GITHUB_TOKEN, APP-SLUG[bot] for
// an app, the user for a personal token), asked once when the sweep did not
// learn it. An identity GitHub does not tell is an error: without it no
// issue can be told ours, and creating one could make a second.
func (u *updater) mine(ctx context.Context, is api.Issue) (bool, error) {
	if u.self == "" {
		login, err := u.gh.Viewer(ctx)
		if err != nil {
			return false, fmt.Errorf("dashboard issue left alone: %w", err)
		}
		u.self = login
	}
	return strings.EqualFold(u.self, is.Author), nil
}

// create opens the issue, then lists again: a concurrent run may have
// opened one too, and the oldest is kept.
func (u *updater) create(ctx context.Context, content, block string) (Outcome, error) {
	if u.o.DryRun {
		u.log.Printf("dashboard issue: would create %q (dry run), with this body:\n%s", u.o.Title, block)
		return Outcome{Action: "would create"}, nil
	}
	created, err := u.gh.CreateIssue(ctx, u.o.Title, block+"\n", []string{Label})
	if err != nil && api.IsStop(err) {
		return Outcome{}, fmt.Errorf("create the dashboard issue: %w", err)
	}
	// Listed again even after an error: an answer lost on the way back may
	// hide an issue GitHub created.
	ours, lerr := u.find(ctx)
	switch {
	case lerr != nil && err != nil:
		return Outcome{}, fmt.Errorf("create the dashboard issue: %w", err)
	case lerr != nil:
		u.log.Printf("dashboard issue: created #%d; could not list again to look for a concurrent run's copy (%v): the next run does", created.Number, lerr)
		return Outcome{Number: created.Number, Action: "created"}, nil
	case len(ours) == 0 && err != nil:
		return Outcome{}, fmt.Errorf("create the dashboard issue: %w", err)
	case len(ours) == 0:
		// Created, but not found by its label: GitHub drops labels set by
		// a token without push access. Say so rather than create one a run.
		return Outcome{Number: created.Number}, fmt.Errorf("created the dashboard issue #%d, but GitHub did not keep its label %q, "+
			"so the next run would not find it: give the workflow issues: write, then close #%d", created.Number, Label, created.Number)
	}
	if err == nil && ours[0].Number != created.Number {
		// A concurrent run's is older: that one is kept, ours closed.
		return u.keep(ctx, ours, content, block)
	}
	out := Outcome{Number: ours[0].Number, Action: "created"}
	out.Closed, err = u.closeDuplicates(ctx, ours)
	if err == nil {
		u.log.Printf("dashboard issue: %s #%d", out.Action, out.Number)
	}
	return out, err
}

// keep brings the oldest of our issues up to date and closes the others.
func (u *updater) keep(ctx context.Context, ours []api.Issue, content, block string) (Outcome, error) {
	is := ours[0]
	out := Outcome{Number: is.Number}
	closed, err := u.closeDuplicates(ctx, ours)
	out.Closed = closed
	if err != nil {
		return out, err
	}
	if is.State == "closed" {
		out.Action = "left alone"
		u.log.Printf("dashboard issue #%d is closed, so stalepr leaves it: reopen it to have it kept up to date, or unset dashboard-issue", is.Number)
		return out, nil
	}
	merged, ok := Merge(is.Body, block)
	if !ok {
		out.Action = "left alone"
		u.log.Printf("dashboard issue #%d has lost its hidden markers (%s … %s), so stalepr does not touch it: put them back, or close it and remove its label %q for a new one",
			is.Number, startMarker, endMarker, Label)
		return out, nil
	}
	if have, _ := Content(is.Body); have == strings.TrimSpace(content) {
		out.Action = "unchanged"
		u.log.Printf("dashboard issue #%d is up to date", is.Number)
		return out, nil
	}
	if u.o.DryRun {
		out.Action = "would edit"
		u.log.Printf("dashboard issue: would edit #%d (dry run), to this body:\n%s", is.Number, merged)
		return out, nil
	}
	if err := u.gh.EditIssue(ctx, is.Number, merged, false); err != nil {
		return out, fmt.Errorf("update the dashboard issue #%d: %w", is.Number, err)
	}
	out.Action = "edited"
	u.log.Printf("dashboard issue #%d updated", is.Number)
	return out, nil
}

// closeDuplicates closes every open issue of ours but the oldest: the copies
// two runs at once created. Every run picks the same one to keep.
func (u *updater) closeDuplicates(ctx context.Context, ours []api.Issue) ([]int, error) {
	var closed []int
	for _, is := range ours[1:] {
		if is.State != "open" {
			continue
		}
		if u.o.DryRun {
			u.log.Printf("dashboard issue: would close #%d, a duplicate of #%d (dry run)", is.Number, ours[0].Number)
			continue
		}
		body := fmt.Sprintf("Closed by stalepr: a second copy of the dashboard issue #%d, created by two runs at once. #%d is the one kept up to date.\n",
			ours[0].Number, ours[0].Number)
		if err := u.gh.EditIssue(ctx, is.Number, body, true); err != nil {
			return closed, fmt.Errorf("close the duplicate dashboard issue #%d (the next run tries again): %w", is.Number, err)
		}
		u.log.Printf("dashboard issue: closed #%d, a duplicate of #%d", is.Number, ours[0].Number)
		closed = append(closed, is.Number)
	}
	return closed, nil
}
