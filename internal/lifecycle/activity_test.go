package lifecycle_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// now is the fixed instant every test decides at.
var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

const (
	author     = "alice"
	staleLabel = "stale"
	selfLogin  = "stalepr[bot]"
	patLogin   = "ops-automation" // a personal token: looks like a person, known only by its notices
)

// daysAgo is now minus d days (fractions allowed).
func daysAgo(d float64) time.Time { return now.Add(-time.Duration(d * float64(lifecycle.Day))) }

// Event builders: one per kind of thing that happens on a PR.

func comment(at time.Time, actor string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: actor}
}

func botComment(at time.Time, actor string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: actor, Bot: true}
}

func staleNotice(at time.Time, actor string, markedAt time.Time) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: actor, Notice: lifecycle.StaleNotice, MarkedAt: markedAt}
}

func closeNotice(at time.Time, actor string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: actor, Notice: lifecycle.CloseNotice}
}

func labeled(at time.Time, actor, label string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Labeled, At: at, Actor: actor, Label: label}
}

func unlabeled(at time.Time, actor, label string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Unlabeled, At: at, Actor: actor, Label: label}
}

func asBot(e lifecycle.Event) lifecycle.Event { e.Bot = true; return e }

func ev(kind lifecycle.EventKind, at time.Time, actor string) lifecycle.Event {
	return lifecycle.Event{Kind: kind, At: at, Actor: actor}
}

func deleted(at time.Time, actor, author string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.CommentDeleted, At: at, Actor: actor, DeletedAuthor: author}
}

func commit(at time.Time) lifecycle.Event { return lifecycle.Event{Kind: lifecycle.Committed, At: at} }

func reviewRequested(at time.Time, actor, reviewer string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.ReviewRequested, At: at, Actor: actor, Reviewer: reviewer}
}

func reviewRequestRemoved(at time.Time, actor, reviewer string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.ReviewRequestRemoved, At: at, Actor: actor, Reviewer: reviewer}
}

// diffActivity lists the fields of got that differ from want.
func diffActivity(got, want lifecycle.Activity) string {
	var d []string
	tf := func(name string, g, w time.Time) {
		if !g.Equal(w) {
			d = append(d, fmt.Sprintf("%s: got %s, want %s", name, fmtTime(g), fmtTime(w)))
		}
	}
	tf("MarkedAt", got.MarkedAt, want.MarkedAt)
	tf("NoticeAt", got.NoticeAt, want.NoticeAt)
	tf("CloseNoticeAt", got.CloseNoticeAt, want.CloseNoticeAt)
	tf("LastPersonAt", got.LastPersonAt, want.LastPersonAt)
	if got.LastPersonLogin != want.LastPersonLogin {
		d = append(d, fmt.Sprintf("LastPersonLogin: got %q, want %q", got.LastPersonLogin, want.LastPersonLogin))
	}
	if !slices.Equal(got.PendingReviewers, want.PendingReviewers) {
		d = append(d, fmt.Sprintf("PendingReviewers: got %q, want %q", got.PendingReviewers, want.PendingReviewers))
	}
	if got.AwaitingReview != want.AwaitingReview {
		d = append(d, fmt.Sprintf("AwaitingReview: got %v, want %v", got.AwaitingReview, want.AwaitingReview))
	}
	return strings.Join(d, "; ")
}

