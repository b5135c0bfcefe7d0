package ghapi

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The head commit's CI state (author-turn-when-checks-fail). Whether a
// check is required GitHub tells only for a pull request named in the
// field's argument (isRequired(pullRequestNumber:), which refuses to answer
// without one), and a page of many PRs cannot pass each its own. So the
// listing's pages read only each PR's rollup state
// (PullRequest.statusCheckRollup.state: no connection, so a page keeps its
// size and its point), and the sweep gathers the PRs whose state is
// failing, across pages, and reads their checks with Checks: each PR by its
// number as a variable with its checks' isRequired, up to
// sweep.ChecksPerRead PRs a query, one connection each, one point. Nothing
// is read per PR.

// rollupState is what a listing page reads of a PR's checks: the rollup's
// combined state (null: no check at all).
type rollupState struct {
	StatusCheckRollup *struct{ State string }
}

// failing reports whether the rollup's combined state says some check
// failed. GitHub's state is failing whenever one of its contexts is, so a
// PR it does not call failing has no failing check to read.
func (r *rollupState) failing() bool {
	ro := r.StatusCheckRollup
	return ro != nil && (strings.EqualFold(ro.State, "FAILURE") || strings.EqualFold(ro.State, "ERROR"))
}

// none reports whether the head has no check at all (a null rollup of a
// PR the page answered): its checks are known, and none failed or was
// re-run.
func (r *rollupState) none() bool { return r.StatusCheckRollup == nil }

// prWithChecks and prWithAssigneesChecks are read instead when
// author-turn-when-checks-fail is on.
type prWithChecks struct {
	prFields
	rollupState
}

func (p *prWithChecks) asks() string { return rollupStateField }

type prWithAssigneesChecks struct {
	prWithAssignees
	rollupState
}

func (p *prWithAssigneesChecks) asks() string { return assigneesField + rollupStateField }

// checkContext is one node of a rollup's contexts, a union (CheckRun,
// StatusContext) decoded flat: Typename names the kind; IsRequired is
// asked for the PR read (rollupFields).
type checkContext struct {
	Typename string `json:"__typename"`
	// CheckRun.
	Name        string
	Status      string
	Conclusion  string
	CompletedAt *time.Time
	// StatusContext.
	Context    string
	State      string
	CreatedAt  time.Time
	IsRequired bool
}

// rollup is a statusCheckRollup with its contexts: the head commit's check
// runs and commit statuses.
type rollup struct {
	Commit   *struct{ Oid string }
	Contexts struct {
		TotalCount int
		Nodes      []*checkContext
	}
}

// checkRollup is a PR's statusCheckRollup, null when its head has no check,
// with the head it is of, which a null rollup does not name.
type checkRollup struct {
	HeadRefOid        string
	StatusCheckRollup *rollup
}

// rollupFields asks a rollup, each check's isRequired for the PR whose
// number is the variable number.
func rollupFields(number string) string {
	return ` commit { oid } contexts(first: 100) { totalCount nodes {
    __typename
    ... on CheckRun { name status conclusion completedAt isRequired(pullRequestNumber: ` + number + `) }
    ... on StatusContext { context state createdAt isRequired(pullRequestNumber: ` + number + `) }
  } }`
}

// checks converts the rollup. A null rollup of a PR GitHub answered for
// without an error is a head on which no check or status ever ran: a
// definite "no checks" of that head (complete, nothing in it), as a rollup
// with no contexts is. A null context, or more contexts than one page
// holds, leaves it incomplete, which counts for nobody; so does a PR
// GitHub did not answer for (Checks leaves it out).
func (r *checkRollup) checks() lifecycle.Checks {
	ro := r.StatusCheckRollup
	if ro == nil {
		return lifecycle.Checks{Commit: r.HeadRefOid, Complete: r.HeadRefOid != ""}
	}
	out := lifecycle.Checks{Complete: len(ro.Contexts.Nodes) == ro.Contexts.TotalCount}
	if ro.Commit != nil {
		out.Commit = ro.Commit.Oid
	}
	for _, n := range ro.Contexts.Nodes {
		if n == nil {
			out.Complete = false
			continue
		}
		out.Contexts = append(out.Contexts, n.check())
	}
	return out
}

