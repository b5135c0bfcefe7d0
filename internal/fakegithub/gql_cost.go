package fakegithub

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// GitHub's limits on a GraphQL query, as its documentation states them
// ("Rate limits and query limits for the GraphQL API"):
//   - every connection field needs first or last, each at most 100;
//   - a query may ask for at most 500,000 nodes: the sum over connection
//     fields of the product of the first/last values down to and including
//     each;
//   - it may nest fields at most 25 deep (not stated there; GitHub's
//     answer to a deeper query: "Query has depth of N, which exceeds max
//     depth of 25");
//   - it costs points = requests/100 rounded, at least 1, where requests is
//     the sum over connection fields of the product of the first/last of the
//     connections above each (a top-level connection is one request).
// The analysis is static, on the validated document: every fragment counts,
// whichever type it applies to.

const (
	maxPageSize  = 100
	maxNodeLimit = 500000
	maxDepth     = 25
)

// queryCost is the analysis of one operation.
type queryCost struct {
	requests int // connection requests
	nodes    int // nodes the query may return
	// prPage is the largest first/last of a pullRequests connection (for a
	// fault that times out only large pages).
	prPage int
	// readsPRs: the query selects pullRequests or pullRequest (for the
	// faults that act on a pull request).
	readsPRs bool
	// readsCommits: the query selects PullRequest.commits (for the faults
	// that act on it).
	readsCommits bool
	depth        int // the deepest field's nesting, the root's fields at 1
	errs         []gqlError
}

// points is the query's cost in rate-limit points.
func (q queryCost) points() int { return max(1, (q.requests+50)/100) }

// analyse computes an operation's cost and node count and checks its
// pagination arguments.
func analyse(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) queryCost {
	var q queryCost
	w := costWalker{doc: doc, vars: vars, q: &q}
	w.walk(op.SelectionSet, 1, nil)
	return q
}

type costWalker struct {
	doc  *ast.QueryDocument
	vars map[string]any
	q    *queryCost
}

// walk adds up sel's cost. path is the answer's path to sel; the fields'
// paths extend it in place, one after the other, and only an error copies
// it (as []any, a GraphQL path): a copy per field, its key boxed, was more
// than half of what reading a request allocated.
func (w costWalker) walk(sel ast.SelectionSet, mult int, path []string) {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			p := append(path, s.Alias)
			if s.Name == "pullRequests" || s.Name == "pullRequest" {
				w.q.readsPRs = true
			}
			w.q.readsCommits = w.q.readsCommits || s.Name == "commits"
			w.q.depth = max(w.q.depth, len(p))
			if !isConnection(s) {
				w.walk(s.SelectionSet, mult, p)
				continue
			}
			n := w.pageSize(s, p)
			if s.Name == "pullRequests" {
				w.q.prPage = max(w.q.prPage, n)
			}
			w.q.requests += mult
			w.q.nodes += mult * n
			w.walk(s.SelectionSet, mult*n, p)
		case *ast.InlineFragment:
			w.walk(s.SelectionSet, mult, path)
		case *ast.FragmentSpread:
			if fr := w.doc.Fragments.ForName(s.Name); fr != nil {
				w.walk(fr.SelectionSet, mult, path)
			}
		}
	}
}

// isConnection: GitHub's connection types are named "...Connection".
func isConnection(f *ast.Field) bool {
	return f.Definition != nil && strings.HasSuffix(f.Definition.Type.Name(), "Connection")
}

// pageSize checks a connection's first/last and returns the one given (0
// after an error, which is recorded).
func (w costWalker) pageSize(f *ast.Field, path []string) int {
	args := f.ArgumentMap(w.vars)
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	fail := func(typ, msg string) int {
		at := make([]any, len(path))
		for i, k := range path {
			at[i] = k
		}
		w.q.errs = append(w.q.errs, gqlError{Type: typ, Path: at,
			Locations: []gqlLocation{{Line: f.Position.Line, Column: f.Position.Column}}, Message: msg})
		return 0
	}
	switch {
	case !hasFirst && !hasLast:
		return fail("MISSING_PAGINATION_BOUNDARIES",
			fmt.Sprintf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", f.Name))
	case hasFirst && hasLast:
		return fail("", fmt.Sprintf("Passing both `first` and `last` to paginate the `%s` connection is not supported.", f.Name))
	}
	arg, n := "first", first
	if hasLast {
		arg, n = "last", last
	}
	switch {
	case n > maxPageSize:
		return fail("EXCESSIVE_PAGINATION", fmt.Sprintf("Requesting %d records on the `%s` connection exceeds the `%s` limit of %d records.",
			n, f.Name, arg, maxPageSize))
	case n < 0:
		return fail("", fmt.Sprintf("`%s` on the `%s` connection cannot be less than zero.", arg, f.Name))
	}
	return n
}

// nodeLimitError is GitHub's answer to a query over the node limit.
func nodeLimitError(nodes int) gqlError {
	return gqlError{Type: "MAX_NODE_LIMIT_EXCEEDED", Message: fmt.Sprintf(
		"This query requests up to %s possible nodes which exceeds the maximum limit of %s.", thousands(nodes), thousands(maxNodeLimit))}
}

// thousands writes n with comma separators, as GitHub's messages do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
