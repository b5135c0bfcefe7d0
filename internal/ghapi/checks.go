package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/shurcooL/githubv4"

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

type prWithAssigneesChecks struct {
	prWithAssignees
	rollupState
}

// checkContext is one node of a rollup's contexts, a union: Typename names
// the fragment that holds its fields; IsRequired is asked for the PR read
// ($number; the checks query renames it per PR).
type checkContext struct {
	Typename string `graphql:"__typename"`
	CheckRun struct {
		Name        string
		Status      string
		Conclusion  string
		CompletedAt *githubv4.DateTime
		IsRequired  bool `graphql:"isRequired(pullRequestNumber: $number)"`
	} `graphql:"... on CheckRun"`
	StatusContext struct {
		Context    string
		State      string
		CreatedAt  githubv4.DateTime
		IsRequired bool `graphql:"isRequired(pullRequestNumber: $number)"`
	} `graphql:"... on StatusContext"`
}

// checkRollup is a PR's statusCheckRollup with its contexts: the head
// commit's check runs and commit statuses, null when it has none; with the
// head it is of, which a null rollup does not name.
type checkRollup struct {
	HeadRefOid        string
	StatusCheckRollup *struct {
		Commit   *struct{ Oid string }
		Contexts struct {
			TotalCount int
			Nodes      []*checkContext
		} `graphql:"contexts(first: 100)"`
	}
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
		s := n.StatusContext
		return lifecycle.Check{Name: s.Context, Conclusion: s.State, At: s.CreatedAt.Time, Required: required(s.IsRequired)}
	}
	r := n.CheckRun
	c := lifecycle.Check{Name: r.Name, Status: r.Status, Conclusion: r.Conclusion, Required: required(r.IsRequired)}
	if r.CompletedAt != nil {
		c.At = r.CompletedAt.Time
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
}](ctx context.Context, c *Client, q sweep.Query, after string, connections int) ([]sweep.Listed, sweep.Page, error) {
	open := []githubv4.PullRequestState{githubv4.PullRequestStateOpen}
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
func (c *Client) Checks(ctx context.Context, numbers []int) (map[int]lifecycle.Checks, error) {
	if len(numbers) > sweep.ChecksPerRead {
		return nil, fmt.Errorf("read the checks of %d pull requests: at most %d a query", len(numbers), sweep.ChecksPerRead)
	}
	q := reflect.New(checksQueryType(len(numbers)))
	vars := map[string]any{"owner": githubv4.String(c.owner), "name": githubv4.String(c.repo)}
	for k, n := range numbers {
		vars[fmt.Sprintf("n%d", k)] = githubv4.Int(n)
	}
	errs, err := c.query(ctx, false, q.Interface(), vars)
	if err != nil {
		return nil, c.fail(opRead, err, "read the checks of %d pull requests", len(numbers))
	}
	spoiled := errs.spoiled(1) // under repository
	out := map[int]lifecycle.Checks{}
	repo := q.Elem().FieldByName("Repository")
	for k, n := range numbers {
		f := repo.Field(k)
		if f.IsNil() || spoiled[fmt.Sprintf("p%d", k)] || len(errs) > 0 && len(spoiled) == 0 {
			continue
		}
		var r checkRollup
		copyRetagged(reflect.ValueOf(&r).Elem(), f.Elem())
		out[n] = r.checks()
	}
	return out, nil
}

var checksTypes sync.Map // int → reflect.Type

// checksQueryType is the query of n PRs' checks: RateLimit, and in
// repository(owner: $owner, name: $name) one field per PR,
// pK: pullRequest(number: $nK) { statusCheckRollup {...} }, its checks'
// isRequired asking for $nK. The arguments are variables, so the type
// depends on n alone and is built (and learnt by the decoder) once per size.
func checksQueryType(n int) reflect.Type {
	if t, ok := checksTypes.Load(n); ok {
		return t.(reflect.Type)
	}
	var prs []reflect.StructField
	for k := range n {
		pr := retag(reflect.TypeOf(checkRollup{}), "$number", fmt.Sprintf("$n%d", k))
		prs = append(prs, reflect.StructField{Name: fmt.Sprintf("P%d", k), Type: reflect.PointerTo(pr),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"p%d: pullRequest(number: $n%d)"`, k, k))})
	}
	t := reflect.StructOf([]reflect.StructField{
		{Name: "RateLimit", Type: reflect.TypeOf(rateLimit{})},
		{Name: "Repository", Type: reflect.StructOf(prs), Tag: `graphql:"repository(owner: $owner, name: $name)"`},
	})
	t2, _ := checksTypes.LoadOrStore(n, t)
	return t2.(reflect.Type)
}

// retag is t with from replaced by to in every graphql tag of its structs
// (through pointers and slices); types without such a tag are kept.
func retag(t reflect.Type, from, to string) reflect.Type {
	switch t.Kind() {
	case reflect.Pointer:
		if e := retag(t.Elem(), from, to); e != t.Elem() {
			return reflect.PointerTo(e)
		}
	case reflect.Slice:
		if e := retag(t.Elem(), from, to); e != t.Elem() {
			return reflect.SliceOf(e)
		}
	case reflect.Struct:
		fields, changed := make([]reflect.StructField, t.NumField()), false
		for i := range t.NumField() {
			f := t.Field(i)
			ft := retag(f.Type, from, to)
			tag := strings.ReplaceAll(string(f.Tag), from, to)
			changed = changed || ft != f.Type || tag != string(f.Tag)
			fields[i] = reflect.StructField{Name: f.Name, Type: ft, Tag: reflect.StructTag(tag)}
		}
		if changed {
			return reflect.StructOf(fields)
		}
	}
	return t
}

// copyRetagged copies src into dst, whose type is src's as retag built it
// from dst's: the same fields in the same order, but for their tags (which
// reflect's conversions do not ignore in a type of its making).
func copyRetagged(dst, src reflect.Value) {
	if dst.Type() == src.Type() {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
			copyRetagged(dst.Elem(), src.Elem())
		}
	case reflect.Slice:
		if !src.IsNil() {
			dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
			for i := range src.Len() {
				copyRetagged(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Struct:
		for i := range src.NumField() {
			copyRetagged(dst.Field(i), src.Field(i))
		}
	}
}
