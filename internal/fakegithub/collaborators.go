package fakegithub

import "strings"

// This file is the fake's permission model: the repository role of each
// collaborator, which GraphQL's PullRequestReview.authorCanPushToRepository
// reads. (REST's GET /repos/{owner}/{repo}/collaborators/{username}/permission
// is not served: no client call needs it yet.)

// SetPermission gives login a repository role: "admin", "maintain",
// "write", "triage" or "read"; "" removes it (not a collaborator). The
// repository's owner is always an admin.
func (s *Server) SetPermission(login, role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.permissions == nil {
		s.permissions = map[string]string{}
	}
	if role == "" {
		delete(s.permissions, strings.ToLower(login))
		return
	}
	s.permissions[strings.ToLower(login)] = role
}

// roleOf is login's repository role, "" for none.
func (s *Server) roleOf(login string) string {
	if strings.EqualFold(login, s.owner) {
		return "admin"
	}
	return s.permissions[strings.ToLower(login)]
}

// canPush: write, maintain and admin may push.
func (s *Server) canPush(login string) bool {
	switch s.roleOf(login) {
	case "write", "maintain", "admin":
		return true
	}
	return false
}
