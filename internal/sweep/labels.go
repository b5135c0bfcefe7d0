package sweep

import (
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Label-set arithmetic, and the days since a time.

func daysSince(t, now time.Time) int {
	if t.IsZero() {
		return 0
	}
	return int(now.Sub(t) / lifecycle.Day)
}

func without(labels, drop []string) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if !lifecycle.ContainsFold(drop, l) {
			out = append(out, l)
		}
	}
	return out
}

func union(labels, add []string) []string {
	out := append([]string(nil), labels...)
	for _, l := range add {
		if !lifecycle.ContainsFold(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// sameLabels reports whether a and b hold the same labels, in any order,
// compared ignoring case as GitHub names them.
func sameLabels(a, b []string) bool {
	return len(union(nil, a)) == len(union(nil, b)) && len(without(a, b)) == 0 && len(without(b, a)) == 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// labelAsOn returns the label as spelled on the PR, which the delete route
// needs, found case-insensitively.
func labelAsOn(pr lifecycle.PR, label string) string {
	for _, l := range pr.Labels {
		if strings.EqualFold(l, label) {
			return l
		}
	}
	return label
}
