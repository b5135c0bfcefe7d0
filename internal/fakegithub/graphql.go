package fakegithub

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
)

// This file serves POST /graphql (and Enterprise Server's /api/graphql):
// the request, GitHub's limits and points bucket, and the GraphQL faults.
// The executor is in gql_exec.go, the resolvers in gql_resolvers.go.

type gqlError struct {
	Type      string        `json:"type,omitempty"`
	Code      string        `json:"code,omitempty"`
	Path      []any         `json:"path,omitempty"`
	Locations []gqlLocation `json:"locations,omitempty"`
	Message   string        `json:"message"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// rateInfo is what the query's rateLimit field answers: the bucket after
// this query's cost.
type rateInfo struct {
	cost, limit, remaining, used, nodeCount int
	resetAt                                 time.Time
}

// gqlBucket is GitHub's GraphQL points bucket, apart from REST's requests.
type gqlBucket struct {
	bucket
	forbidden403 bool // an exhausted bucket answers the newer 403 shape
}

// SetGraphQLRateRemaining sets the points left in the GraphQL bucket's
// current hour (0: the next query is refused with RATE_LIMITED).
func (s *Server) SetGraphQLRateRemaining(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gql.window(s.nowLocked())
	s.gql.remaining = n
}

// GraphQLRateRemaining returns the points left in the GraphQL bucket.
func (s *Server) GraphQLRateRemaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gql.window(s.nowLocked())
	return s.gql.remaining
}

// SetGraphQLRateLimit403 picks how an exhausted GraphQL bucket answers:
// false (default), HTTP 200 with {"errors":[{"type":"RATE_LIMITED",...}]};
// true, the newer HTTP 403 with {"errors":[{"type":"RATE_LIMIT",
// "code":"graphql_rate_limit",...}]}. GitHub has answered both ways.
func (s *Server) SetGraphQLRateLimit403(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gql.forbidden403 = on
}

// GraphQLPoints returns the points charged to the GraphQL bucket by the
// logged requests (RequestInfo.Points summed).
func (s *Server) GraphQLPoints() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		n += r.Points
	}
	return n
}

// ---- faults ----

// GraphQL fault kinds (GraphQLFault.Kind).
const (
	GraphQLTimeout     = "timeout"
	GraphQLPartial     = "partial"
	GraphQLMissing     = "missing"
	GraphQLRateLimited = "rate-limited"
)

// GraphQLFault is a failure only a GraphQL answer can have; it rides on a
// Fault (Fault.GraphQL) and so is injected by the same rules (FaultRule
// with Route "POST /graphql"). Such a rule counts only the requests the
// fault applies to (see appliesTo), so Nth and Times count pages, not the
// viewer queries between them; RequestInfo.Fault names the fault when it
// changed the answer.
type GraphQLFault struct {
	Kind string
	// AbovePRs (timeout): time out only a query whose pullRequests page asks
	// for more than this many (0: every query, with a page or not).
	AbovePRs int
	// PR (partial, missing): the pull request number; 0 is the first of the
	// pullRequests page.
	PR int
	// Timeline (partial): the error is on the PR's timelineItems (the PR
	// node becomes null through it, as timelineItems is non-null).
	Timeline bool
	// HTTP403 (rate-limited): the newer 403 shape instead of HTTP 200.
	HTTP403 bool
	// Commits: the fault applies only to a query reading PullRequest.commits
	// (the head's ancestry): a partial answer has the error on that
	// connection, a missing one leaves the commits out.
	Commits bool
}

// appliesTo reports whether the fault would change the answer to a GraphQL
// request: a rule with a GraphQL fault counts only those (a viewer query
// sent between two pages does not use up a fault meant for a page). A
// timeout applies to a query whose pullRequests page is larger than
// AbovePRs (AbovePRs 0: to every valid query), partial and missing to a
// query reading pull requests, rate-limited to every request.
func (gf *GraphQLFault) appliesTo(body []byte) bool {
	if gf.Kind == GraphQLRateLimited && !gf.Commits {
		return true
	}
	var req struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	doc, op, errs := parseGraphQL(req.Query, req.OperationName)
	if len(errs) > 0 {
		return false
	}
	vars, err := validator.VariableValues(gqlSchema, op, req.Variables)
	if err != nil {
		return false
	}
	q := analyse(doc, op, vars)
	switch {
	case gf.Commits:
		return q.readsCommits
	case gf.Kind == GraphQLTimeout:
		return gf.AbovePRs == 0 || q.prPage > gf.AbovePRs
	default:
		return q.readsPRs
	}
}

// TimeoutGraphQL answers HTTP 200 with data null and GitHub's "Something
// went wrong while executing your query. This may be the result of a
// timeout..." error, for queries whose pullRequests page is larger than
// abovePRs, others being served; 0: every query (a PR's history too). The cut
// query is charged, as GitHub charges it.
func TimeoutGraphQL(abovePRs int) *Fault {
	return &Fault{GraphQL: &GraphQLFault{Kind: GraphQLTimeout, AbovePRs: abovePRs}}
}

// PartialGraphQL serves the query with pull request pr (0: the first of
// the page) null and an error whose path points at it: its node in
// repository.pullRequests.nodes (or repository.pullRequest), or, with
// timeline, its timelineItems.
func PartialGraphQL(pr int, timeline bool) *Fault {
	return &Fault{GraphQL: &GraphQLFault{Kind: GraphQLPartial, PR: pr, Timeline: timeline}}
}

// MissingPRGraphQL leaves pull request pr (0: the first of the page) out
// of the pullRequests nodes without an error; totalCount is unchanged.
// repository.pullRequest(number: pr) answers null.
func MissingPRGraphQL(pr int) *Fault {
	return &Fault{GraphQL: &GraphQLFault{Kind: GraphQLMissing, PR: pr}}
}

// RateLimitedGraphQL answers as an exhausted points bucket does (HTTP 200
// RATE_LIMITED, or with http403 the 403 RATE_LIMIT shape), for one request,
// without changing the bucket.
func RateLimitedGraphQL(http403 bool) *Fault {
	return &Fault{GraphQL: &GraphQLFault{Kind: GraphQLRateLimited, HTTP403: http403}}
}

// BadGatewayGraphQL is GitHub's GraphQL 502: {"message":"Server Error"},
// or with html the HTML page its front end sends.
func BadGatewayGraphQL(html bool) *Fault {
	if html {
		return &Fault{Status: http.StatusBadGateway, Header: http.Header{"Content-Type": {"text/html"}},
			Body: "<html><body><h1>502 Bad Gateway</h1>\nThe server returned an invalid or incomplete response.\n</body></html>\n"}
	}
	return &Fault{Status: http.StatusBadGateway, Body: `{"message":"Server Error"}`}
}

// ---- the request ----

// graphql serves a GraphQL request: GitHub answers GraphQL errors with HTTP
// 200 and an "errors" array, and so does the fake. It does not draw on the
// REST bucket; the headers are the GraphQL bucket's.
func (s *Server) graphql(c *call) reply {
	rep := s.graphqlReply(c)
	h := s.gql.headers(s.nowLocked())
	for k, vs := range rep.header {
		h[k] = vs
	}
	rep.header = h
	return rep
}

// isGraphQLQuery reports a GraphQL request that only reads: a document
// that parses and has no mutation.
func isGraphQLQuery(body []byte) bool {
	if r, _, good := readCached(body); good {
		return r.query
	}
	var req struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	doc := parseCached(req.Query).doc
	return doc != nil && onlyReads(doc)
}

// onlyReads reports a document with operations, none of them a mutation.
func onlyReads(doc *ast.QueryDocument) bool {
	if len(doc.Operations) == 0 {
		return false
	}
	for _, op := range doc.Operations {
		if op.Operation == ast.Mutation {
			return false
		}
	}
	return true
}

func gqlErrors(errs ...gqlError) reply { return ok(map[string]any{"errors": errs}) }

func gqlDataNull(errs ...gqlError) reply {
	body := &omap{}
	body.set("data", nil)
	body.set("errors", errs)
	return ok(body)
}

func (s *Server) graphqlReply(c *call) reply {
	r, refused, good := readCached(c.body)
	if !good {
		return refused
	}
	q, dry := r.q, r.dry
	var gf *GraphQLFault
	if c.fault != nil {
		gf = c.fault.GraphQL
	}
	s.gql.window(s.nowLocked())
	points := q.cost.points()
	switch {
	case gf != nil && gf.Kind == GraphQLRateLimited:
		c.faultFired = true
		return gqlRateLimited(gf.HTTP403)
	case !dry && s.gql.remaining < points:
		return gqlRateLimited(s.gql.forbidden403)
	}
	if !dry {
		s.gql.remaining -= points
		c.points = points
	}
	if gf != nil && gf.Kind == GraphQLTimeout && (gf.AbovePRs == 0 || q.cost.prPage > gf.AbovePRs) {
		// GitHub cuts a query running past 10 s; it still costs.
		c.faultFired = true
		return gqlDataNull(gqlError{Message: "Something went wrong while executing your query. This may be the result of a timeout, " +
			fmt.Sprintf("or it could be a GitHub bug. Please include `%04X:%04X` when reporting this issue.", c.seq%0xffff, c.seq)})
	}
	x := &gexec{s: s, c: c, doc: q.doc, vars: q.vars, plan: q.plan}
	if gf != nil && (gf.Kind == GraphQLPartial || gf.Kind == GraphQLMissing) {
		x.fault, x.faultPR = gf, gf.PR
	}
	x.rate = rateInfo{cost: points, limit: s.gql.limit, remaining: s.gql.remaining,
		used: s.gql.limit - s.gql.remaining, nodeCount: q.cost.nodes, resetAt: s.gql.reset}
	data := x.execute(q.op)
	c.faultFired = c.faultFired || x.faultFired
	return gqlAnswer(data, x.errs)
}

// gqlQuery is a GraphQL request GitHub accepted for running: its document,
// the operation it runs, its variables coerced, and what it costs.
type gqlQuery struct {
	doc  *ast.QueryDocument
	op   *ast.OperationDefinition
	vars map[string]any
	cost queryCost
	plan *plan // what its executions derive from doc and vars alone
}

// readGraphQL checks a request as GitHub does before it runs anything: the
// JSON, the document, the operation, the variables, then the limits on
// nodes and depth. A refusal is GitHub's answer to it (good false).
func readGraphQL(body []byte, parse func(string) *parsedDoc) (q gqlQuery, refused reply, good bool) {
	var req struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	if err := json.Unmarshal(body, &req); err != nil || strings.TrimSpace(req.Query) == "" {
		return q, reply{status: http.StatusBadRequest, body: map[string]any{
			"message": "Problems parsing JSON", "documentation_url": docGraphQL}}, false
	}
	doc, op, errs := pickOperation(parse(req.Query), req.OperationName)
	if len(errs) > 0 {
		return q, gqlErrors(errs...), false
	}
	vars, err := validator.VariableValues(gqlSchema, op, req.Variables)
	if err != nil {
		return q, gqlErrors(variableError(op, err)), false
	}
	q = gqlQuery{doc: doc, op: op, vars: vars, cost: analyse(doc, op, vars), plan: &plan{}}
	switch {
	case len(q.cost.errs) > 0:
		return q, gqlDataNull(q.cost.errs...), false
	case q.cost.nodes > maxNodeLimit:
		return q, gqlDataNull(nodeLimitError(q.cost.nodes)), false
	case q.cost.depth > maxDepth:
		return q, gqlErrors(gqlError{Message: fmt.Sprintf("Query has depth of %d, which exceeds max depth of %d", q.cost.depth, maxDepth)}), false
	}
	return q, reply{}, true
}

// gqlAnswer is the answer of a query that ran: its data, null when there
// is none, and its errors, when there are any.
func gqlAnswer(data *omap, errs []gqlError) reply {
	body := &omap{}
	if data == nil {
		body.set("data", nil)
	} else {
		body.set("data", data)
	}
	if len(errs) > 0 {
		body.set("errors", errs)
	}
	return ok(body)
}

// dryRun: rateLimit(dryRun: true) asks for the cost without running the
// query. GitHub then charges nothing; the fake serves the query uncharged.
func dryRun(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) bool {
	x := &gexec{doc: doc, vars: vars}
	for _, f := range x.collect("Query", op.SelectionSet, nil) {
		if f.Name == "rateLimit" && f.ArgumentMap(x.vars)["dryRun"] == true {
			return true
		}
	}
	return false
}

func gqlRateLimited(http403 bool) reply {
	if http403 {
		return reply{status: http.StatusForbidden, body: map[string]any{"errors": []gqlError{{Type: "RATE_LIMIT", Code: "graphql_rate_limit",
			Message: "API rate limit already exceeded for installation ID 1."}}}}
	}
	return gqlErrors(gqlError{Type: "RATE_LIMITED", Message: "API rate limit exceeded for installation ID 1."})
}

// parseGraphQL parses and validates a document against the schema subset
// (once per text: parseCached) and picks the operation to run.
func parseGraphQL(query, name string) (*ast.QueryDocument, *ast.OperationDefinition, []gqlError) {
	return pickOperation(parseCached(query), name)
}

// pickOperation picks the operation to run from a parsed document.
func pickOperation(p *parsedDoc, name string) (*ast.QueryDocument, *ast.OperationDefinition, []gqlError) {
	if len(p.errs) > 0 {
		return nil, nil, p.errs
	}
	doc := p.doc
	var op *ast.OperationDefinition
	if name == "" && len(doc.Operations) == 1 {
		op = doc.Operations[0]
	} else {
		op = doc.Operations.ForName(name)
	}
	if op == nil {
		return nil, nil, []gqlError{{Message: "An operation name is required"}}
	}
	return doc, op, nil
}

var cannotQuery = regexp.MustCompile(`^Cannot query field "([^"]+)" on type "([^"]+)"\.`)

// fromParser turns gqlparser's errors into GitHub's error objects; an
// unknown field gets GitHub's wording ("Field 'x' doesn't exist on type 'Y'").
func fromParser(err error) []gqlError {
	var list gqlerror.List
	var one *gqlerror.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = gqlerror.List{one}
	default:
		return []gqlError{{Message: err.Error()}}
	}
	out := make([]gqlError, 0, len(list))
	for _, e := range list {
		msg := e.Message
		if m := cannotQuery.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("Field '%s' doesn't exist on type '%s'", m[1], m[2])
		}
		ge := gqlError{Message: msg}
		for _, l := range e.Locations {
			ge.Locations = append(ge.Locations, gqlLocation{Line: l.Line, Column: l.Column})
		}
		out = append(out, ge)
	}
	return out
}

// SetReviewsRequired makes the repository require reviews (branch
// protection): PullRequest.reviewDecision is then served, else null as
// GitHub answers without the rule.
func (s *Server) SetReviewsRequired(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reviewsRequired = on
}

// variableError is GitHub's answer to a variable the operation's type
// refuses: "Variable $n of type Int! was provided invalid value".
func variableError(op *ast.OperationDefinition, err error) gqlError {
	var ge *gqlerror.Error
	if errors.As(err, &ge) && len(ge.Path) >= 2 {
		name, _ := ge.Path[1].(ast.PathName)
		if v := op.VariableDefinitions.ForName(string(name)); v != nil {
			return gqlError{Message: fmt.Sprintf("Variable $%s of type %s was provided invalid value", name, v.Type.String()),
				Locations: []gqlLocation{{Line: v.Position.Line, Column: v.Position.Column}}}
		}
	}
	return gqlError{Message: err.Error()}
}
