package sweep

import (
	"context"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// markerReader reads our markers out of the comments every read brings:
// the adapter returns comments' texts, the sweep tells what in them is
// ours (notice.Parse) and drops the texts, which a run would otherwise
// keep for every listed PR. Whose a marker is, identity decides later; a
// comment that asks for a command on under pol (lifecycle.Commands) is
// flagged so (lifecycle.Event.Command), and whose it is the command decides.
type markerReader struct {
	GitHub
	pol lifecycle.Policy
}

func (m markerReader) OpenPulls(ctx context.Context, q Query, after string) ([]Listed, Page, error) {
	listed, pg, err := m.GitHub.OpenPulls(ctx, q, after)
	for i := range listed {
		readMarkers(listed[i].History, m.pol)
	}
	return listed, pg, err
}

func (m markerReader) ClosedPulls(ctx context.Context, assignees bool, after string) ([]ClosedListed, Page, error) {
	closed, pg, err := m.GitHub.ClosedPulls(ctx, assignees, after)
	for i := range closed {
		readMarkers(closed[i].History, m.pol)
	}
	return closed, pg, err
}

func (m markerReader) Pull(ctx context.Context, number int, checks bool) (ClosedListed, bool, error) {
	l, open, err := m.GitHub.Pull(ctx, number, checks)
	readMarkers(l.History, m.pol)
	return l, open, err
}

func (m markerReader) History(ctx context.Context, number int, before string) ([]lifecycle.Event, error) {
	events, err := m.GitHub.History(ctx, number, before)
	readMarkers(events, m.pol)
	return events, err
}

func (m markerReader) RecentComments(ctx context.Context, since time.Time) ([]Comment, error) {
	comments, err := m.GitHub.RecentComments(ctx, since)
	for i := range comments {
		readMarker(&comments[i].Event, m.pol)
	}
	return comments, err
}

func readMarkers(events []lifecycle.Event, pol lifecycle.Policy) {
	for i := range events {
		readMarker(&events[i], pol)
	}
}

// readMarker reads a comment's marker, or a command's word, from its text
// and drops the text. An event without text (an adapter that
// read none) keeps what it says.
func readMarker(e *lifecycle.Event, pol lifecycle.Policy) {
	if e.Kind != lifecycle.Commented || e.Body == "" {
		return
	}
	e.Notice, e.MarkedAt, e.MarkHead, e.Rule = notice.Parse(e.Body)
	if e.Notice == lifecycle.NoNotice {
		e.Notice = notice.ParseIntake(e.Body) // the intake clock's, apart from Parse's
	}
	e.Command = e.Notice == lifecycle.NoNotice && pol.AsksCommand(e.Body)
	e.Body = ""
}
