package ghapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// A fresh read is the look at a group of PRs just before the writes that
// act on them (a close replaces the labels): one query, each PR an aliased
// pullRequest(number:) field with its state, lock, labels, assignees and
// updatedAt, and its timeline items since its listing (timelineItems(since:),
// the listing's updatedAt): three connections a PR, so sweep.NowPerRead of
// them cost one point, where a REST read costs one request each.

// prNow is what a fresh read reads of one PR (nowFragment), and its
// timeline items since the listing.
type prNow struct {
	Number int
	State  string
	// A null among these is an unknown, never a no: labels null are not
	// "no labels" (the close's PATCH would write the set from it), a lock
	// null not "unlocked".
	IsDraft   *bool
	Locked    *bool
	UpdatedAt *time.Time // null: whether it changed is unknown
	Author    *actor
	Milestone *struct{ Title string }
	Labels    *struct {
		TotalCount int
		Nodes      []*struct{ Name string }
	}
	Assignees *struct {
		TotalCount int
		Nodes      []*struct{ Login string }
	}
	TimelineItems *timeline
}

const nowFragment = `
fragment now on PullRequest {
  number state isDraft locked updatedAt
  author { ...actor } milestone { title }
  labels(first: 100) { totalCount nodes { name } }` + assigneesField + `
}`

// nowQuery is the query of n PRs read afresh: the viewer, and in the
// repository fK: pullRequest(number: $nK) for each, its timeline items
// since $sK.
func nowQuery(n int) string {
	var vars, prs strings.Builder
	for k := range n {
		fmt.Fprintf(&vars, ", $n%d: Int!, $s%d: DateTime!", k, k)
		fmt.Fprintf(&prs, "    f%d: pullRequest(number: $n%d) { ...now timelineItems(last: 100, since: $s%d, itemTypes: %s) { ...timeline } }\n",
			k, k, k, timelineKinds)
	}
	return `query($owner: String!, $name: String!` + vars.String() + `) {
  viewer { login }
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
` + prs.String() + `  }
}` + nowFragment + timelineFragments
}

type nowData struct {
	Viewer struct{ Login string }
	inRepository[map[string]*prNow]
}

// PullsNow reads the PRs listed (at most sweep.NowPerRead) afresh in one
// query, one point: each as it is now, with its timeline items dated after
// its listed UpdatedAt. A PR GitHub's answer leaves null, gives in error
// or gives in part comes back with Err set; a query that fails altogether
// is an error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#pullrequest
func (c *graphQL) PullsNow(ctx context.Context, listed []lifecycle.PR) (map[int]sweep.Now, error) {
	if len(listed) > sweep.NowPerRead {
		return nil, fmt.Errorf("read %d pull requests afresh: at most %d a query", len(listed), sweep.NowPerRead)
	}
	vars := map[string]any{"owner": c.owner, "name": c.repo}
	for k, pr := range listed {
		vars[fmt.Sprintf("n%d", k)] = pr.Number
		vars[fmt.Sprintf("s%d", k)] = pr.UpdatedAt
	}
	q, errs, err := ask[nowData](ctx, c, false, nowQuery(len(listed)), vars)
	if err != nil {
		return nil, c.fail(opRead, err, "read %d pull requests afresh", len(listed))
	}
	if err := c.viewer.saw(q.Viewer.Login, c.t.stop); err != nil {
		return nil, c.fail(opRead, err, "read %d pull requests afresh", len(listed))
	}
	spoiled := errs.spoiled(1) // under repository
	prs := *q.repo()
	out := map[int]sweep.Now{}
	for k, pr := range listed {
		alias := fmt.Sprintf("f%d", k)
		p := prs[alias]
		var now sweep.Now
		switch {
		case len(errs) > 0 && len(spoiled) == 0:
			now.Err = fmt.Errorf("GitHub's answer has errors: %s", errs)
		case spoiled[alias]:
			now.Err = fmt.Errorf("GitHub's answer for it is in error (%s)", errs)
		case p == nil:
			now.Err = errors.New("GitHub's answer gives it null")
		default:
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
		out.PR.UpdatedAt = *p.UpdatedAt
	}
	return out
}
