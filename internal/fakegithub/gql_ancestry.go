package fakegithub

import (
	"slices"
	"strings"
)

// PullRequest.commits and Commit.parents: the commits on a PR's head, each
// with the commit it was pushed on. A push records its commit with the
// branch's previous commit (in the order pushed, whatever its git date) as
// parent; a PR's first head is a commit of its author's on a base commit
// the fake does not model (a root); a force push's new head is the
// pusher's commit on such a base, its old commits left behind. As GitHub's,
// the PR's commits are those its head reaches, at most 250, oldest first.

const maxPRCommits = 250

func init() {
	resolvers["CommitConnection"] = connResolvers
	resolvers["PullRequestCommitConnection"] = connResolvers
	pullRequestResolvers["commits"] = func(x *gexec, src any, args map[string]any) (any, error) {
		r := src.(*issueRec)
		if f := x.fault; f != nil && f.Commits {
			x.faultFired = true
			if f.Kind == GraphQLMissing {
				return paginate(nil, args) // the head's commits left out
			}
			return nil, partialError()
		}
		chain := x.headChain(r)
		items := make([]item, len(chain))
		for i, e := range chain {
			items[i] = item{key: []int64{int64(i)}, v: gobj{"PullRequestCommit", tlItem{rec: r, it: TimelineItem{Type: "committed", At: e.At, Event: e}}}}
		}
		return paginate(items, args)
	}
	commitResolvers["parents"] = func(x *gexec, src any, args map[string]any) (any, error) {
		var items []item
		if p := src.(commitRef).e.Parent; p != "" {
			e, ok := x.commitByOID(p)
			if !ok {
				e = Event{SHA: p} // a base commit: no author, no parents
			}
			items = append(items, item{key: []int64{0}, v: gobj{"Commit", commitRef{e}}})
		}
		return paginate(items, args)
	}
}

// headChain is the commits PR r's head reaches, following parents, oldest
// first: at most maxPRCommits.
func (x *gexec) headChain(r *issueRec) []Event {
	var chain []Event
	for sha := r.HeadSHA; sha != "" && len(chain) < maxPRCommits; {
		e, ok := x.commitByOID(sha)
		if !ok {
			break
		}
		chain = append(chain, e)
		sha = e.Parent
	}
	slices.Reverse(chain)
	return chain
}

// commitByOID is the commit oid as a committed event: a pushed commit, a
// PR's first head, a force push's new head.
func (x *gexec) commitByOID(oid string) (Event, bool) {
	if oid == "" {
		return Event{}, false
	}
	for _, rec := range x.s.db.issues {
		if !rec.IsPR {
			continue
		}
		if strings.EqualFold(rec.first, oid) {
			u := rec.User
			return Event{Type: EventCommitted, ID: issueID(rec.Number), SHA: rec.first, At: rec.CreatedAt, Message: rec.Title,
				AuthorName: u.Login, AuthorEmail: noreplyEmail(u), AuthorLogin: u.Login}, true
		}
		for _, e := range rec.events {
			switch {
			case !strings.EqualFold(e.SHA, oid):
			case e.Type == EventCommitted:
				return e, true
			case e.Type == EventHeadRefForcePushed:
				return Event{Type: EventCommitted, ID: e.ID, SHA: e.SHA, At: e.At, Message: "Rewrite", Parent: fakeSHA("base", e.ID),
					AuthorName: e.Actor.Login, AuthorEmail: noreplyEmail(e.Actor), AuthorLogin: e.Actor.Login}, true
			}
		}
	}
	return Event{}, false
}