// fmtTime shows a time relative to now, which reads better than a date.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "zero"
	}
	return fmt.Sprintf("%s (now-%v)", t.UTC().Format(time.RFC3339), now.Sub(t))
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	t1, t2, t3, t4, t5 := daysAgo(20), daysAgo(15), daysAgo(10), daysAgo(5), daysAgo(1)
	self := []string{selfLogin}

	tests := []struct {
		name   string
		events []lifecycle.Event
		author string
		self   []string
		want   lifecycle.Activity
	}{
		{
			name: "no events: nothing known",
			want: lifecycle.Activity{},
		},
		// Rule 9: the mark.
		{
			name:   "adding the stale label sets MarkedAt and is not activity, even by a person",
			events: []lifecycle.Event{labeled(t1, "bob", staleLabel)},
			want:   lifecycle.Activity{MarkedAt: t1},
		},
		{
			name:   "stale label name is compared case-insensitively",
			events: []lifecycle.Event{labeled(t1, selfLogin, "Stale")},
			want:   lifecycle.Activity{MarkedAt: t1},
		},
		{
			name:   "another label is not a mark",
			events: []lifecycle.Event{asBot(labeled(t1, "labeler[bot]", "stale-ish"))},
			want:   lifecycle.Activity{},
		},
		{
			name: "MarkedAt is the last time the stale label was added",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				unlabeled(t2, selfLogin, staleLabel),
				labeled(t3, selfLogin, staleLabel),
			},
			want: lifecycle.Activity{MarkedAt: t3},
		},
		{
			name: "re-labelling resets NoticeAt and CloseNoticeAt",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				staleNotice(t1.Add(time.Minute), selfLogin, t1),
				closeNotice(t2, selfLogin),
				labeled(t3, "bob", staleLabel),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t3},
		},
		{
			name: "notices after the mark set NoticeAt and CloseNoticeAt",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				staleNotice(t1.Add(time.Minute), selfLogin, t1),
				closeNotice(t3, selfLogin),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t1, NoticeAt: t1.Add(time.Minute), CloseNoticeAt: t3},
		},
		{
			name:   "stale notice carrying marked= gives MarkedAt when no label event is seen",
			events: []lifecycle.Event{staleNotice(t2, selfLogin, t1)},
			self:   self,
			want:   lifecycle.Activity{MarkedAt: t1, NoticeAt: t2},
		},
		{
			name: "the stale label event wins over an older marked= of an earlier notice",
			events: []lifecycle.Event{
				staleNotice(t1, selfLogin, t1),
				labeled(t3, selfLogin, staleLabel),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t3},
		},
		{
			// BUG: Summarize keeps the first notice's marked= and ignores the later one.
			name: "a later stale notice's marked= supersedes an earlier notice's (re-mark, no label events)",
			events: []lifecycle.Event{
				staleNotice(t1, selfLogin, t1),
				comment(t2, "bob"),
				staleNotice(t4, selfLogin, t4),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t4, NoticeAt: t4, LastPersonAt: t2, LastPersonLogin: "bob"},
		},
		{
			name: "a person removing the stale label resets the mark and is activity",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				staleNotice(t1, selfLogin, t1),
				unlabeled(t3, "bob", staleLabel),
			},
			self: self,
			want: lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: "bob"},
		},
		{
			name: "stale label removal is matched case-insensitively",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				unlabeled(t3, selfLogin, "STALE"),
			},
			self: self,
			// Our own un-stale with no dated person activity after the
			// mark: what earned it is dated no later than the un-stale.
			want: lifecycle.Activity{LastPersonAt: t3},
		},
		// Rule 2: whose actions count.
		{
			name:   "a person's comment is activity",
			events: []lifecycle.Event{labeled(t1, selfLogin, staleLabel), comment(t3, "bob")},
			self:   self,
			want:   lifecycle.Activity{MarkedAt: t1, LastPersonAt: t3, LastPersonLogin: "bob"},
		},
		{
			name:   "a review is activity",
			events: []lifecycle.Event{ev(lifecycle.Reviewed, t3, "bob")},
			want:   lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: "bob"},
		},
		{
			name:   "a review comment is activity",
			events: []lifecycle.Event{ev(lifecycle.ReviewCommented, t3, "bob")},
			want:   lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: "bob"},
		},
		{
			name:   "a pushed commit counts as person activity though it has no actor",
			events: []lifecycle.Event{commit(t3)},
			want:   lifecycle.Activity{LastPersonAt: t3},
		},
		{
			name:   "a force push by a person is activity",
			events: []lifecycle.Event{ev(lifecycle.ForcePushed, t3, author)},
			want:   lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: author},
		},
		{
			name:   "reopening by a person is activity",
			events: []lifecycle.Event{ev(lifecycle.Reopened, t3, "bob")},
			want:   lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: "bob"},
		},
		{
			name:   "Other events never count, even by a person",
			events: []lifecycle.Event{ev(lifecycle.Other, t3, "bob")},
			want:   lifecycle.Activity{},
		},
		{
			name:   "a comment by an account typed Bot is not activity",
			events: []lifecycle.Event{botComment(t3, "ci-runner")},
			want:   lifecycle.Activity{},
		},
		{
			name:   "a comment by a [bot] login is not activity, suffix case-insensitive, without the Bot flag",
			events: []lifecycle.Event{comment(t3, "Renovate[BOT]")},
			want:   lifecycle.Activity{},
		},
		{
			name: "label churn by bots is not activity",
			events: []lifecycle.Event{
				asBot(labeled(t3, "labeler", "size/L")),
				unlabeled(t4, "labeler[bot]", "size/M"),
			},
			want: lifecycle.Activity{},
		},
		{
			name:   "our own logins (self) are not people, compared case-insensitively",
			events: []lifecycle.Event{comment(t3, "Ops-Automation"), ev(lifecycle.Renamed, t4, "OPS-AUTOMATION")},
			self:   []string{patLogin},
			want:   lifecycle.Activity{},
		},
		{
			name: "our own notice never counts, even when posted with a personal token",
			events: []lifecycle.Event{
				labeled(t1, patLogin, staleLabel),
				staleNotice(t1, patLogin, t1),
				closeNotice(t3, patLogin),
			},
			self: []string{selfLogin, patLogin},
			want: lifecycle.Activity{MarkedAt: t1, NoticeAt: t1, CloseNoticeAt: t3},
		},
		{
			name: "a marker pasted by a person is their comment, not our notice",
			events: []lifecycle.Event{
				labeled(t1, selfLogin, staleLabel),
				staleNotice(t1, selfLogin, t1),
				staleNotice(t2, "mallory", t2),
				closeNotice(t3, "mallory"),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t1, NoticeAt: t1, LastPersonAt: t3, LastPersonLogin: "mallory"},
		},
		{
			name: "our token's own other writes are not a person's",
			events: []lifecycle.Event{
				comment(t1, "bob"),
				staleNotice(t2, patLogin, t2),
				comment(t3, patLogin),
				ev(lifecycle.Renamed, t4, patLogin),
			},
			self: []string{patLogin},
			want: lifecycle.Activity{MarkedAt: t2, NoticeAt: t2, LastPersonAt: t1, LastPersonLogin: "bob"},
		},
		{
			name: "events out of order are sorted by time",
			events: []lifecycle.Event{
				comment(t5, "carol"),
				labeled(t3, selfLogin, staleLabel),
				comment(t2, "bob"),
				labeled(t1, selfLogin, staleLabel),
			},
			self: self,
			want: lifecycle.Activity{MarkedAt: t3, LastPersonAt: t5, LastPersonLogin: "carol"},
		},
		// Rule 9: reviews.
		{
			name: "a requested review stays pending until the reviewer reviews",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
				reviewRequested(t1, author, "carol"),
				ev(lifecycle.Reviewed, t2, "Bob"),
			},
			author: author,
			want:   lifecycle.Activity{PendingReviewers: []string{"carol"}, LastPersonAt: t2, LastPersonLogin: "Bob"},
		},
		{
			name: "a removed review request is no longer pending, and removing it is not activity",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
				reviewRequestRemoved(t3, "maintainer", "BOB"),
			},
			author: author,
			want:   lifecycle.Activity{LastPersonAt: t1, LastPersonLogin: author},
		},
		{
			name: "a reviewer requested twice is pending once",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
				reviewRequested(t2, author, "Bob"),
			},
			author: author,
			want:   lifecycle.Activity{PendingReviewers: []string{"bob"}, LastPersonAt: t2, LastPersonLogin: author, AwaitingReview: true},
		},
		{
			name: "awaiting review: the author acted last and a review is pending",
			events: []lifecycle.Event{
				reviewRequested(t1, "maintainer", "bob"),
				comment(t3, "ALICE"),
				botComment(t4, "ci"), // bots after the author change nothing
			},
			author: author,
			want:   lifecycle.Activity{PendingReviewers: []string{"bob"}, LastPersonAt: t3, LastPersonLogin: "ALICE", AwaitingReview: true},
		},
		{
			name: "not awaiting review when someone else acted after the author",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
				comment(t3, "carol"),
			},
			author: author,
			want:   lifecycle.Activity{PendingReviewers: []string{"bob"}, LastPersonAt: t3, LastPersonLogin: "carol"},
		},
		{
			name: "not awaiting review when no review is pending",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
				ev(lifecycle.Reviewed, t2, "bob"),
				comment(t3, author),
			},
			author: author,
			want:   lifecycle.Activity{LastPersonAt: t3, LastPersonLogin: author},
		},
		{
			name: "not awaiting review when the author is unknown",
			events: []lifecycle.Event{
				reviewRequested(t1, author, "bob"),
			},
			want: lifecycle.Activity{PendingReviewers: []string{"bob"}, LastPersonAt: t1, LastPersonLogin: author},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.events)
			got := lifecycle.Summarize(lifecycle.PR{Author: tt.author}, tt.events, staleLabel, tt.self)
			if d := diffActivity(got, tt.want); d != "" {
				t.Error(d)
			}
			if !slices.EqualFunc(in, tt.events, func(a, b lifecycle.Event) bool { return reflect.DeepEqual(a, b) }) {
				t.Error("Summarize reordered or changed its input")
			}
		})
	}
}

