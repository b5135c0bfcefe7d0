package fakegithub

import (
	"fmt"
	"strings"
	"time"
)

// Accounts' GitHub status (User.status): what an account says of itself,
// busy (indicatesLimitedAvailability) until expiresAt, as GraphQL serves it
// to user(login:). The fake knows every login but those SetUserGone names.

// userStatus is one account's status.
type userStatus struct {
	login   string
	busy    bool
	expires time.Time // zero: no end set
	message string
}

// SetStatus sets login's GitHub status: busy or not, until expires (zero:
// no end). GitHub hides a status once it expired; the fake keeps serving
// it, so that a reader's own check of expiresAt is what a test exercises.
func (s *Server) SetStatus(login string, busy bool, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statuses == nil {
		s.statuses = map[string]userStatus{}
	}
	msg := "Around"
	if busy {
		msg = "On leave"
	}
	s.statuses[strings.ToLower(login)] = userStatus{login: login, busy: busy, expires: expires, message: msg}
	s.db.version++
}

// SetUserGone makes login an account GitHub no longer knows (deleted, or
// renamed): user(login:) is null, with a NOT_FOUND error on its path.
func (s *Server) SetUserGone(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone == nil {
		s.gone = map[string]bool{}
	}
	s.gone[strings.ToLower(login)] = true
	s.db.version++
}

// userResolve is Query.user: the account, null for one gone.
func userResolve(x *gexec, _ any, args map[string]any) (any, error) {
	login := strArg(args, "login")
	if x.s.gone[strings.ToLower(login)] {
		return nil, &gqlFieldError{"NOT_FOUND", fmt.Sprintf("Could not resolve to a User with the login of '%s'.", login)}
	}
	return gobj{"User", actor{login}}, nil
}

// userResolvers are the User's: an actor's fields and its status.
var userResolvers = map[string]resolver{
	"id":    actorResolvers["id"],
	"login": actorResolvers["login"],
	"status": func(x *gexec, src any, _ map[string]any) (any, error) {
		st, ok := x.s.statuses[strings.ToLower(src.(actor).login)]
		if !ok {
			return nil, nil // no status set
		}
		return gobj{"UserStatus", st}, nil
	},
}

var userStatusResolvers = map[string]resolver{
	"id":                           field(func(u userStatus) any { return nodeID("US", userID(u.login)) }),
	"indicatesLimitedAvailability": field(func(u userStatus) any { return u.busy }),
	"expiresAt": field(func(u userStatus) any {
		if u.expires.IsZero() {
			return nil
		}
		return ts(u.expires)
	}),
	"message": field(func(u userStatus) any { return u.message }),
}
