package ghapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v62/github"
)

// GraphQL reads are documents written out (each query's const or builder,
// aliases in the text, as cli/cli writes its own), sent by ask on the same
// http.Client as REST, so the transport counts, budgets, paces, retries
// and redacts them as every REST request. Each answer is decoded once, by
// encoding/json, into flat structs: its data, a union's fragments side by
// side in one struct told apart by __typename; its errors with their type
// and path (which PR of a page failed, a rate limit); and its rateLimit,
// which is metered.

// errShrink means GitHub could not answer the query in time (a timeout, a 502,
// "something went wrong") or answered more than the transport accepts
// (Limits.MaxBody): the same query smaller may pass.
var errShrink = errors.New("GitHub could not answer the query in time")

// gqlError is one entry of an answer's errors array.
type gqlError struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    []any  `json:"path"`
}

type gqlErrors []gqlError

// spoiled are the aliases at depth of the answer that errors spoil (one
// PR's field p3 under the repository, one account's u0 at the root): the
// caller leaves those out and reads the rest.
func (es gqlErrors) spoiled(depth int) map[string]bool {
	out := map[string]bool{}
	for _, e := range es {
		if len(e.Path) > depth {
			if alias, ok := e.Path[depth].(string); ok {
				out[alias] = true
			}
		}
	}
	return out
}

func (es gqlErrors) String() string {
	var parts []string
	for i, e := range es {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-i))
			break
		}
		parts = append(parts, strings.TrimSpace(def(e.Type, "error")+": "+e.Message))
	}
	return strings.Join(parts, "; ")
}

// byIndex maps the index of each item under prefix (a list field's path)
// that an error names to that error's text.
func (es gqlErrors) byIndex(prefix []string) map[int]string {
	out := map[int]string{}
	for _, e := range es {
		if len(e.Path) <= len(prefix) {
			continue
		}
		match := true
		for i, p := range prefix {
			if s, ok := e.Path[i].(string); !ok || s != p {
				match = false
				break
			}
		}
		if idx, ok := e.Path[len(prefix)].(float64); match && ok {
			out[int(idx)] = strings.TrimSpace(def(e.Type, "error") + ": " + e.Message)
		}
	}
	return out
}

// rateLimited reports whether GitHub's GraphQL points are spent. Older answers say
// RATE_LIMITED, recent ones RATE_LIMIT with code graphql_rate_limit.
func (e gqlError) rateLimited() bool {
	return e.Type == "RATE_LIMITED" || e.Type == "RATE_LIMIT" || e.Code == "graphql_rate_limit"
}

// timedOut reports whether e is GitHub's words for a query it cut (10 s) or failed inside.
func (e gqlError) timedOut() bool {
	m := strings.ToLower(e.Message)
	return e.Type == "TIMEOUT" || strings.Contains(m, "something went wrong") || strings.Contains(m, "timeout") ||
		strings.Contains(m, "timed out") || strings.Contains(m, "couldn't respond to your request in time")
}

// gqlReply is the answer to one query: its status and body, which the
// transport has read and bounded already.
type gqlReply struct {
	status int
	body   []byte
	resp   *http.Response
}

// gqlAnswer is what settle reads of a GraphQL answer beside the caller's
// data, from its one decoding (ask).
type gqlAnswer struct {
	errors   gqlErrors
	data     bool // the answer holds data, not null
	repoNull bool // its repository is null
}

// gqlData is what ask reads of a query's data beside the caller's fields:
// the rateLimit it asked for, and whether its repository is null.
type gqlData interface {
	rate() *rateLimit
	repoNull() bool
}

// inRepository is the data of a query of one repository: the rateLimit and
// the repository, nil when GitHub answered it null.
type inRepository[R any] struct {
	RateLimit  rateLimit
	Repository *R
}

func (d *inRepository[R]) rate() *rateLimit { return &d.RateLimit }
func (d *inRepository[R]) repoNull() bool   { return d.Repository == nil }