func TestIsBotLogin(t *testing.T) {
	t.Parallel()
	for login, want := range map[string]bool{
		"dependabot[bot]": true,
		"Renovate[Bot]":   true,
		"alice":           false,
		"robot":           false,
		"bot":             false,
		"[bot]-fan":       false,
		"":                false,
	} {
		if got := lifecycle.IsBotLogin(login); got != want {
			t.Errorf("IsBotLogin(%q) = %v, want %v", login, got, want)
		}
	}
}

func TestSummarizeNoticeInTheSameSecondAsItsLabel(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 19, 17, 53, 40, 0, time.UTC)
	events := []lifecycle.Event{
		{Kind: lifecycle.Commented, At: at, Actor: "github-actions[bot]", Bot: true, Notice: lifecycle.StaleNotice, MarkedAt: at},
		{Kind: lifecycle.Labeled, At: at, Actor: "github-actions[bot]", Bot: true, Label: "stale"},
	}
	a := lifecycle.Summarize(lifecycle.PR{Author: "alice"}, events, "stale", []string{"github-actions[bot]"})
	if !a.MarkedAt.Equal(at) || !a.NoticeAt.Equal(at) {
		t.Fatalf("MarkedAt %v NoticeAt %v: a notice listed before its label in the same second must count", a.MarkedAt, a.NoticeAt)
	}
}

