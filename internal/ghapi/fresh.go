package ghapi

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/shurcooL/githubv4"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// A fresh read is the look at a group of PRs just before the writes that
// act on them (a close replaces the labels): one query, each PR an aliased
// pullRequest(number:) field with its state, lock, labels, assignees and
// updatedAt, and its timeline items since its listing (timelineItems(since:),
// the listing's updatedAt): three connections a PR, so sweep.NowPerRead of
// them cost one point, where a REST read costs one request each.

// prNow is what a fresh read reads of one PR. Its timeline is history's,
// asking for the items since the listing instead of before a cursor
// (nowPRType gives it its tag).
type prNow struct {
	Number int
	State  string
	// A null among these is an unknown, never a no: labels null are not
	// "no labels" (the close's PATCH would write the set from it), a lock
	// null not "unlocked".
	IsDraft   *bool
	Locked    *bool
	UpdatedAt *githubv4.DateTime // null: whether it changed is unknown
	Author    *actor
	Milestone *struct{ Title string }
	Labels    *struct {
		TotalCount int
		Nodes      []*struct{ Name string }
	} `graphql:"labels(first: 100)"`
	Assignees *struct {
		TotalCount int
		Nodes      []*struct{ Login string }
	} `graphql:"assignees(first: 100)"`
	TimelineItems *timeline
}

// PullsNow reads the PRs listed (at most sweep.NowPerRead) afresh in one
// query, one point: each as it is now, with its timeline items dated after
// its listed UpdatedAt. A PR GitHub's answer leaves null, gives in error
// or gives in part comes back with Err set; a query that fails altogether
// is an error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#pullrequest
func (c *Client) PullsNow(ctx context.Context, listed []lifecycle.PR) (map[int]sweep.Now, error) {
	if len(listed) > sweep.NowPerRead {
		return nil, fmt.Errorf("read %d pull requests afresh: at most %d a query", len(listed), sweep.NowPerRead)
	}
	q := reflect.New(nowQueryType(len(listed)))
	vars := map[string]any{"owner": githubv4.String(c.owner), "name": githubv4.String(c.repo)}
	for k, pr := range listed {
		vars[fmt.Sprintf("n%d", k)] = githubv4.Int(pr.Number)
		vars[fmt.Sprintf("s%d", k)] = githubv4.DateTime{Time: pr.UpdatedAt}
	}
	errs, err := c.query(ctx, false, q.Interface(), vars)
	if err != nil {
		return nil, c.fail(opRead, err, "read %d pull requests afresh", len(listed))
	}
	if err := c.viewer.saw(q.Elem().FieldByName("Viewer").Field(0).String(), c.t.stop); err != nil {
		return nil, c.fail(opRead, err, "read %d pull requests afresh", len(listed))
	}
	spoiled := errs.spoiled(1) // under repository
	repo := q.Elem().FieldByName("Repository")
	out := map[int]sweep.Now{}
	for k, pr := range listed {
		f := repo.Field(k)
		var now sweep.Now
		switch {
		case len(errs) > 0 && len(spoiled) == 0:
			now.Err = fmt.Errorf("GitHub's answer has errors: %s", errs)
		case spoiled[fmt.Sprintf("f%d", k)]:
			now.Err = fmt.Errorf("GitHub's answer for it is in error (%s)", errs)
		case f.IsNil():
			now.Err = errors.New("GitHub's answer gives it null")
		default:
			var p prNow
			copyRetagged(reflect.ValueOf(&p).Elem(), f.Elem())
			now = p.now(pr)
		}
		if now.Err != nil {
			now.Err = c.redact(fmt.Errorf("read #%d afresh: %w: left for the next run", pr.Number, now.Err))
		}
		out[pr.Number] = now
	}
	return out, nil
}

