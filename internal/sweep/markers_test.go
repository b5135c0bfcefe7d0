package sweep

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// The sweep, not the adapter, reads our markers: from a comment's text,
// which it then drops; an event the adapter gave without text keeps what it
// says, and only comments carry markers.
func TestReadMarkers(t *testing.T) {
	marked := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	events := []lifecycle.Event{
		{Kind: lifecycle.Commented, Body: notice.Body("stale", notice.StaleMarker(marked, "abc1234"))},
		{Kind: lifecycle.Commented, Body: "a person's words, no marker"},
		{Kind: lifecycle.Commented, Notice: lifecycle.CloseNotice},
		{Kind: lifecycle.Labeled, Body: notice.CloseMarker(lifecycle.RuleInactivity)},
		{Kind: lifecycle.Commented, Body: "Thanks!\n/reopen"},
		{Kind: lifecycle.Commented, Body: notice.Body("Comment `/reopen` to reopen it.", notice.CloseMarker(lifecycle.RuleAuthorTurn))},
		{Kind: lifecycle.Commented, Body: "Closing.\n\n<!-- stalepr:close -->"}, // every version before the rule
	}
	readMarkers(events, lifecycle.Policy{ReopenCommand: "/reopen"})
	if e := events[0]; e.Notice != lifecycle.StaleNotice || !e.MarkedAt.Equal(marked) || e.MarkHead != "abc1234" || e.Body != "" {
		t.Errorf("stale notice read as %+v", e)
	}
	if e := events[1]; e.Notice != lifecycle.NoNotice || e.Body != "" {
		t.Errorf("a person's comment read as %+v", e)
	}
	if e := events[2]; e.Notice != lifecycle.CloseNotice {
		t.Errorf("an event without text lost its notice: %+v", e)
	}
	if e := events[3]; e.Notice != lifecycle.NoNotice {
		t.Errorf("a label event read as a notice: %+v", e)
	}
	if e := events[4]; !e.Command || e.Body != "" {
		t.Errorf("a reopen command read as %+v", e)
	}
	if e := events[5]; e.Command || e.Notice != lifecycle.CloseNotice || e.Rule != lifecycle.RuleAuthorTurn {
		t.Errorf("our closing comment naming the command read as %+v", e)
	}
	if e := events[6]; e.Notice != lifecycle.CloseNotice || e.Rule != "" || e.Body != "" {
		t.Errorf("an earlier version's closing comment read as %+v", e)
	}
	if e := events[1]; e.Command {
		t.Errorf("a person's words read as a command: %+v", e)
	}
}
