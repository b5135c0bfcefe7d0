package sweep

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// What an operation's texts and its reported Item say of a PR, and the
// label-set arithmetic its steps use.

func (x *executor) item(p op) Item {
	it := Item{
		Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL,
		Action: p.d.Action, Reason: p.d.Reason,
		LastActivity: p.d.InactiveSince, InactiveDays: daysSince(p.d.InactiveSince, x.now),
		OnAuthorsTurn: x.pol.StaleClock == lifecycle.ClockAuthorTurn,
		Unmarked:      p.out == Closed && p.d.MarkedAt.IsZero(),
		CloseAt:       x.pol.Due(p.d.CloseAt, x.now), // a close a quiet period holds: at its end
		Dashboard:     p.issue != nil,
		Branch:        x.w.deleted[p.pr.Number],
	}
	return it
}

func (x *executor) fail(pr lifecycle.PR, err error) {
	x.failItem(Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Skip}, err)
}

// failItem records a PR left untouched because of err. (ghapi keeps the
// token out of every error it returns.)
func (x *executor) failItem(it Item, err error) {
	it.Err, it.Outcome = err.Error(), Failed
	cause := failCause(it)
	if x.causes == nil {
		x.causes = map[string]int{}
	}
	if first, ok := x.causes[cause]; ok {
		it.SameAs = first
	} else {
		x.causes[cause] = it.Number
	}
	x.record(it)
}

// failCause is a failure's error less the PR's own number (in "#12" and
// in a URL's /12/), so that the same answer to the same request on two
// PRs is one cause.
func failCause(it Item) string {
	own := regexp.MustCompile(`([#/])` + strconv.Itoa(it.Number) + `($|[^0-9])`)
	return own.ReplaceAllString(it.Err, "${1}N${2}")
}

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
