package fakegithub

import "time"

// AddMember makes logins members of the organisation: their comments,
// reviews and review comments carry author_association MEMBER, as a
// maintainer's do.
func (s *Server) AddMember(logins ...string) { s.addMember(logins...) }

// ConvertToDraft turns a pull request into a draft as u
// (convert_to_draft event).
func (s *Server) ConvertToDraft(n int, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.mustGet(n)
	rec.Draft = true
	s.addEventLocked(rec, Event{Type: EventConvertToDraft, Actor: u, At: at})
}
