package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/shurcooL/githubv4"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The head commit's CI state (author-turn-when-checks-fail) comes with the
// listing's pages: PullRequest.statusCheckRollup, its check runs and commit
// statuses, one connection more per PR (pages of pageSize(3), still one
// point). Whether a check is required GitHub tells only per pull request
// (isRequired takes the PR's number or ID, and refuses to answer without
// one), which a page of many PRs cannot pass in one query; so the few
// contexts whose requirement decides anything (the latest of their name,
// completed, failing: lifecycle.Checks.Undecided) are asked in one query
// more per page that has any, each by its node ID with its PR's number, up
// to requiredPerQuery a query (no connection: one point). A page without a
// failing check costs nothing more.

// checkContext is one node of a rollup's contexts, a union: Typename names
// the fragment that holds its fields.
type checkContext struct {
	Typename string `graphql:"__typename"`
	CheckRun struct {
		ID          string
		Name        string
		Status      string
		Conclusion  string
		CompletedAt *githubv4.DateTime
	} `graphql:"... on CheckRun"`
	StatusContext struct {
		ID        string
		Context   string
		State     string
		CreatedAt githubv4.DateTime
	} `graphql:"... on StatusContext"`
}

// checkRollup is a PR's statusCheckRollup: the head commit's contexts, null
// when it has none.
type checkRollup struct {
	StatusCheckRollup *struct {
		Commit   *struct{ Oid string }
		Contexts struct {
			TotalCount int
			Nodes      []*checkContext
		} `graphql:"contexts(first: 100)"`
	}
}

// checks converts the rollup: the contexts with their node IDs (in the
// same order), Required still unknown. A null rollup is a head without a
// check GitHub knows of: nothing fails. A null context, or more contexts
// than one page holds, leaves the rollup incomplete, which counts for
// nobody.
func (r *checkRollup) checks() (lifecycle.Checks, []string) {
	ro := r.StatusCheckRollup
	if ro == nil {
		return lifecycle.Checks{}, nil
	}
	return rollupChecks(ro.Commit, ro.Contexts.TotalCount, ro.Contexts.Nodes)
}

func rollupChecks(commit *struct{ Oid string }, total int, nodes []*checkContext) (lifecycle.Checks, []string) {
	out := lifecycle.Checks{Complete: len(nodes) == total}
	if commit != nil {
		out.Commit = commit.Oid
	}
	ids := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if n == nil {
			out.Complete = false
			continue
		}
		c, id := n.check()
		out.Contexts = append(out.Contexts, c)
		ids = append(ids, id)
	}
	return out, ids
}

func (n *checkContext) check() (lifecycle.Check, string) {
	if n.Typename == "StatusContext" {
		s := n.StatusContext
		return lifecycle.Check{Name: s.Context, Conclusion: s.State, At: s.CreatedAt.Time}, s.ID
	}
	r := n.CheckRun
	c := lifecycle.Check{Name: r.Name, Status: r.Status, Conclusion: r.Conclusion}
	if r.CompletedAt != nil {
		c.At = r.CompletedAt.Time
	}
	return c, r.ID
}

// prWithChecks and prWithAssigneesChecks are read instead when
// author-turn-when-checks-fail is on.
type prWithChecks struct {
	prFields
	checkRollup
}

type prWithAssigneesChecks struct {
	prWithAssignees
	checkRollup
}

// openPullsWithChecks reads a page with each PR's rollup, then asks
// whether the contexts that decide anything are required.
func openPullsWithChecks[N any, P interface {
	*N
	prNode
	checks() (lifecycle.Checks, []string)
}](ctx context.Context, c *Client, q sweep.Query, after string, connections int) ([]sweep.Listed, sweep.Page, error) {
	open := []githubv4.PullRequestState{githubv4.PullRequestStateOpen}
	nodes, page, err := pulls[N, P](ctx, c, q, open, after, connections)
	if err != nil {
		return nil, page, err
	}
	out := make([]sweep.Listed, len(nodes))
	var asks []requiredAsk
	for i, n := range nodes {
		out[i] = n.Listed
		checks, ids := n.node.checks()
		out[i].PR.Checks = checks
		for _, j := range checks.Undecided() {
			asks = append(asks, requiredAsk{pr: i, context: j, number: n.PR.Number, id: ids[j]})
		}
	}
	if err := c.required(ctx, asks, out); err != nil {
		return nil, sweep.Page{}, err
	}
	return out, page, nil
}

// requiredAsk is one context whose requirement is asked: which PR of the
// page and which of its contexts, the PR's number and the context's node ID.
type requiredAsk struct {
	pr, context, number int
	id                  string
}

// requiredPerQuery is the most contexts one follow-up query asks about.
const requiredPerQuery = 100