func (n *checkContext) check() lifecycle.Check {
	if n.Typename == "StatusContext" {
		return lifecycle.Check{Name: n.Context, Conclusion: n.State, At: n.CreatedAt, Required: required(n.IsRequired)}
	}
	c := lifecycle.Check{Name: n.Name, Status: n.Status, Conclusion: n.Conclusion, Required: required(n.IsRequired)}
	if n.CompletedAt != nil {
		c.At = *n.CompletedAt
	}
	return c
}

func required(yes bool) lifecycle.Required {
	if yes {
		return lifecycle.RequiredYes
	}
	return lifecycle.RequiredNo
}

// openPullsWithChecks reads a page with each PR's rollup state; a PR whose
// state is failing is marked for the sweep to read its checks (Checks).
func openPullsWithChecks[N any, P interface {
	*N
	prNode
	failing() bool
	none() bool
}](ctx context.Context, c *graphQL, q sweep.Query, after string, connections int) ([]sweep.Listed, sweep.Page, error) {
	open := []string{"OPEN"}
	nodes, page, err := pulls[N, P](ctx, c, q, open, after, connections)
	if err != nil {
		return nil, page, err
	}
	out := make([]sweep.Listed, len(nodes))
	for i, n := range nodes {
		out[i] = n.Listed
		out[i].ChecksFailing = n.node.failing()
		if n.node.none() && out[i].Err == nil && out[i].PR.HeadSHA != "" {
			// What a checks read would answer: no need to ask (rechecks).
			out[i].PR.Checks = lifecycle.Checks{Commit: out[i].PR.HeadSHA, Complete: true}
		}
	}
	return out, page, nil
}

// Checks reads the head commits' check rollups of the PRs numbers (at most
// sweep.ChecksPerRead, which the sweep batches across pages) in one query,
// one point, with whether each check is required for its PR. A PR GitHub
// does not answer for (an error, a null) is left out, which counts for
// nobody; a query that fails altogether is an error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#statuscheckrollup
func (c *graphQL) Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error) {
	if len(numbers) > sweep.ChecksPerRead {
		return nil, fmt.Errorf("read the checks of %d pull requests: at most %d a query", len(numbers), sweep.ChecksPerRead)
	}
	doc := eachPRQuery(len(numbers), func(k int) string {
		return fmt.Sprintf("headRefOid statusCheckRollup {%s }", rollupFields(fmt.Sprintf("$n%d", k)))
	}, "")
	prs, err := eachPR[checkRollup](ctx, c, numbers, doc)
	if err != nil {
		return nil, c.fail(opRead, err, "read the checks of %d pull requests", len(numbers))
	}
	out := map[int]lifecycle.Checks{}
	for n, r := range prs {
		out[n] = r.checks()
	}
	return out, nil
}

// eachPRQuery is the query of n PRs, one point: in the repository,
// pK: pullRequest(number: $nK) { fields(K) } for each, then fragments.
func eachPRQuery(n int, fields func(k int) string, fragments string) string {
	var vars, prs strings.Builder
	for k := range n {
		fmt.Fprintf(&vars, ", $n%d: Int!", k)
		fmt.Fprintf(&prs, "    p%d: pullRequest(number: $n%d) { %s }\n", k, k, fields(k))
	}
	return `query($owner: String!, $name: String!` + vars.String() + `) {
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
` + prs.String() + `  }
}` + fragments
}

// eachPR asks doc (eachPRQuery) of the PRs numbers and gives each one's
// part that GitHub answered whole, by number: a PR whose part is null or
// named by an error is left out (unknown), and so is every PR when an
// error names no part of the answer; a query that fails altogether is an
// error.
func eachPR[T any](ctx context.Context, c *graphQL, numbers []int, doc string) (map[int]*T, error) {
	vars := map[string]any{"owner": c.owner, "name": c.repo}
	for k, n := range numbers {
		vars[fmt.Sprintf("n%d", k)] = n
	}
	q, errs, err := ask[inRepository[map[string]*T]](ctx, c, false, doc, vars)
	if err != nil {
		return nil, err
	}
	spoiled := errs.spoiled(1) // under repository
	out := map[int]*T{}
	prs := *q.repo()
	for k, n := range numbers {
		alias := fmt.Sprintf("p%d", k)
		if r := prs[alias]; r != nil && !spoiled[alias] && (len(errs) == 0 || len(spoiled) > 0) {
			out[n] = r
		}
	}
	return out, nil
}