// TestSummarizeTouchedAt: what activity-from: anyone counts, the history
// tells without the mark that moved updated_at: a bot's comment counts, the
// stale label going on (with our label change in its request,
// labels-to-remove-when-stale) and a maintainer deleting our notice do
// not; our label change a day later does.
func TestSummarizeTouchedAt(t *testing.T) {
	t.Parallel()
	events := []lifecycle.Event{
		comment(daysAgo(20), "maintainer"),
		botComment(daysAgo(10), "ci-helper[bot]"),
		asBot(unlabeled(daysAgo(2), selfLogin, "needs-review")),
		asBot(labeled(daysAgo(2), selfLogin, staleLabel)),
		deleted(daysAgo(1), "maintainer", selfLogin),
	}
	a := lifecycle.Summarize(lifecycle.PR{Author: author, CreatedAt: daysAgo(90)}, events, staleLabel, []string{selfLogin})
	if !a.TouchedAt.Equal(daysAgo(10)) {
		t.Errorf("TouchedAt = %s, want the bot's comment, %s", fmtTime(a.TouchedAt), fmtTime(daysAgo(10)))
	}
	later := append(slices.Clone(events), asBot(labeled(daysAgo(1), selfLogin, "author-turn")))
	a = lifecycle.Summarize(lifecycle.PR{Author: author, CreatedAt: daysAgo(90)}, later, staleLabel, []string{selfLogin})
	if !a.TouchedAt.Equal(daysAgo(1)) {
		t.Errorf("TouchedAt = %s, want our label change after the mark, %s", fmtTime(a.TouchedAt), fmtTime(daysAgo(1)))
	}
	if !a.LastEventAt.Equal(daysAgo(1)) || !a.MarkedAt.Equal(daysAgo(2)) {
		t.Errorf("LastEventAt = %s, MarkedAt = %s: the history read wrong", fmtTime(a.LastEventAt), fmtTime(a.MarkedAt))
	}
}

