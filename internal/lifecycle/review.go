package lifecycle

import (
	"sort"
	"strings"
	"time"
)

// MatchLogin reports whether login matches pattern, ignoring letter case as
// GitHub does for logins. A "*" in pattern matches any run of characters
// (none included), so "*[bot]" matches every GitHub App and "dependabot*"
// both "dependabot" and "dependabot[bot]"; no other character is special.
func MatchLogin(pattern, login string) bool {
	p := strings.ToLower(strings.TrimSpace(pattern))
	s := strings.ToLower(strings.TrimSpace(login))
	if p == "" {
		return false
	}
	// Greedy wildcard match with one backtracking point: linear in
	// practice, never exponential on patterns such as "a*a*a*b".
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case pi < len(p) && p[pi] == s[si]:
			pi++
			si++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

func matchAny(patterns []string, login string) bool {
	if login == "" {
		return false
	}
	for _, p := range patterns {
		if MatchLogin(p, login) {
			return true
		}
	}
	return false
}

// Review states, as GitHub's reviews listing spells them (the timeline
// spells them in lower case; Approved accepts both).
const (
	ReviewStateApproved         = "APPROVED"
	ReviewStateChangesRequested = "CHANGES_REQUESTED"
	ReviewStateDismissed        = "DISMISSED"
	ReviewStateCommented        = "COMMENTED"
)

// ReviewDecisionApproved is GitHub's reviewDecision of an approved PR.
const ReviewDecisionApproved = "APPROVED"

// MergeableConflicting is GitHub's mergeable state of a PR in conflict
// with its base; MergeableMergeable of one that merges.
const (
	MergeableConflicting = "CONFLICTING"
	MergeableMergeable   = "MERGEABLE"
)

// Review is one submitted review of a PR.
type Review struct {
	Reviewer string
	State    string // ReviewStateApproved, ReviewStateChangesRequested, ReviewStateDismissed or ReviewStateCommented
	At       time.Time
}

// Approved reports whether the PR is approved as GitHub's reviewDecision
// has it: some reviewer's latest review other than a plain comment is an
// approval, and no reviewer's latest one requests changes (a PR waiting on
// its author's changes is not waiting on maintainers). A dismissed review
// is a DISMISSED one (GitHub rewrites its state) and counts as neither; a
// comment changes nothing, as in GitHub's merge box. Reviews with the same
// time keep their order in the slice (GitHub lists them oldest first).
func Approved(reviews []Review) bool {
	rs := append([]Review(nil), reviews...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].At.Before(rs[j].At) })
	latest := map[string]string{}
	for _, r := range rs {
		state := strings.ToUpper(r.State)
		if r.Reviewer == "" || state == ReviewStateCommented || state == "PENDING" {
			continue
		}
		latest[strings.ToLower(r.Reviewer)] = state
	}
	return approvalStands(latest)
}
