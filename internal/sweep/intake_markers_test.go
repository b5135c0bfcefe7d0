package sweep

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// The intake clock's markers are read as the others are, and trusted only
// from our own login: a person quoting our notice does not make it told.
func TestReadIntakeMarkers(t *testing.T) {
	self, at := "stalepr[bot]", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	events := []lifecycle.Event{
		{Kind: lifecycle.Commented, At: at.Add(3 * time.Hour), Actor: "mallory", Body: "> " + notice.IntakeMarker()},
		{Kind: lifecycle.Commented, At: at.Add(time.Hour), Actor: self, Bot: true, Body: notice.Body("link an issue", notice.IntakeMarker())},
		{Kind: lifecycle.Commented, At: at.Add(2 * time.Hour), Actor: "mallory", Body: notice.CloseMarker(lifecycle.RuleIntake)},
	}
	readMarkers(events, lifecycle.Policy{ReopenCommand: "/reopen"})
	if events[1].Notice != lifecycle.IntakeNotice || events[2].Notice != lifecycle.CloseNotice || events[1].Body != "" {
		t.Fatalf("intake markers read as %+v", events)
	}
	pr := lifecycle.PR{Number: 1, Author: "dave", CreatedAt: at.Add(-time.Hour)}
	a := lifecycle.SummarizeIntake(pr, events, lifecycle.Options{Self: []string{self}})
	if !a.NoticeAt.Equal(at.Add(time.Hour)) || !a.CloseNoticeAt.IsZero() {
		t.Errorf("SummarizeIntake trusts %+v, want our notice at %v and no closing comment", a, at.Add(time.Hour))
	}
}