// TestSummarizeTimelineEndingClosed: the rules read open PRs; a history
// ending with a close means it was closed after it was listed (a concurrent
// run closed it), and nothing may be written on the listing's word.
func TestSummarizeTimelineEndingClosed(t *testing.T) {
	t.Parallel()
	marked := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	closed := marked.AddDate(0, 0, 31)
	self := []string{"github-actions[bot]"}
	events := []lifecycle.Event{
		{Kind: lifecycle.Labeled, At: marked, Actor: "github-actions[bot]", Bot: true, Label: "stale"},
		{Kind: lifecycle.Commented, At: marked, Actor: "github-actions[bot]", Bot: true, Notice: lifecycle.StaleNotice, MarkedAt: marked},
		// Another run's close: its comment, then the label swap and the close.
		{Kind: lifecycle.Commented, At: closed, Actor: "github-actions[bot]", Bot: true, Notice: lifecycle.CloseNotice},
		{Kind: lifecycle.Unlabeled, At: closed, Actor: "github-actions[bot]", Bot: true, Label: "stale"},
		{Kind: lifecycle.Labeled, At: closed, Actor: "github-actions[bot]", Bot: true, Label: "closed-stale"},
		{Kind: lifecycle.Closed, At: closed, Actor: "github-actions[bot]", Bot: true},
	}
	a := lifecycle.Summarize(lifecycle.PR{Author: "alice"}, events, "stale", self)
	if !a.ClosedNow {
		t.Fatalf("ClosedNow = false for a history ending with a close")
	}
	now := closed.Add(time.Minute)
	pol := lifecycle.Policy{DaysBeforeStale: 90, DaysBeforeClose: 30, StaleLabel: "stale", RemoveStaleWhenUpdated: true}
	pr := lifecycle.PR{Number: 1, Labels: []string{"stale"}, CreatedAt: marked.AddDate(-1, 0, 0), UpdatedAt: marked}
	if d := lifecycle.Decide(pr, &a, now, pol); d.Action != lifecycle.Skip || d.Reason != lifecycle.ReasonClosedSince {
		t.Fatalf("decision %v: a PR closed since it was listed must be left alone, not un-staled or closed again", d)
	}
	events = append(events, lifecycle.Event{Kind: lifecycle.Reopened, At: closed.Add(time.Hour), Actor: "renovate[bot]", Bot: true})
	a = lifecycle.Summarize(lifecycle.PR{Author: "alice"}, events, "stale", self)
	if a.ClosedNow {
		t.Fatal("reopened: ClosedNow = true, want open again")
	}
}

