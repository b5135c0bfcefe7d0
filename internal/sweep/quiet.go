package sweep

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
