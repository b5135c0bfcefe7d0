package lifecycle

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

// allAway reports whether every reviewer a PR waits on (Activity.WaitsOn)
// is away: a nudge would ask nobody who can answer, so none is posted and
// the escalation, when on, goes on at once. A PR that waits on nobody in
// particular is not: its nudge reminds whoever reads it.
func allAway(pr PR, act *Activity, p Policy) bool {
	if len(p.AwayReviewers) == 0 {
		return false
	}
	present, away := p.AwayFrom(act.WaitsOn(pr.Author))
	return len(present) == 0 && len(away) > 0
}
