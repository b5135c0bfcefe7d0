package sweep

import "github.com/stalepr/stalepr/internal/lifecycle"

// quietStart notes a run that falls in a quiet period (README: "The
// rules", quiet periods): lifecycle holds its marks, notices, closes and
// nudges, so it says so first; un-stales and label clean-ups go on.
func (s *sweeper) quietStart() {
	if !s.pol.Quiet.Paused(s.now) {
		return
	}
	s.res.QuietUntil = s.pol.Quiet.Resume(s.now)
	s.log.Printf("quiet period (quiet-periods) until %s: this run marks, closes and nudges nothing; un-stales and label clean-ups go on",
		s.res.QuietUntil.UTC().Format("2006-01-02 15:04 UTC"))
}

// noteHeld records whether a PR's latest decision is one a quiet period
// holds: a PR decided twice (from the listing, then from its timeline)
// counts once, as its last decision says.
func (s *sweeper) noteHeld(number int, d lifecycle.Decision) {
	if s.res.QuietUntil.IsZero() {
		return // not in a quiet period: nothing is held
	}
	if s.held == nil {
		s.held = map[int]bool{}
	}
	s.held[number] = d.Reason == lifecycle.ReasonQuiet
}

// heldCount is how many PRs the run held for a quiet period's end.
func (s *sweeper) heldCount() int {
	n := 0
	for _, h := range s.held {
		if h {
			n++
		}
	}
	return n
}
