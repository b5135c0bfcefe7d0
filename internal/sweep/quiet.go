package sweep

import "time"

// quietUntil is when the quiet period the run falls in ends (README: "The
// rules", quiet periods), zero when it falls in none: lifecycle holds its
// marks, notices, closes and nudges, so the run says so first; un-stales
// and label clean-ups go on.
func quietUntil(s *settings) time.Time {
	if !s.pol.Quiet.Paused(s.now) {
		return time.Time{}
	}
	until := s.pol.Quiet.Resume(s.now)
	s.log.Printf("quiet period (quiet-periods) until %s: this run marks, closes and nudges nothing; un-stales and label clean-ups go on",
		until.UTC().Format("2006-01-02 15:04 UTC"))
	return until
}