// required fills in Required for asks, requiredPerQuery a query. A context
// GitHub does not answer for (an error, a null node) stays unknown, which
// counts for nobody; only a stop (the budget, the rate limit) is an error.
func (c *Client) required(ctx context.Context, asks []requiredAsk, listed []sweep.Listed) error {
	for len(asks) > 0 {
		batch := asks[:min(len(asks), requiredPerQuery)]
		asks = asks[len(batch):]
		q := reflect.New(requiredQueryType(len(batch)))
		vars := map[string]any{}
		for i, a := range batch {
			vars[fmt.Sprintf("c%d", i)] = githubv4.ID(a.id)
			vars[fmt.Sprintf("n%d", i)] = githubv4.Int(a.number)
		}
		errs, err := c.query(ctx, false, q.Interface(), vars)
		if api.IsStop(err) {
			return c.fail(opList, err, "read whether failing checks are required")
		}
		if err != nil {
			continue // unknown: no author's turn from these checks
		}
		bad := map[string]bool{}
		for _, e := range errs {
			if len(e.Path) > 0 {
				if alias, ok := e.Path[0].(string); ok {
					bad[alias] = true
				}
			}
		}
		for i, a := range batch {
			f := q.Elem().Field(i + 1)
			if f.IsNil() || bad[fmt.Sprintf("c%d", i)] || len(errs) > 0 && len(bad) == 0 {
				continue
			}
			// The built type is requiredNode but for its tags.
			node := f.Elem().Convert(reflect.TypeOf(requiredNode{})).Interface().(requiredNode)
			req := lifecycle.RequiredNo
			if node.required() {
				req = lifecycle.RequiredYes
			}
			listed[a.pr].PR.Checks.Contexts[a.context].Required = req
		}
	}
	return nil
}

// requiredNode is a check run or commit status read again by its node ID:
// whether it is required for the PR whose number the query names beside it.
// requiredQueryType builds it with the fragments' tags of each alias.
type requiredNode struct {
	Typename      string `graphql:"__typename"`
	CheckRun      struct{ IsRequired bool }
	StatusContext struct{ IsRequired bool }
}

func (n requiredNode) required() bool {
	switch n.Typename {
	case "CheckRun":
		return n.CheckRun.IsRequired
	case "StatusContext":
		return n.StatusContext.IsRequired
	}
	return false
}

var requiredTypes sync.Map // int → reflect.Type

// requiredQueryType is the query of n contexts: RateLimit, then
// c0: node(id: $c0) { ... on CheckRun { isRequired(pullRequestNumber: $n0) } ... },
// one field per context. The arguments are variables, so the type depends
// on n alone and is built (and learnt by the decoder) once per size.
func requiredQueryType(n int) reflect.Type {
	if t, ok := requiredTypes.Load(n); ok {
		return t.(reflect.Type)
	}
	fields := []reflect.StructField{{Name: "RateLimit", Type: reflect.TypeOf(rateLimit{})}}
	for i := range n {
		isReq := reflect.StructOf([]reflect.StructField{{Name: "IsRequired", Type: reflect.TypeOf(false),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"isRequired(pullRequestNumber: $n%d)"`, i))}})
		node := reflect.StructOf([]reflect.StructField{
			{Name: "Typename", Type: reflect.TypeOf(""), Tag: `graphql:"__typename"`},
			{Name: "CheckRun", Type: isReq, Tag: `graphql:"... on CheckRun"`},
			{Name: "StatusContext", Type: isReq, Tag: `graphql:"... on StatusContext"`},
		})
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: reflect.PointerTo(node),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"c%d: node(id: $c%d)"`, i, i))})
	}
	t, _ := requiredTypes.LoadOrStore(n, reflect.StructOf(fields))
	return t.(reflect.Type)
}

// checkContextOne is a context as Pull reads it: with whether it is
// required for the one PR read, whose number the query has ($number).
type checkContextOne struct {
	checkContext
	CheckRunRequired struct {
		IsRequired bool `graphql:"isRequired(pullRequestNumber: $number)"`
	} `graphql:"... on CheckRun"`
	StatusContextRequired struct {
		IsRequired bool `graphql:"isRequired(pullRequestNumber: $number)"`
	} `graphql:"... on StatusContext"`
}

// checkRollupOne is a PR's statusCheckRollup as Pull reads it: the event
// path's one read knows the turn as the schedule's listing does, so the
// turn labels it writes agree with the next scheduled run's.
type checkRollupOne struct {
	StatusCheckRollup *struct {
		Commit   *struct{ Oid string }
		Contexts struct {
			TotalCount int
			Nodes      []*checkContextOne
		} `graphql:"contexts(first: 100)"`
	}
}

// checks converts the rollup as checkRollup.checks does, with each
// context's requirement.
func (r *checkRollupOne) checks() lifecycle.Checks {
	ro := r.StatusCheckRollup
	if ro == nil {
		return lifecycle.Checks{}
	}
	nodes := make([]*checkContext, len(ro.Contexts.Nodes))
	var required []bool
	for i, n := range ro.Contexts.Nodes {
		if n == nil {
			continue
		}
		nodes[i] = &n.checkContext
		required = append(required, n.Typename == "CheckRun" && n.CheckRunRequired.IsRequired ||
			n.Typename == "StatusContext" && n.StatusContextRequired.IsRequired)
	}
	out, _ := rollupChecks(ro.Commit, ro.Contexts.TotalCount, nodes)
	for i := range out.Contexts {
		out.Contexts[i].Required = lifecycle.RequiredNo
		if required[i] {
			out.Contexts[i].Required = lifecycle.RequiredYes
		}
	}
	return out
}
