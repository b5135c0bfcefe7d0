package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestMatchLogin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, login string
		want           bool
	}{
		{"dependabot[bot]", "dependabot[bot]", true},
		{"Dependabot[BOT]", "dependabot[bot]", true}, // logins ignore case
		{"*[bot]", "dependabot[bot]", true},
		{"*[bot]", "renovate[bot]", true},
		{"*[bot]", "github-actions[bot]", true},
		{"*[bot]", "botanist", false},
		{"*[bot]", "[bot]x", false},
		{"dependabot*", "dependabot", true}, // * matches nothing too
		{"dependabot*", "dependabot[bot]", true},
		{"dependabot*", "my-dependabot", false},
		{"*bot*", "robotics", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
		{"a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false}, // no exponential backtracking
		{"*", "anyone", true},
		{"alice", "alice2", false},
		{"alice", "bob", false},
		{"  alice ", "alice", true}, // list items arrive untrimmed from YAML blocks
		{"", "alice", false},        // an empty pattern exempts nobody
		{"*", "", true},
		{"al?ce", "alice", false}, // only * is special
		{"al.ce", "alice", false},
		{"ali[c]e", "alice", false},
	}
	for _, tt := range tests {
		if got := lifecycle.MatchLogin(tt.pattern, tt.login); got != tt.want {
			t.Errorf("MatchLogin(%q, %q) = %v, want %v", tt.pattern, tt.login, got, tt.want)
		}
	}
}

func TestApproved(t *testing.T) {
	t.Parallel()
	at := func(d int) time.Time { return now.Add(-time.Duration(d) * time.Hour) }
	r := func(who, state string, hoursAgo int) lifecycle.Review {
		return lifecycle.Review{Reviewer: who, State: state, At: at(hoursAgo)}
	}
	const (
		approved  = lifecycle.ReviewStateApproved
		changes   = lifecycle.ReviewStateChangesRequested
		dismissed = lifecycle.ReviewStateDismissed
		commented = lifecycle.ReviewStateCommented
	)
	tests := []struct {
		name    string
		reviews []lifecycle.Review
		want    bool
	}{
		{"no reviews", nil, false},
		{"one approval", []lifecycle.Review{r("bob", approved, 5)}, true},
		{"only comments", []lifecycle.Review{r("bob", commented, 5), r("carol", commented, 4)}, false},
		{"approval, then a comment by the same reviewer: still approved",
			[]lifecycle.Review{r("bob", approved, 5), r("bob", commented, 1)}, true},
		{"approval dismissed (GitHub rewrites its state)", []lifecycle.Review{r("bob", dismissed, 5)}, false},
		{"approval, then a change request by the same reviewer",
			[]lifecycle.Review{r("bob", approved, 5), r("bob", changes, 2)}, false},
		{"change request, then approval by the same reviewer",
			[]lifecycle.Review{r("bob", changes, 5), r("bob", approved, 2)}, true},
		// GitHub's reviewDecision: any reviewer's standing change request
		// makes the PR wait on its author, whoever approved.
		{"change request by one reviewer, later approval by another: changes still requested",
			[]lifecycle.Review{r("bob", changes, 5), r("carol", approved, 2)}, false},
		{"approval by one reviewer, later change request by another: waits on the author",
			[]lifecycle.Review{r("carol", approved, 5), r("bob", changes, 2)}, false},
		{"approval by one, change request by another, then that one approves: approved",
			[]lifecycle.Review{r("carol", approved, 5), r("bob", changes, 3), r("bob", approved, 1)}, true},
		{"approval by one, another's change request dismissed: the approval stands",
			[]lifecycle.Review{r("carol", approved, 5), r("bob", dismissed, 3)}, true},
		{"approval by one, another's change request, then a comment by that one: still waits on the author",
			[]lifecycle.Review{r("carol", approved, 5), r("bob", changes, 3), r("bob", commented, 1)}, false},
		{"approval dismissed, then approved again", []lifecycle.Review{r("bob", dismissed, 5), r("bob", approved, 1)}, true},
		{"approval, then the reviewer's later review dismissed",
			[]lifecycle.Review{r("bob", approved, 5), r("bob", dismissed, 1)}, false},
		{"out of order input: the time decides",
			[]lifecycle.Review{r("bob", changes, 1), r("bob", approved, 5)}, false},
		{"logins compared ignoring case",
			[]lifecycle.Review{r("Bob", approved, 5), r("bob", changes, 1)}, false},
		{"timeline spelling (lower case)", []lifecycle.Review{r("bob", "approved", 5)}, true},
		{"timeline spelling: dismissed", []lifecycle.Review{r("bob", "dismissed", 5)}, false},
		{"pending (unsubmitted) review changes nothing",
			[]lifecycle.Review{r("bob", approved, 5), r("bob", "PENDING", 1)}, true},
		{"review without a reviewer (deleted account) is ignored",
			[]lifecycle.Review{r("", approved, 5)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lifecycle.Approved(tt.reviews); got != tt.want {
				t.Errorf("Approved = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApprovedSameInstantKeepsOrder(t *testing.T) {
	t.Parallel()
	// Two reviews in the same second: GitHub lists them oldest first.
	reviews := []lifecycle.Review{
		{Reviewer: "bob", State: lifecycle.ReviewStateApproved, At: now},
		{Reviewer: "bob", State: lifecycle.ReviewStateChangesRequested, At: now},
	}
	if lifecycle.Approved(reviews) {
		t.Error("Approved = true, want false: the change request is listed after the approval")
	}
	reviews[0], reviews[1] = reviews[1], reviews[0]
	if !lifecycle.Approved(reviews) {
		t.Error("Approved = false, want true: the approval is listed after the change request")
	}
}

func TestDecideNewExemptions(t *testing.T) { // exempt-pr-authors, only-draft-pr, close-action draft
	old := daysAgo(60)
	due := marked(daysAgo(20))
	pol := func(f func(*lifecycle.Policy)) lifecycle.Policy { return policy(f) }
	by := func(login string) func(*lifecycle.PR) { return func(p *lifecycle.PR) { p.Author = login } }
	draft := func(p *lifecycle.PR) { p.Draft = true }
	runDecide(t, []decideCase{
		{
			name: "exempt-pr-authors *[bot]: a Dependabot PR is skipped",
			pr:   with(pr(old), by("dependabot[bot]")), policy: pol(func(p *lifecycle.Policy) { p.ExemptAuthors = []string{"*[bot]"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptAuthor,
		},
		{
			name: "exempt-pr-authors: an already stale PR due for closing is skipped",
			pr:   with(pr(old, staleLabel), by("Renovate[bot]")), act: due, policy: pol(func(p *lifecycle.Policy) { p.ExemptAuthors = []string{"renovate[bot]"} }),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptAuthor,
		},
		{
			name: "exempt-pr-authors: another author is marked",
			pr:   pr(old), policy: pol(func(p *lifecycle.Policy) { p.ExemptAuthors = []string{"*[bot]", "bob"} }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "only-draft-pr: a ready PR is skipped",
			pr:   pr(old), policy: pol(func(p *lifecycle.Policy) { p.OnlyDraft = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonNotDraft,
		},
		{
			name: "only-draft-pr: an inactive draft is marked",
			pr:   with(pr(old), draft), policy: pol(func(p *lifecycle.Policy) { p.OnlyDraft = true }),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive,
		},
		{
			name: "exempt-draft-pr: a stale-labelled draft is skipped with close-action close",
			pr:   with(pr(old, staleLabel), draft), act: due, policy: pol(func(p *lifecycle.Policy) { p.ExemptDraft = true }),
			want: lifecycle.Skip, reason: lifecycle.ReasonDraft,
		},
		{
			name: "exempt-draft-pr with close-action draft: a stale-labelled draft (a conversion cut short) is finished",
			pr:   with(pr(old, staleLabel), draft), act: due,
			policy: pol(func(p *lifecycle.Policy) { p.ExemptDraft = true; p.CloseAction = lifecycle.CloseToDraft }),
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDue,
		},
		{
			name:   "exempt-draft-pr with close-action draft: an unlabelled draft is still skipped",
			pr:     with(pr(old), draft),
			policy: pol(func(p *lifecycle.Policy) { p.ExemptDraft = true; p.CloseAction = lifecycle.CloseToDraft }),
			want:   lifecycle.Skip, reason: lifecycle.ReasonDraft,
		},
	})
}
