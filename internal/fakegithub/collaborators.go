package fakegithub

import (
	"sort"
	"strings"
)

// Repository permissions: GET /repos/{owner}/{repo}/collaborators/{username}/permission,
// which tells whether an account is a maintainer (write, maintain, admin).

// SetPermission gives login a role on the repository: "admin", "maintain",
// "write", "triage" or "read" ("" forgets it). Without one, the owner is
// admin, a member (AddMember) has write, and anyone else is no
// collaborator (404), as GitHub answers.
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

// roleLocked is login's role on the repository; "" when it is no collaborator.
func (s *Server) roleLocked(login string) string {
	key := strings.ToLower(login)
	switch {
	case s.permissions[key] != "":
		return s.permissions[key]
	case strings.EqualFold(login, s.owner):
		return "admin"
	case s.members[key]:
		return "write"
	}
	return ""
}

// collaboratorPermissionJSON is GitHub's repository-collaborator-permission.
type collaboratorPermissionJSON struct {
	Permission string           `json:"permission"` // the legacy word: maintain reads write, triage read
	RoleName   string           `json:"role_name"`
	User       collaboratorJSON `json:"user"`
}

// collaboratorJSON is GitHub's collaborator: a user with its permissions.
type collaboratorJSON struct {
	userJSON
	Permissions map[string]bool `json:"permissions"`
	RoleName    string          `json:"role_name"`
}

// legacyPermission is the permission field's word for a role.
var legacyPermission = map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read"}

func (h rest) getPermission(c *call) reply {
	login := c.params["username"]
	role := h.s.roleLocked(login)
	if role == "" {
		return notFound()
	}
	rank := map[string]int{"read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}[role]
	perms := map[string]bool{"pull": rank >= 1, "triage": rank >= 2, "push": rank >= 3, "maintain": rank >= 4, "admin": rank >= 5}
	return ok(collaboratorPermissionJSON{
		Permission: legacyPermission[role], RoleName: role,
		User: collaboratorJSON{userJSON: c.user(userFor(login)), Permissions: perms, RoleName: role},
	})
}

// canPush: write, maintain and admin may push (GraphQL's
// PullRequestReview.authorCanPushToRepository).
func (x *gexec) canPush(login string) bool {
	switch x.s.roleLocked(login) {
	case "write", "maintain", "admin":
		return true
	}
	return false
}

// SetCollaboratorsForbidden makes Repository.collaborators answer as GitHub
// does to a token that may not list them: null, with a FORBIDDEN error on
// its path.
func (s *Server) SetCollaboratorsForbidden(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.collaboratorsForbidden = on
}

// collaborator is one edge of Repository.collaborators.
type collaborator struct {
	key   []int64
	login string
	role  string
}

// collaboratorItems are the accounts with a role on the repository (the
// owner, the members, SetPermission's), by login, as
// Repository.collaborators(affiliation: ALL) lists them.
func (x *gexec) collaboratorItems() []item {
	roles := map[string]string{}
	roles[x.s.owner] = "admin"
	for m := range x.s.members {
		roles[m] = "write"
	}
	for login, role := range x.s.permissions {
		roles[login] = role
	}
	logins := make([]string, 0, len(roles))
	for l := range roles {
		logins = append(logins, l)
	}
	sort.Strings(logins)
	items := make([]item, len(logins))
	for i, l := range logins {
		key := []int64{int64(i)}
		items[i] = item{key: key, v: collaborator{key: key, login: l, role: x.s.roleLocked(l)}}
	}
	return items
}
