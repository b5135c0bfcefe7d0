package fakegithub

import (
	"strings"
)

// Repository.object(oid:) and Commit.parents: the commits the fake knows
// and each one's parent. A push records its commit with the branch's
// previous commit (in the order pushed, whatever its git date) as parent;
// a PR's first head is a commit of its author's on a base commit the fake
// does not model (a root); a force push's new head is the pusher's commit
// on such a base, its old commits left behind.

func init() {
	resolvers["CommitConnection"] = connResolvers
	repositoryResolvers["object"] = func(x *gexec, src any, args map[string]any) (any, error) {
		oid := strArg(args, "oid")
		if oid == "" {
			oid = strArg(args, "expression") // only a full oid: no refs, no revisions
		}
		if f := x.fault; f != nil && f.Object {
			x.faultFired = true
			if f.Kind == GraphQLMissing {
				return nil, nil
			}
			return nil, partialError()
		}
		e, ok := x.s.commitByOID(oid)
		if src.(repoRef).full != x.s.FullName() || !ok {
			return nil, nil // GitHub answers null for an object it does not have
		}
		return gobj{"Commit", commitRef{e}}, nil
	}
	commitResolvers["parents"] = func(x *gexec, src any, args map[string]any) (any, error) {
		var items []item
		if p := src.(commitRef).e.Parent; p != "" {
			e, ok := x.s.commitByOID(p)
			if !ok {
				e = Event{SHA: p} // a base commit: no author, no parents
			}
			items = append(items, item{key: []int64{0}, v: gobj{"Commit", commitRef{e}}})
		}
		return paginate(items, args)
	}
}

// commitByOID is the commit oid as a committed event: a pushed commit, a
// PR's first head, a force push's new head.
func (s *Server) commitByOID(oid string) (Event, bool) {
	if oid == "" {
		return Event{}, false
	}
	for _, rec := range s.issues {
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
