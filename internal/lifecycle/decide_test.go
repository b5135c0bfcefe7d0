package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

const (
	staleDays = 30
	closeDays = 7
)

// policy is a typical configuration: stale after 30 days, closed 7 days later,
// label removed on activity, anyone's activity counts. Options adjust it.
func policy(opts ...func(*lifecycle.Policy)) lifecycle.Policy {
	p := lifecycle.Policy{
		DaysBeforeStale:        staleDays,
		DaysBeforeClose:        closeDays,
		StaleLabel:             staleLabel,
		RemoveStaleWhenUpdated: true,
		ActivityFrom:           lifecycle.Anyone,
	}
	for _, o := range opts {
		o(&p)
	}
	return p
}

// pr is an open PR by alice created 90 days ago and last updated at updated.
func pr(updated time.Time, labels ...string) lifecycle.PR {
	return lifecycle.PR{
		Number:    42,
		Title:     "Add feature",
		Author:    author,
		CreatedAt: daysAgo(90),
		UpdatedAt: updated,
		Labels:    labels,
	}
}

func with(p lifecycle.PR, f func(*lifecycle.PR)) lifecycle.PR { f(&p); return p }

func created(at time.Time) func(*lifecycle.PR) {
	return func(p *lifecycle.PR) { p.CreatedAt = at }
}

// marked is the activity of a PR labelled at markedAt whose notice was posted.
func marked(markedAt time.Time) *lifecycle.Activity {
	return &lifecycle.Activity{MarkedAt: markedAt, NoticeAt: markedAt.Add(time.Second)}
}

type decideCase struct {
	name   string
	pr     lifecycle.PR
	act    *lifecycle.Activity
	policy lifecycle.Policy
	want   lifecycle.Action
	reason lifecycle.Reason
	// Checked only when non-zero; closeAtZero asks for a zero CloseAt.
	inactiveSince time.Time
	markedAt      time.Time
	closeAt       time.Time
	closeAtZero   bool // CloseAt must be zero (never closes)
	noticePosted  bool
	rule          lifecycle.RuleName // checked when set
}

func runDecide(t *testing.T, tests []decideCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lifecycle.Decide(tt.pr, tt.act, now, tt.policy)
			if got.Action != tt.want || got.Reason != tt.reason {
				t.Fatalf("Decide = %v, want %v (%s)", got, tt.want, tt.reason)
			}
			if !tt.inactiveSince.IsZero() && !got.InactiveSince.Equal(tt.inactiveSince) {
				t.Errorf("InactiveSince = %s, want %s", fmtTime(got.InactiveSince), fmtTime(tt.inactiveSince))
			}
			if !tt.markedAt.IsZero() && !got.MarkedAt.Equal(tt.markedAt) {
				t.Errorf("MarkedAt = %s, want %s", fmtTime(got.MarkedAt), fmtTime(tt.markedAt))
			}
			if !tt.closeAt.IsZero() && !got.CloseAt.Equal(tt.closeAt) {
				t.Errorf("CloseAt = %s, want %s", fmtTime(got.CloseAt), fmtTime(tt.closeAt))
			}
			if tt.closeAtZero && !got.CloseAt.IsZero() {
				t.Errorf("CloseAt = %s, want zero (never)", fmtTime(got.CloseAt))
			}
			if tt.rule != "" && got.Rule != tt.rule {
				t.Errorf("Rule = %q, want %q", got.Rule, tt.rule)
			}
			if got.CloseNoticePosted != tt.noticePosted {
				t.Errorf("CloseNoticePosted = %v, want %v", got.CloseNoticePosted, tt.noticePosted)
			}
		})
	}
}

func TestPolicyCloseDate(t *testing.T) {
	t.Parallel()
	p := policy()
	if got, want := p.CloseDate(daysAgo(1)), daysAgo(1).Add(closeDays*lifecycle.Day); !got.Equal(want) {
		t.Errorf("CloseDate = %s, want %s", fmtTime(got), fmtTime(want))
	}
	if got := p.CloseDate(time.Time{}); !got.IsZero() {
		t.Errorf("CloseDate(zero) = %s, want zero", fmtTime(got))
	}
	p.DaysBeforeClose = -1
	if got := p.CloseDate(now); !got.IsZero() {
		t.Errorf("CloseDate with closing disabled = %s, want zero", fmtTime(got))
	}
}

func TestActionString(t *testing.T) {
	t.Parallel()
	want := map[lifecycle.Action]string{
		lifecycle.Keep: "keep", lifecycle.Skip: "skip", lifecycle.NeedDetail: "need-detail", lifecycle.Mark: "mark",
		lifecycle.Notify: "notify", lifecycle.Unstale: "unstale", lifecycle.Close: "close",
	}
	for a, s := range want {
		if a.String() != s {
			t.Errorf("Action(%d).String() = %q, want %q", int(a), a.String(), s)
		}
	}
}

// TestStringsOfNewConstants: a constant added without its word prints as a
// number instead of panicking in a log line.
func TestStringsOfNewConstants(t *testing.T) {
	t.Parallel()
	if got := lifecycle.Action(99).String(); got != "action(99)" {
		t.Errorf("Action(99).String() = %q", got)
	}
	if got := lifecycle.Whose(99).String(); got != "whose(99)" {
		t.Errorf("Whose(99).String() = %q", got)
	}
	if got := lifecycle.TurnMaintainers.String(); got != "maintainers" {
		t.Errorf("TurnMaintainers.String() = %q", got)
	}
}
