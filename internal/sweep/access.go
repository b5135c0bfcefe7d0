package sweep

import (
	"context"
	"errors"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Who is a maintainer (README "Whose turn it is", who counts): an account
// with write access to the repository, learnt from GitHub at most once per
// account per run, and only for the accounts whose answer changes what the
// run does with a PR; author_association decides where GitHub does not
// tell.

// summarize reads a PR's history with what the run knows of the accounts.
// When an account's write access was unknown and consulted (Unsure), it
// asks GitHub for it only if assuming every such account a maintainer and
// assuming none leads to different decisions; then it reads the history
// again with the answers.
func (ac *access) summarize(ctx context.Context, links *linker, pr lifecycle.PR, events []lifecycle.Event) (lifecycle.Activity, error) {
	o := ac.pol.Options(ac.id.logins())
	o.Access = ac.known
	act := lifecycle.SummarizeWith(pr, events, ac.pol.StaleLabel, o)
	if login := links.access(pr, act); login != "" && !ac.refused {
		// The intake clock holds only a PR whose author may not push:
		// learnt, never assumed.
		if err := ac.learn(ctx, login); err != nil {
			return lifecycle.Activity{}, err
		}
		o.Access = ac.known
		act = lifecycle.SummarizeWith(pr, events, ac.pol.StaleLabel, o)
	}
	if len(act.Unsure) == 0 || ac.refused || !ac.accessMatters(pr, events, o, act) {
		return act, nil
	}
	for _, login := range act.Unsure {
		if err := ac.learn(ctx, login); err != nil {
			return lifecycle.Activity{}, err
		}
	}
	o.Access = ac.known
	return lifecycle.SummarizeWith(pr, events, ac.pol.StaleLabel, o), nil
}

// accessMatters reports whether the decisions on pr (differ's) differ
// between every unknown account being a maintainer and none being, or
// between those and act, where each account's author_association decided:
// the rules are not monotone in who maintains (one maintainer's comment
// passes the turn to the author, another's review request passes it back),
// so a mixture can decide what neither extreme does, and then only the
// accounts' access may decide.
func (ac *access) accessMatters(pr lifecycle.PR, events []lifecycle.Event, o lifecycle.Options, act lifecycle.Activity) bool {
	write, none := o, o
	write.Assume, none.Assume = lifecycle.AccessWrite, lifecycle.AccessNone
	w := lifecycle.SummarizeWith(pr, events, ac.pol.StaleLabel, write)
	return differ(pr, w, lifecycle.SummarizeWith(pr, events, ac.pol.StaleLabel, none), ac.now, ac.pol) || differ(pr, w, act, ac.now, ac.pol)
}

// access is who may push, as the run learns it: at most once per account,
// and only for the accounts whose answer changes what the run does.
type access struct {
	*settings
	gh accessGitHub
	// pages is the collaborator listing's requests (0: not read), reads
	// the accounts read one by one (Result.CollaboratorPages,
	// PermissionReads).
	pages, reads int

	known       map[string]lifecycle.Access // accounts' write access learnt this run, by lower-case login
	refused     bool                        // GitHub refused a permission read: author_association decides for the rest of the run
	failed      map[string]error            // accounts whose permission read failed this run (not refused), by lower-case login
	collabAsked bool                        // the collaborator listing was read this run
	listed      map[string]bool             // the accounts it lists, any role, by lower-case login
	collabErr   error                       // and why it answered nothing: GitHub's refusal or a failure
	collabShort bool                        // it ended short of GitHub's own count: an account it lacks is unknown, not "none"
}

// learn learns an account's write access, once per run: from the
// collaborator listing, read once at the first need, which answers for
// every account (one not in it may not push, when the listing is whole);
// from the account's own permission read when GitHub refuses this token
// the listing, the listing gives a permission it does not know, or it
// lacks the account and ended short of GitHub's own count. GitHub's refusal of that read
// (403: a token that may not read it) is no reason to stop: the account's
// author_association decides, and no more is asked this run. Any other
// failure (a 502, an answer that does not decode, a timeout), of the
// listing or of the read, is a failed read: the PRs that need the answer
// are left untouched, and it is not asked again this run.
func (ac *access) learn(ctx context.Context, login string) error {
	key := strings.ToLower(login)
	if err, failed := ac.failed[key]; failed {
		return err
	}
	if a, asked := ac.known[key]; asked && (a != lifecycle.AccessUnknown || ac.refused) {
		return nil
	}
	switch err := ac.listCollaborators(ctx); {
	case err == nil:
		a, listed := ac.known[key]
		switch {
		case !listed && !ac.collabShort:
			ac.known[key] = lifecycle.AccessNone // not a collaborator
			return nil
		case listed && a != lifecycle.AccessUnknown:
			return nil
		}
		// Listed with a permission the listing does not name, or not in a
		// listing that is not whole: read it.
	case !errors.Is(err, api.ErrPermissionRefused):
		return err
	}
	return ac.permission(ctx, login, key)
}

// one learns an account's write access with one read at most: the
// collaborator listing's answer when the run read it, else the account's
// own permission read (a reopen command's asker: an event run cannot
// afford the listing's pages). Refusals and failures as in learn.
func (ac *access) one(ctx context.Context, login string) error {
	if ac.collabAsked {
		return ac.learn(ctx, login)
	}
	key := strings.ToLower(login)
	if err, failed := ac.failed[key]; failed {
		return err
	}
	if a := ac.known[key]; a != lifecycle.AccessUnknown || ac.refused {
		return nil
	}
	if ac.known == nil {
		ac.known = map[string]lifecycle.Access{}
	}
	return ac.permission(ctx, login, key)
}

// permission reads an account's repository permission into known (key is
// its lower-case login). GitHub's refusal leaves author_association to
// decide for the rest of the run; any other failure is kept and returned.
func (ac *access) permission(ctx context.Context, login, key string) error {
	a, err := ac.gh.Permission(ctx, login)
	ac.reads++
	switch {
	case api.IsStop(err):
		return err
	case errors.Is(err, api.ErrPermissionRefused):
		ac.log.Printf("GitHub refuses to tell this token the repository permission of %s, so author_association says who is a maintainer for the rest of this run: %s", login, err)
		ac.refused, a = true, lifecycle.AccessUnknown
	case err != nil:
		if ac.failed == nil {
			ac.failed = map[string]error{}
		}
		ac.failed[key] = err
		return err
	}
	ac.known[key] = a
	return nil
}

// listCollaborators reads the collaborator listing once a run into access
// (Result.CollaboratorPages says what it cost). GitHub's refusal is logged
// once and returned, as is a failure, on every later call: neither is
// asked again this run.
func (ac *access) listCollaborators(ctx context.Context) error {
	if ac.known == nil {
		ac.known = map[string]lifecycle.Access{}
	}
	if ac.collabAsked {
		return ac.collabErr
	}
	before := ac.gh.Usage()
	listed, complete, err := ac.gh.Collaborators(ctx)
	if api.IsStop(err) {
		return err // the run stops; a later run asks
	}
	ac.collabAsked, ac.collabErr, ac.collabShort = true, err, err == nil && !complete
	ac.pages = ac.gh.Usage().Requests - before.Requests
	switch {
	case errors.Is(err, api.ErrPermissionRefused):
		ac.log.Printf("GitHub refuses this token the repository's collaborator listing, so each account's permission is read as needed: %s", err)
	case ac.collabShort:
		ac.log.Printf("GitHub's collaborator listing ends short of its own count, so the permission of an account it does not hold is read as needed")
		fallthrough
	case err == nil:
		ac.listed = map[string]bool{}
		for login, a := range listed {
			ac.listed[login] = true
			if _, known := ac.known[login]; !known {
				ac.known[login] = a
			}
		}
	}
	return err
}

// collaborator reports whether login is a collaborator of the repository
// (any role, read and triage too: GitHub requests the review of
// collaborators only), as the collaborator listing says, read once a run.
// known is false when GitHub refuses this token the listing or it failed:
// then only a request tells. A stop is returned.
func (ac *access) collaborator(ctx context.Context, login string) (is, known bool, err error) {
	switch err := ac.listCollaborators(ctx); {
	case api.IsStop(err):
		return false, false, err
	case err != nil:
		return false, false, nil
	}
	return ac.listed[strings.ToLower(login)], true, nil
}