// repo is the repository's fields; none (all zero) when GitHub answered it
// null, which ask lets through only beside errors that the caller reads
// first.
func (d *inRepository[R]) repo() *R {
	if d.Repository == nil {
		return new(R)
	}
	return d.Repository
}

// ask sends the GraphQL document doc with its variables and decodes the
// answer once, with encoding/json, into T: its data (zero when GitHub gave
// none beside its errors) and its errors, which it sorts as query does.
// T's rateLimit, when T is a gqlData, is metered.
func ask[T any](ctx context.Context, c *graphQL, shrink bool, doc string, vars map[string]any) (*T, gqlErrors, error) {
	if shrink {
		ctx = shrinkable(ctx)
	}
	reply, err := postGraphQL(asRead(ctx), c.hc, c.gqlURL, c.gh.UserAgent, doc, vars)
	var out struct {
		Data   *T        `json:"data"`
		Errors gqlErrors `json:"errors"`
	}
	switch {
	case err != nil:
	case reply.status == http.StatusOK:
		err = json.Unmarshal(reply.body, &out)
	default:
		// Only the errors of an answer httpStatus explains.
		var e struct{ Errors gqlErrors }
		_ = json.Unmarshal(reply.body, &e)
		out.Errors = e.Errors
	}
	ans := gqlAnswer{errors: out.Errors, data: out.Data != nil}
	var rate *rateLimit
	if d, ok := any(out.Data).(gqlData); ok && out.Data != nil {
		ans.repoNull = d.repoNull()
		if r := d.rate(); r.Limit != 0 {
			rate = r // GitHub gave it
		}
	}
	pathed, err := c.settle(ctx, shrink, reply, err, ans, rate)
	if err != nil {
		return nil, nil, err
	}
	if out.Data == nil {
		out.Data = new(T)
	}
	return out.Data, pathed, nil
}

