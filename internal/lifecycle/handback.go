package lifecycle

import (
	"strings"
	"time"
)

// Answered is a reviewer whose change request the PR's author has since
// answered. GitHub clears a review request when the review is given, and
// the author's push or reply does not request it again (a fork's author
// cannot), so the reviewer is no longer listed as requested though the PR
// now waits on them.
type Answered struct {
	Reviewer string
	// ReviewedAt is the reviewer's last review, the change request or a
	// comment after it; AnsweredAt the author's first action after it.
	ReviewedAt, AnsweredAt time.Time
}

// changeAsk is one reviewer's standing in handBackFold.
type changeAsk struct {
	login      string
	reviewedAt time.Time // their last review of any kind
	answeredAt time.Time // the author's first action after it; zero when none
	changes    bool      // their latest review other than a comment requests changes
	asked      bool      // a review of them was requested or withdrawn after their last review
}

// handBackFold finds the reviewers whose change request the author
// answered (Activity.Answered): a maintainer's change request still
// standing (no approval or dismissal since), an action of the author after
// their last review (a push, a comment, a reply), and no review request of
// them, or withdrawal of one, since that review. Whoever requested it (the
// author, a maintainer, stalepr) has handed the turn back already, and a
// withdrawal is a person's word that the PR does not wait on them.
type handBackFold struct {
	w     who
	asks  []*changeAsk
	index map[string]*changeAsk // by lower-case login
}

func newHandBackFold(w who) handBackFold {
	return handBackFold{w: w, index: map[string]*changeAsk{}}
}

func (h *handBackFold) add(e Event) {
	switch {
	case e.Kind == Reviewed && !h.w.isBot(e) && !h.w.isAuthor(e.Actor) && h.w.maintainer(e):
		h.reviewed(e)
	case e.Kind == ReviewRequested || e.Kind == ReviewRequestRemoved:
		if c := h.index[strings.ToLower(e.Reviewer)]; c != nil && e.Reviewer != "" {
			c.asked = true
		}
	case h.w.byAuthor(e) && answers(e):
		for _, c := range h.asks {
			if c.changes && c.answeredAt.IsZero() {
				c.answeredAt = e.At
			}
		}
	}
}

// reviewed folds in a maintainer's review: it starts the reviewer's
// standing afresh. A commenting review keeps a change request standing,
// as in GitHub's merge box; an approval or a dismissal ends it.
func (h *handBackFold) reviewed(e Event) {
	key := strings.ToLower(e.Actor)
	c := h.index[key]
	if c == nil {
		c = &changeAsk{login: e.Actor}
		h.index[key] = c
		h.asks = append(h.asks, c)
	}
	c.reviewedAt, c.answeredAt, c.asked = e.At, time.Time{}, false
	switch strings.ToUpper(e.ReviewState) {
	case ReviewStateCommented, "PENDING":
	case ReviewStateChangesRequested:
		c.changes = true
	default:
		c.changes = false
	}
}

// answers reports whether an action of the author answers a change
// request: a push, a comment, a reply to the review. A review request is
// not an answer: it hands the turn back itself.
func answers(e Event) bool {
	switch e.Kind {
	case Committed, ForcePushed, Commented, ReviewCommented, Reviewed:
		return true
	}
	return false
}

// answered is the fold's result: the reviewers in the order they first
// reviewed, less those still pending (listed by GitHub already).
func (h *handBackFold) answered(pending []string) []Answered {
	var out []Answered
	for _, c := range h.asks {
		if c.changes && !c.answeredAt.IsZero() && !c.asked && !ContainsFold(pending, c.login) {
			out = append(out, Answered{Reviewer: c.login, ReviewedAt: c.reviewedAt, AnsweredAt: c.answeredAt})
		}
	}
	return out
}

// WaitsOn is the reviewers a PR waits on, as a review nudge names them:
// the pending review requests, then the reviewers whose change request the
// author answered (Answered). Never the author; never a bot (GitHub's
// pending requests of bots are left out when the history is read).
func (a Activity) WaitsOn(author string) []string {
	var out []string
	add := func(login string) {
		if login != "" && !strings.EqualFold(login, author) && !IsBotLogin(login) && !ContainsFold(Agents, login) && !ContainsFold(out, login) {
			out = append(out, login)
		}
	}
	for _, r := range a.PendingReviewers {
		add(r)
	}
	for _, r := range a.Answered {
		add(r.Reviewer)
	}
	return out
}

// DecideRerequest is the hand-back (rerequest-reviewers-on-answer): the
// reviewers whose change request the author answered get their review
// requested again, once per answer: the request is in the history after
// the answer, so no later run (nor a run stopped after it) asks again.
// Only on the reviewers' turn (a draft or a conflict is still the
// author's), never on a quiet day, never of the author or a bot; exempt
// and filtered-out PRs, and a PR closed since it was listed, are left
// alone, as by Decide. nil when nothing is due.
func DecideRerequest(pr PR, act *Activity, now time.Time, p Policy) []string {
	if !p.RerequestOnAnswer || act == nil || act.ClosedNow || act.Turn.Whose != TurnReviewers || p.Quiet.Paused(now) {
		return nil
	}
	if _, exempt := exemption(pr, p); exempt {
		return nil
	}
	var out []string
	for _, a := range act.Answered {
		if !strings.EqualFold(a.Reviewer, pr.Author) && !p.IsBotOrAgent(a.Reviewer) {
			out = append(out, a.Reviewer)
		}
	}
	return out
}

// StillUnrequested is the part of logins whose change request (answered,
// as Activity.Answered has them) still waits for a request after recent,
// the PR's latest events read afresh just before the request: a review of
// theirs, or a request or withdrawal of one since their last review (a
// concurrent run's request, the author's), means it is no longer due.
func StillUnrequested(logins []string, answered []Answered, recent []Event) []string {
	var out []string
	for _, login := range logins {
		var since time.Time
		found := false
		for _, a := range answered {
			if strings.EqualFold(a.Reviewer, login) {
				since, found = a.ReviewedAt, true
			}
		}
		if found && !touchedSince(login, since, recent) {
			out = append(out, login)
		}
	}
	return out
}

// touchedSince reports whether recent holds, after since, a review by
// login or a review request of login, or its withdrawal.
func touchedSince(login string, since time.Time, recent []Event) bool {
	for _, e := range recent {
		if !e.At.After(since) {
			continue
		}
		switch e.Kind {
		case Reviewed:
			if strings.EqualFold(e.Actor, login) {
				return true
			}
		case ReviewRequested, ReviewRequestRemoved:
			if strings.EqualFold(e.Reviewer, login) {
				return true
			}
		}
	}
	return false
}