func TestSummarizeClosedBySelf(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	self := []string{"github-actions[bot]"}
	ours := lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: "github-actions[bot]", Bot: true, Notice: lifecycle.CloseNotice}
	forged := ours
	forged.Actor, forged.Bot = "mallory", false
	for _, tc := range []struct {
		name   string
		notice *lifecycle.Event
		by     string
		want   bool
	}{
		{"our closing comment, closed by our login", &ours, "github-actions[bot]", true},
		{"no closing comment: another workflow with our login (actions/stale)", nil, "github-actions[bot]", false},
		{"a person's pasted close marker", &forged, "github-actions[bot]", false},
		{"our closing comment, closed by a person", &ours, "maintainer", false},
		{"our closing comment, closed by another app", &ours, "stale-app[bot]", false},
	} {
		var events []lifecycle.Event
		if tc.notice != nil {
			events = append(events, *tc.notice)
		}
		events = append(events, lifecycle.Event{Kind: lifecycle.Closed, At: at.Add(time.Second), Actor: tc.by})
		if got := lifecycle.Summarize(lifecycle.PR{Author: "alice"}, events, "stale", self).ClosedBySelf; got != tc.want {
			t.Errorf("%s: ClosedBySelf = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPushedAfterMark: our notice records the head commit; a commit that is
// not it or one of its ancestors reached the PR later, whatever its date.
func TestPushedAfterMark(t *testing.T) {
	mark := daysAgo(30)
	commitOf := func(sha string, at time.Time, bot bool, parents ...string) lifecycle.Event {
		return lifecycle.Event{Kind: lifecycle.Committed, At: at, SHA: sha, Parents: parents, Bot: bot}
	}
	marked := func(head string) []lifecycle.Event {
		return []lifecycle.Event{
			commitOf("a1", daysAgo(60), false, "a0"),
			commitOf("a2", daysAgo(50), false, "a1"),
			labeled(mark, selfLogin, staleLabel),
			{Kind: lifecycle.Commented, At: mark, Actor: selfLogin, Notice: lifecycle.StaleNotice, MarkedAt: mark, MarkHead: head},
		}
	}
	tests := []struct {
		name  string
		head  string
		after []lifecycle.Event
		want  bool
	}{
		{"nothing pushed", "a2", nil, false},
		{"a person's commit dated before the mark, pushed after it", "a2", []lifecycle.Event{commitOf("b1", daysAgo(40), false, "a2")}, true},
		{"a bot's merge of the base branch", "a2", []lifecycle.Event{commitOf("m1", daysAgo(1), true, "a2", "main9")}, false},
		{"a person's commit under a bot's merge", "a2", []lifecycle.Event{
			commitOf("b1", daysAgo(40), false, "a2"), commitOf("m1", daysAgo(1), true, "b1", "main9"),
		}, true},
		{"v1's marker, no head recorded: unknown, not activity here", "", []lifecycle.Event{commitOf("b1", daysAgo(40), false, "a2")}, false},
		{"commits a force push left behind before the mark", "a2", []lifecycle.Event{commitOf("x1", daysAgo(55), false, "a0")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := lifecycle.PR{CreatedAt: daysAgo(90), UpdatedAt: daysAgo(2), Author: author, Labels: []string{staleLabel}}
			got := lifecycle.Summarize(pr, append(marked(tt.head), tt.after...), staleLabel, []string{selfLogin})
			if got.PushedAfterMark != tt.want {
				t.Fatalf("PushedAfterMark = %v, want %v", got.PushedAfterMark, tt.want)
			}
			if tt.want && !got.LastPersonAt.Equal(pr.UpdatedAt) {
				t.Errorf("LastPersonAt = %s, want updated_at: the push happened by then", fmtTime(got.LastPersonAt))
			}
		})
	}
}

// TestSummarizeSomeoneElsesMark: rule 4, "someone else's mark". A label our
// notice does not announce is someone else's when a person added it, or when
// the bot that added it commented within minutes of it (actions/stale);
// our own label whose notice a stopped run never posted is ours.
func TestSummarizeSomeoneElsesMark(t *testing.T) {
	t.Parallel()
	m := daysAgo(5)
	const other = "github-actions[bot]" // actions/stale, under a token that is not ours
	tests := []struct {
		name   string
		events []lifecycle.Event
		want   bool
	}{
		{"a person's hand label", []lifecycle.Event{labeled(m, "maya", staleLabel)}, true},
		{"a person's hand label, then our notice: ours now", []lifecycle.Event{
			labeled(m, "maya", staleLabel), staleNotice(m.Add(time.Hour), selfLogin, m),
		}, false},
		{"a bot's comment, then its label", []lifecycle.Event{
			botComment(m.Add(-time.Minute), other), asBot(labeled(m, other, staleLabel)),
		}, true},
		{"a bot's label, then its comment", []lifecycle.Event{
			asBot(labeled(m, other, staleLabel)), botComment(m.Add(time.Minute), other),
		}, true},
		{"a bot's comment long before its label", []lifecycle.Event{
			botComment(m.Add(-time.Hour), other), asBot(labeled(m, other, staleLabel)),
		}, false},
		{"a bot's comment long after its label", []lifecycle.Event{
			asBot(labeled(m, other, staleLabel)), botComment(m.Add(time.Hour), other),
		}, false},
		{"another bot's comment next to the label", []lifecycle.Event{
			asBot(labeled(m, other, staleLabel)), botComment(m.Add(time.Minute), "codecov[bot]"),
		}, false},
		{"our label, no notice (a run stopped between): ours", []lifecycle.Event{
			asBot(labeled(m, selfLogin, staleLabel)),
		}, false},
		{"our label and our notice", []lifecycle.Event{
			asBot(labeled(m, selfLogin, staleLabel)), staleNotice(m, selfLogin, m),
		}, false},
		{"a pasted notice does not make a hand label ours", []lifecycle.Event{
			labeled(m, "maya", staleLabel), staleNotice(m.Add(time.Hour), "mallory", m),
		}, true},
		{"taking the label off forgets the mark", []lifecycle.Event{
			labeled(m, "maya", staleLabel), unlabeled(m.Add(time.Hour), "maya", staleLabel),
		}, false},
		{"a new label after our notice starts over", []lifecycle.Event{
			asBot(labeled(daysAgo(9), selfLogin, staleLabel)), staleNotice(daysAgo(9), selfLogin, daysAgo(9)),
			unlabeled(daysAgo(8), "bob", staleLabel), labeled(m, "maya", staleLabel),
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lifecycle.Summarize(lifecycle.PR{Author: author}, tt.events, staleLabel, []string{selfLogin})
			if got.ForeignMark != tt.want {
				t.Errorf("ForeignMark = %v, want %v", got.ForeignMark, tt.want)
			}
		})
	}
}

// TestSummarizeExplainsUpdatedAt: rule 3, "when in doubt, it is activity".
// Summarize reads the listing's updated_at itself: what the history does not
// explain is a person's, with no second step for a caller to forget.
func TestSummarizeExplainsUpdatedAt(t *testing.T) {
	t.Parallel()
	m := daysAgo(10)
	marked := []lifecycle.Event{labeled(m, selfLogin, staleLabel), staleNotice(m, selfLogin, m)}
	tests := []struct {
		name      string
		updatedAt time.Time
		events    []lifecycle.Event
		wantAt    time.Time
		wantLogin string
	}{
		{"updated_at within slack of the last event: nothing more", m.Add(30 * time.Second), marked, time.Time{}, ""},
		{"updated_at after everything: a person's then, who unknown", daysAgo(1), marked, daysAgo(1), ""},
		{"a person's comment explains it", daysAgo(1), append(slices.Clone(marked), comment(daysAgo(1), "bob")), daysAgo(1), "bob"},
		{"a later person's activity wins over an earlier unexplained update", daysAgo(2),
			append(slices.Clone(marked), comment(daysAgo(1), "bob")), daysAgo(1), "bob"},
		{"no listing (zero updated_at): nothing to explain", time.Time{}, marked, time.Time{}, ""},
		// A deleted comment is an event of its own.
		{"a maintainer deleting our notice explains it, and is nobody's activity", daysAgo(1),
			[]lifecycle.Event{labeled(m, selfLogin, staleLabel), deleted(daysAgo(1), "maint", selfLogin)}, time.Time{}, ""},
		{"deleting a person's comment is the deleter's activity", daysAgo(1),
			append(slices.Clone(marked), deleted(daysAgo(1), "maint", "bob")), daysAgo(1), "maint"},
		{"deleting our comment by a login not ours (a quote's author) is activity", daysAgo(1),
			append(slices.Clone(marked), deleted(daysAgo(1), "maint", "stalepr")), daysAgo(1), "maint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := lifecycle.PR{Author: author, CreatedAt: daysAgo(90), UpdatedAt: tt.updatedAt}
			got := lifecycle.Summarize(pr, tt.events, staleLabel, []string{selfLogin})
			if !got.LastPersonAt.Equal(tt.wantAt) || got.LastPersonLogin != tt.wantLogin {
				t.Errorf("last person %s by %q, want %s by %q", fmtTime(got.LastPersonAt), got.LastPersonLogin, fmtTime(tt.wantAt), tt.wantLogin)
			}
		})
	}
}