// now converts the answer for the PR listed; Err when it cannot prove
// what the PR is now.
func (p *prNow) now(listed lifecycle.PR) sweep.Now {
	if p.IsDraft == nil || p.Locked == nil || p.Labels == nil || p.Assignees == nil || p.TimelineItems == nil {
		return sweep.Now{Err: errors.New("GitHub's answer gives its draft or lock state, labels, assignees or timeline null, so what it is now is unknown")}
	}
	login, bot := p.Author.identity()
	pr := lifecycle.PR{Number: p.Number, Author: login, AuthorBot: bot, Draft: *p.IsDraft, Locked: *p.Locked}
	if p.Milestone != nil {
		pr.Milestone = p.Milestone.Title
	}
	nulls := 0
	for _, l := range p.Labels.Nodes {
		if l == nil {
			nulls++
			continue
		}
		pr.Labels = append(pr.Labels, l.Name)
	}
	for _, a := range p.Assignees.Nodes {
		if a == nil {
			nulls++
			continue
		}
		pr.Assignees = append(pr.Assignees, a.Login)
	}
	events, missing := events(p.TimelineItems.Nodes)
	out := sweep.Now{PR: pr, Open: p.State == "OPEN"}
	for _, e := range events {
		if e.At.After(listed.UpdatedAt) {
			out.Since = append(out.Since, e)
		}
	}
	switch {
	case p.UpdatedAt == nil || p.UpdatedAt.IsZero():
		out.Err = errors.New("GitHub's answer gives no updatedAt, so whether it changed since the listing is unknown")
	case p.Number != listed.Number:
		out.Err = fmt.Errorf("GitHub's answer names #%d instead", p.Number)
	case nulls+missing > 0:
		out.Err = fmt.Errorf("GitHub's answer has %d null labels, assignees or timeline items", nulls+missing)
	case len(pr.Labels) != p.Labels.TotalCount || len(pr.Assignees) != p.Assignees.TotalCount:
		out.Err = errors.New("it has more labels or assignees than one page")
	case p.TimelineItems.PageInfo.HasPreviousPage:
		out.Err = errors.New("more than 100 timeline items since the listing")
	}
	if out.Err == nil {
		out.PR.UpdatedAt = p.UpdatedAt.Time
	}
	return out
}

// nowPRType is prNow with its timeline's items those dated since the
// variable named since: history's connection, with since for before.
func nowPRType(since string) reflect.Type {
	h, _ := reflect.TypeOf(history{}).FieldByName("TimelineItems")
	t := reflect.TypeOf(prNow{})
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		fields[i] = t.Field(i)
	}
	fields[len(fields)-1].Tag = reflect.StructTag(strings.Replace(string(h.Tag), "before: $before", "since: "+since, 1))
	return reflect.StructOf(fields)
}

var nowTypes sync.Map // int → reflect.Type

// nowQueryType is the query of n PRs read afresh: the viewer, RateLimit,
// and in repository(owner: $owner, name: $name) one field per PR,
// fK: pullRequest(number: $nK) { ... timelineItems(last: 100, since: $sK) }.
// The arguments are variables, so the type depends on n alone and is
// built (and learnt by the decoder) once per size.
func nowQueryType(n int) reflect.Type {
	if t, ok := nowTypes.Load(n); ok {
		return t.(reflect.Type)
	}
	var prs []reflect.StructField
	for k := range n {
		pr := nowPRType(fmt.Sprintf("$s%d", k))
		prs = append(prs, reflect.StructField{Name: fmt.Sprintf("F%d", k), Type: reflect.PointerTo(pr),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"f%d: pullRequest(number: $n%d)"`, k, k))})
	}
	t := reflect.StructOf([]reflect.StructField{
		{Name: "Viewer", Type: reflect.TypeOf(struct{ Login string }{})},
		{Name: "RateLimit", Type: reflect.TypeOf(rateLimit{})},
		{Name: "Repository", Type: reflect.StructOf(prs), Tag: `graphql:"repository(owner: $owner, name: $name)"`},
	})
	t2, _ := nowTypes.LoadOrStore(n, t)
	return t2.(reflect.Type)
}