// postGraphQL sends one GraphQL request to endpoint on the client's hc (its
// transport counts, paces, retries and bounds it as any request), named by
// the user agent ua as go-github names the REST ones, and reads its answer;
// err is a request that got none.
func postGraphQL(ctx context.Context, hc *http.Client, endpoint, ua, doc string, vars map[string]any) (gqlReply, error) {
	body, err := json.Marshal(struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables,omitempty"`
	}{doc, vars})
	if err != nil {
		return gqlReply{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return gqlReply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", ua)
	resp, err := hc.Do(req)
	if err != nil {
		return gqlReply{}, err
	}
	defer resp.Body.Close()
	b, err := bodyBytes(resp.Body)
	if err != nil {
		return gqlReply{}, err
	}
	return gqlReply{status: resp.StatusCode, body: b, resp: resp}, nil
}

// settle is what an answer comes to: the errors that name a path, or the
// error that makes the whole answer useless (query's).
func (c *graphQL) settle(ctx context.Context, shrink bool, reply gqlReply, err error, ans gqlAnswer, rate *rateLimit) (gqlErrors, error) {
	if stop := c.t.meterAnswer(ans.errors, rate, c.clock.Now()); stop != nil {
		return nil, stop
	}
	if reply.body == nil && err != nil {
		return nil, noAnswer(err, shrink)
	}
	if err := httpStatus(reply, shrink, c.gqlURL); err != nil {
		return nil, err
	}
	pathed, perr := pathedErrors(ans.errors, reply.resp, shrink, isRootsApart(ctx))
	if perr != nil {
		return nil, perr
	}
	if err != nil {
		// The data did not fit the query: what did decode is no fact,
		// beside errors or not (a wrong-typed state is no "not open").
		return nil, fmt.Errorf("decoding GitHub's answer: %w", err)
	}
	if len(ans.errors) == 0 && (!ans.data || ans.repoNull) {
		// An answer that names no error and holds no data is no answer.
		return nil, &malformedError{route: "POST /graphql", why: "it holds no data and names no error"}
	}
	return pathed, nil
}

// meterAnswer counts an answer's rateLimit against the points, and is the
// stop when the answer says the points are spent.
func (t *transport) meterAnswer(errs gqlErrors, r *rateLimit, now time.Time) error {
	if r != nil {
		t.meterPoints(r.Cost, r.Limit, r.Remaining, r.ResetAt)
	}
	for _, e := range errs {
		if e.rateLimited() {
			stop := &rateLimitError{reset: t.pointsResetAt(), now: now, graphql: true}
			t.stop(stop)
			return stop
		}
	}
	return nil
}

// noAnswer is the error of a query that got no answer: the transport's (a
// stop, a failure), or errShrink for an answer too large for the
// transport to accept (Limits.MaxBody), a page of many PRs with long
// comments: smaller pages pass, as for a timeout; at one PR its size is
// that PR's own.
func noAnswer(err error, shrink bool) error {
	var big *tooLargeError
	if errors.As(err, &big) {
		if shrink {
			return errShrink
		}
		big.onePR = true
	}
	return err
}

// pathedErrors sorts an answer's errors: those on one part of the answer
// are returned for the caller to leave what they spoil; any other is the
// whole answer's failure (err).
func pathedErrors(errs gqlErrors, resp *http.Response, shrink, rootsApart bool) (pathed gqlErrors, err error) {
	for _, e := range errs {
		switch {
		case len(e.Path) == 1 && !rootsApart:
			// The query's root (the repository) failed: nothing else in
			// the answer counts. Its 404 or 403 is explained as REST's.
			return nil, rootError(e, resp)
		case len(e.Path) >= 1:
			// One part of the answer failed, whatever the words ("something
			// went wrong" too): the caller leaves what it spoils and reads
			// the rest. Shrinking for it would fail the whole listing at one
			// PR a page when one PR's part fails on every try.
		case e.timedOut() && shrink:
			return nil, errShrink
		case e.timedOut():
			return nil, fmt.Errorf("GitHub could not answer the query in time: %s", e.Message)
		default:
			return nil, fmt.Errorf("GitHub answered the query with an error: %s", gqlErrors{e})
		}
		pathed = append(pathed, e)
	}
	return pathed, nil
}

// rootError is an error on the query's root field as the REST answer of
// the same meaning, so it is classified and explained alike: NOT_FOUND is a
// 404 (the repository does not exist or the token cannot see it), FORBIDDEN
// a 403 (a missing permission).
func rootError(e gqlError, resp *http.Response) error {
	status := map[string]int{"NOT_FOUND": http.StatusNotFound, "FORBIDDEN": http.StatusForbidden}[e.Type]
	if status == 0 || resp == nil {
		return fmt.Errorf("GitHub answered the query with an error: %s", gqlErrors{e})
	}
	r := *resp
	r.StatusCode = status
	r.Status = fmt.Sprintf("%d %s", status, http.StatusText(status))
	return &github.ErrorResponse{Response: &r, Message: e.Message}
}

// pages remembers how large a page GitHub answers in time, per shape.
type pages struct {
	mu   sync.Mutex
	size map[int]int // by connections per PR
}

// sizeFor is the page size of a query with connections per PR.
func (p *pages) sizeFor(connections int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n, ok := p.size[connections]; ok {
		return n
	}
	return pageSize(connections)
}

// shrink halves the page after GitHub could not answer one of size in time;
// the rest of the run keeps the smaller size.
func (p *pages) shrink(connections, size int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.size == nil {
		p.size = map[int]int{}
	}
	p.size[connections] = max(size/2, 1)
}

// viewerSeen keeps the login a page's viewer named, so Viewer needs no
// request of its own. Who the token is must be one answer: stalepr's own
// markers and labels are told from anyone else's by it, so a page naming
// another login than an earlier one (a proxy mixing tokens, a token
// swapped mid-run) stops the run (stop: every later request refused with
// the error), rather than let either answer decide what is written.
type viewerSeen struct {
	mu    sync.Mutex
	login string
}

func (v *viewerSeen) saw(login string, stop func(error)) error {
	if login == "" {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.login != "" && !strings.EqualFold(v.login, login) {
		err := fmt.Errorf("GitHub named two accounts as the one this token acts as (the viewer): %q, then %q; "+
			"the run stops and writes nothing more, since stalepr's own markers cannot be told from others'. "+
			"Check that nothing between stalepr and GitHub (a proxy, a cache) mixes answers to different tokens", v.login, login)
		stop(err)
		return err
	}
	v.login = login
	return nil
}

func (v *viewerSeen) known() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.login
}

type shrinkKey struct{}

// shrinkable marks a query whose 502 and 504 answers (GitHub's for a query
// it could not finish in time) are not retried as they are: the query is
// asked again smaller instead. Its other 5xx answers are retried as any
// read's.
func shrinkable(ctx context.Context) context.Context {
	return context.WithValue(ctx, shrinkKey{}, true)
}

type rootsApartKey struct{}

// rootsApart marks a query whose root fields are aliases of one kind that
// each may fail alone (user(login:) of an account since deleted): an error
// on one of them spoils that field only, as one PR's does in a listing.
func rootsApart(ctx context.Context) context.Context {
	return context.WithValue(ctx, rootsApartKey{}, true)
}

func isRootsApart(ctx context.Context) bool {
	ok, _ := ctx.Value(rootsApartKey{}).(bool)
	return ok
}

func isShrinkable(ctx context.Context) bool {
	ok, _ := ctx.Value(shrinkKey{}).(bool)
	return ok
}

// shrinks reports whether an answer of this status to a shrinkable query halves its page.
func shrinks(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusGatewayTimeout
}

// readKey marks the GraphQL requests that only read: ask's (its documents
// are queries) and Viewer's. A dry run sends them;
// every other GraphQL POST (the draft conversion's mutation) is a write,
// refused in a dry run. The call site knows; the body is not parsed.
type readKey struct{}

func asRead(ctx context.Context) context.Context { return context.WithValue(ctx, readKey{}, true) }

// isRead reports whether the request is a query's (readKey).
func isRead(ctx context.Context) bool {
	ok, _ := ctx.Value(readKey{}).(bool)
	return ok
}

// httpStatus is the error an answer's HTTP status makes: errShrink for one a
// smaller query may avoid (when the query can shrink), no GraphQL API at
// all for a 404, and otherwise go-github's reading of an error answer, so
// it is classified (and explained) as a REST one is.
func httpStatus(reply gqlReply, shrink bool, gqlURL string) error {
	switch {
	case shrink && shrinks(reply.status):
		return errShrink
	case reply.status == http.StatusNotFound:
		return &noGraphQLError{url: gqlURL}
	case reply.status != http.StatusOK:
		reply.resp.Body = io.NopCloser(bytes.NewReader(reply.body))
		if cerr := github.CheckResponse(reply.resp); cerr != nil {
			return cerr
		}
		return fmt.Errorf("GitHub answered %d to the query", reply.status)
	}
	return nil
}

// graphqlURL is GitHub's GraphQL endpoint for the REST root in use:
// https://api.github.com/graphql on github.com, https://HOST/api/graphql on
// Enterprise Server (REST root https://HOST/api/v3), and ROOT/graphql
// otherwise (GHE.com's https://api.SUBDOMAIN.ghe.com, the fake GitHub).
func graphqlURL(api *url.URL) string {
	base := *api
	switch {
	case strings.HasSuffix(base.Path, "/api/v3/"):
		base.Path = strings.TrimSuffix(base.Path, "v3/") + "graphql"
	default:
		base.Path = strings.TrimSuffix(base.Path, "/") + "/graphql"
	}
	base.RawPath = ""
	return base.String()
}

// rateLimitField asks what a query cost and what is left (rateLimit): every
// query's.
const rateLimitField = `rateLimit { cost limit remaining resetAt }`

// cursorOf is a cursor variable: null for the first page.
func cursorOf(after string) *string {
	if after == "" {
		return nil
	}
	return &after
}
