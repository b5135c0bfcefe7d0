package sweep

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// What an operation's texts and its reported Item say of a PR, and the
// label-set arithmetic its steps use.

// vars are the placeholders' values in the texts posted on a PR.
func (s *sweeper) vars(p op) notice.Vars {
	v := notice.Vars{
		Author:          p.pr.Author,
		DaysInactive:    daysSince(p.d.InactiveSince, s.now),
		DaysBeforeStale: s.pol.DaysBeforeStale,
		DaysBeforeClose: s.pol.DaysBeforeClose,
		CloseDate:       p.d.CloseAt,
		StaleLabel:      s.pol.StaleLabel,
		Labels:          p.pr.Labels,
	}
	if p.out == Nudged && (p.pr.AuthorBot || lifecycle.IsBotLogin(p.pr.Author) || lifecycle.ContainsFold(s.pol.BotAccounts, p.pr.Author)) {
		// No bot is ever mentioned in a nudge: a mention of @Copilot can
		// start the coding agent. (Pending reviewers hold no bot.)
		v.Author = ""
	}
	if p.act != nil {
		v.Reviewers = p.act.PendingReviewers
		// On the author's turn the clock runs from the author's last
		// action when that is later than the turn's start: the notice's
		// numbers say what the rules counted.
		clock := p.act.Turn.ClockFrom()
		v.DaysWaiting = daysSince(clock, s.now)
		v.TurnSince, v.TurnBy, v.TurnByReview = clock, p.act.Turn.By, p.act.Turn.ByReview
		v.TurnLabel, v.TurnConflict = p.act.Turn.Label, p.act.Turn.Conflict
		if p.out == Closed {
			// Our mark and notice are not activity: count from the last
			// thing a person did, or from the PR's creation.
			v.DaysInactive = daysSince(lifecycle.Later(p.pr.CreatedAt, p.act.LastPersonAt), s.now)
		}
	}
	return v
}

func (s *sweeper) item(p op) Item {
	it := Item{
		Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL,
		Action: p.d.Action, Reason: p.d.Reason,
		LastActivity: p.d.InactiveSince, InactiveDays: daysSince(p.d.InactiveSince, s.now),
		CloseAt:   s.pol.Due(p.d.CloseAt, s.now), // a close a quiet period holds: at its end
		Dashboard: p.issue != nil,
	}
	return it
}

func (s *sweeper) fail(pr lifecycle.PR, err error) {
	s.failItem(Item{Number: pr.Number, Title: pr.Title, URL: pr.URL, Action: lifecycle.Skip}, err)
}

// failItem records a PR left untouched because of err. (ghapi keeps the
// token out of every error it returns.)
func (s *sweeper) failItem(it Item, err error) {
	it.Err, it.Outcome = err.Error(), Failed
	cause := failCause(it)
	if s.causes == nil {
		s.causes = map[string]int{}
	}
	if first, ok := s.causes[cause]; ok {
		it.SameAs = first
	} else {
		s.causes[cause] = it.Number
	}
	s.record(it)
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
