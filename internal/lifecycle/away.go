package lifecycle

import (
	"strings"
	"time"
)

// Busy is a reviewer whose GitHub status says busy (User.status
// indicatesLimitedAvailability), as the sweep read it this run. Until is
// the status's expiresAt: from then on it counts for nothing; zero when
// the status sets no end.
type Busy struct {
	Login string
	Until time.Time
}

// At reports whether the status still says busy at now.
func (b Busy) At(now time.Time) bool { return b.Until.IsZero() || now.Before(b.Until) }

// AwayFrom splits logins into those present and those listed away
// (away-reviewers). A team is never away: someone in it may answer.
func (p Policy) AwayFrom(logins []string) (present, away []string) {
	for _, l := range logins {
		if ContainsFold(p.AwayReviewers, l) {
			away = append(away, l)
		} else {
			present = append(present, l)
		}
	}
	return present, away
}

// Available splits the reviewers a PR waits on (Activity.WaitsOn) into
// those a nudge asks, those listed away (away-reviewers) and those whose
// GitHub status says busy at now (Activity.Busy; one listed away is away
// only). A status not read is no status: the reviewer is asked.
func (p Policy) Available(pr PR, act *Activity, now time.Time) (present, away, busy []string) {
	if act == nil {
		return nil, nil, nil
	}
	present, away = p.AwayFrom(act.WaitsOn(pr.Author))
	if len(act.Busy) == 0 {
		return present, away, nil
	}
	asked := present[:0:0]
	for _, l := range present {
		if act.busyAt(l, now) {
			busy = append(busy, l)
		} else {
			asked = append(asked, l)
		}
	}
	return asked, away, busy
}

// busyAt reports whether login's GitHub status, as read, says busy at now.
func (a *Activity) busyAt(login string, now time.Time) bool {
	for _, b := range a.Busy {
		if strings.EqualFold(b.Login, login) && b.At(now) {
			return true
		}
	}
	return false
}

// nobodyToAsk reports whether a PR's reviewers' turn has nobody a nudge
// could ask: every reviewer it waits on (Activity.WaitsOn) is away or busy
// on GitHub at now, or it waits on nobody since a reviewer withdrew their
// own request (Activity.Withdrew). No nudge is posted and the escalation,
// when on, goes on at once. A PR that waits on nobody in particular, with
// no withdrawal, is not: its nudge reminds whoever reads it.
func nobodyToAsk(pr PR, act *Activity, now time.Time, p Policy) bool {
	if len(p.AwayReviewers) == 0 && len(act.Busy) == 0 && len(act.Withdrew) == 0 {
		return false
	}
	present, away, busy := p.Available(pr, act, now)
	return len(present) == 0 && len(away)+len(busy)+len(act.Withdrew) > 0
}
