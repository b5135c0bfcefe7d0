package dashboard

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/api"
)

// Cost is what one update spends at most, but for closing the copies two
// runs at once made (one each, when the budget allows): the listing, and
// an edit, or a creation and the listing again after it. A run sets it
// aside from the sweep's budget, so a capped sweep still leaves the
// dashboard its requests, and a dry run, which counts the creation and its
// listing as sent, stops where the real run would.
const Cost = 3

// Action is what an update does to the dashboard issue.
type Action int

const (
	_         Action = iota
	Create           // none of ours exists: create it, label and markers in one request
	Edit             // ours is open and its content changed: edit its marked block
	UpToDate         // ours is open with this content: nothing to write
	LeftAlone        // ours is closed, or lost its markers: a person's choice, kept
)

// Why an update leaves our issue alone: a person closed it or took its
// markers out. Either is theirs to undo; stalepr never makes a second one
// while this one exists.
const (
	ReasonClosed    = "it is closed, so stalepr leaves it: reopen it to have it kept up to date, or unset dashboard-issue"
	ReasonNoMarkers = "it has lost its hidden markers (" + startMarker + " … " + endMarker + "), so stalepr does not touch it: " +
		"put them back, or close it and remove its label " + Label + " for a new one"
)

// Plan is one update of the dashboard issue: what to do to the issue kept
// (Issue; none for Create), the body Create or Edit writes, why it is left
// alone, and the other open issues of ours to close as duplicates.
type Plan struct {
	Action     Action
	Issue      api.Issue
	Body       string
	Reason     string
	Duplicates []api.Issue
}

// Ours is the issues of list (the issues labelled Label) that stalepr's
// identity self wrote, oldest first: a person's issue with our label and
// markers is never taken for ours. self is the login GitHub names for the
// token (github-actions[bot] under GITHUB_TOKEN, APP-SLUG[bot] for an app,
// the user for a personal token).
func Ours(list []api.Issue, self string) []api.Issue {
	var ours []api.Issue
	for _, is := range list {
		if strings.EqualFold(self, is.Author) {
			ours = append(ours, is)
		}
	}
	sort.Slice(ours, func(i, j int) bool { return ours[i].Number < ours[j].Number })
	return ours
}

// Decide plans the update that brings ours (as Ours returns them) up to date
// with content (what report.Dashboard rendered), stamped now. The oldest of
// ours is the one kept, open or closed, so every run picks the same one and
// no second issue is created while one exists; the others still open are
// copies that two runs at once created.
func Decide(ours []api.Issue, content string, now time.Time) Plan {
	block := Block(content, now)
	if len(ours) == 0 {
		return Plan{Action: Create, Body: block + "\n"}
	}
	p := Plan{Issue: ours[0]}
	for _, is := range ours[1:] {
		if is.State == "open" {
			p.Duplicates = append(p.Duplicates, is)
		}
	}
	merged, ok := Merge(p.Issue.Body, block)
	have, _ := Content(p.Issue.Body)
	switch {
	case p.Issue.State == "closed":
		p.Action, p.Reason = LeftAlone, ReasonClosed
	case !ok:
		p.Action, p.Reason = LeftAlone, ReasonNoMarkers
	case have == strings.TrimSpace(content):
		p.Action = UpToDate
	default:
		p.Action, p.Body = Edit, merged
	}
	return p
}

// DuplicateBody is what a duplicate's body becomes when it is closed:
// where the kept one is.
func DuplicateBody(kept int) string {
	return fmt.Sprintf("Closed by stalepr: a second copy of the dashboard issue #%d, created by two runs at once. #%d is the one kept up to date.\n", kept, kept)
}
