package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// identity is who the token acts as, as this run learnt it: a listing
// page's viewer, the author GitHub gave a comment this run posted
// (GitHub.WroteAs), or GitHub's answer when asked, once a run. Only
// comments by this login carry our markers (the workflow's GITHUB_TOKEN
// writes as github-actions[bot], an app's token as its own bot, a
// personal token as its user), never those of another bot or of a person
// quoting one; and the stale label's own changes are ours or someone
// else's mark.
type identity struct {
	gh  identityGitHub
	log Logger

	login string // "" until GitHub told
	asked bool   // GitHub was asked (Viewer), once a run
	err   error  // why GitHub did not tell
}

// told records a login GitHub named for the token; "" tells nothing.
func (id *identity) told(login string) {
	if id.login == "" && login != "" {
		id.login, id.err = login, nil
	}
}

// logins is the identity as lifecycle's rules take it: none until known.
func (id *identity) logins() []string {
	if id.login == "" {
		return nil
	}
	return []string{id.login}
}

// learnFor makes sure the identity is known before events that depend on
// it are read: GitHub is asked only when such an event shows up. When it
// does not answer, every PR whose history holds one fails with
// errIdentityUnknown and is left as it is: read wrong, our own notice
// would count as a person's comment and un-stale it, or a quote would
// close it.
func (id *identity) learnFor(ctx context.Context, events []lifecycle.Event, staleLabel string) error {
	if id.login != "" || !needsIdentity(events, staleLabel) {
		return nil
	}
	return id.learn(ctx)
}

// learn learns who the token acts as, asking GitHub once per run at most;
// the error says why it is not known.
func (id *identity) learn(ctx context.Context) error {
	if id.login != "" {
		return nil
	}
	if login := id.gh.WroteAs(); login != "" {
		id.told(login) // GitHub named the author of a comment this run posted
		return nil
	}
	if id.asked {
		return id.err // GitHub did not tell; once per run
	}
	id.asked = true
	login, err := id.gh.Viewer(ctx)
	switch {
	case err == nil:
		id.told(login)
		return nil
	case api.IsStop(err):
		id.err = err // the run stops: nothing more is decided
		return err
	}
	id.log.Printf("could not learn who the token acts as: the pull requests whose history holds a stalepr marker or stale label are left untouched this run: %s", err)
	id.err = fmt.Errorf("%w, so stalepr's own markers cannot be told from a quote: left untouched, the next run asks again (%w)", errIdentityUnknown, err)
	return id.err
}

// needsIdentity reports whether reading events needs to know who we are.
func needsIdentity(events []lifecycle.Event, staleLabel string) bool {
	for _, e := range events {
		switch {
		case e.Actor == "":
		case e.Notice != lifecycle.NoNotice, e.Kind == lifecycle.CommentDeleted:
			return true // a marker, or a deleted comment, is ours only if its author is our identity
		case (e.Kind == lifecycle.Labeled || e.Kind == lifecycle.Unlabeled) && strings.EqualFold(e.Label, staleLabel):
			return true
		}
	}
	return false
}

// errIdentityUnknown means GitHub did not say who the token acts as, so
// stalepr's own markers cannot be told from anyone else's.
var errIdentityUnknown = errors.New("could not learn who the token acts as")
