package fakegithub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// apiPrefix is the Enterprise Server path prefix the fake also serves.
const apiPrefix = "/api/v3"

// rest serves the REST routes on the server's repository, its records in
// db; its handlers run under the server's lock (dispatchLocked).
type rest struct {
	s  *Server
	db *store
}

type handlerFunc func(h rest, c *call) reply

type routeDef struct {
	method string
	tmpl   string // OpenAPI path template
	segs   []string
	h      handlerFunc
}

// call is one request as a handler sees it, and renders its answer's
// objects: the URLs it was asked under and the per-request caches are
// the call's.
type call struct {
	s         *Server
	r         *http.Request
	params    map[string]string // unescaped path parameters
	q         url.Values
	body      []byte
	api       string // e.g. http://127.0.0.1:1234/api/v3 (no trailing slash)
	html      string // e.g. http://127.0.0.1:1234
	now       time.Time
	userCache map[string]userJSON        // rendered users, per request
	repoCache map[string]*repositoryJSON // rendered repositories, per request

	// GraphQL: the fault picked for the request, whether it changed the
	// answer, the points charged, and the request's sequence number.
	fault      *Fault
	faultFired bool
	points     int
	seq        int
}

type reply struct {
	status int
	body   any // nil: no body
	header http.Header
}

// routes are the operations the project's client (internal/ghapi) sends,
// and no others: a route nothing calls is untested code that can drift from
// GitHub unnoticed. Add one together with the client call that needs it.
var routes []routeDef

func init() {
	add := func(method, tmpl string, h handlerFunc) {
		routes = append(routes, routeDef{method: method, tmpl: tmpl, segs: strings.Split(strings.TrimPrefix(tmpl, "/"), "/"), h: h})
	}
	const r = "/repos/{owner}/{repo}"
	add("GET", r+"/issues", rest.listIssues)
	add("POST", r+"/issues", rest.createIssue)
	add("GET", r+"/issues/comments", rest.listRepoComments)
	add("DELETE", r+"/issues/comments/{comment_id}", rest.deleteComment)
	add("PATCH", r+"/issues/{issue_number}", rest.patchIssue)
	add("GET", r+"/issues/{issue_number}/comments", rest.listComments)
	add("POST", r+"/issues/{issue_number}/comments", rest.postComment)
	add("POST", r+"/issues/{issue_number}/labels", rest.addLabels)
	add("PUT", r+"/issues/{issue_number}/labels", rest.setLabels)
	add("DELETE", r+"/issues/{issue_number}/labels/{name}", rest.removeLabel)
	add("GET", r+"/issues/{issue_number}/timeline", rest.listTimeline)
	add("GET", r+"/pulls", rest.listPulls)
	add("GET", r+"/pulls/{pull_number}", rest.getPull)
	add("PATCH", r+"/pulls/{pull_number}", rest.patchPull)
	add("GET", r+"/pulls/{pull_number}/reviews", rest.listReviews)
	add("POST", r+"/pulls/{pull_number}/requested_reviewers", rest.requestReviewers)
	add("GET", r+"/git/ref/{ref}", rest.getRef)
	add("DELETE", r+"/git/refs/{ref}", rest.deleteRef)
	add("GET", r+"/contents/{path}", rest.getContents)
	add("GET", r+"/collaborators/{username}/permission", rest.getPermission)
	add("GET", "/installation/repositories", rest.listInstallationRepos)
	add("POST", "/graphql", nil) // served on its own bucket by dispatchGraphQL
}

// match finds the route for an escaped path. Path parameters match one
// escaped segment (so an unescaped "/" in a label name does not match),
// except a trailing {ref} or {path}, which takes the rest of the path.
func match(method, escPath string) (*routeDef, map[string]string) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	segs := strings.Split(strings.TrimPrefix(escPath, "/"), "/")
	for i := range routes {
		rt := &routes[i]
		if rt.method != method {
			continue
		}
		if p, ok := matchSegs(rt.segs, segs); ok {
			return rt, p
		}
	}
	return nil, nil
}

func matchSegs(tmpl, segs []string) (map[string]string, bool) {
	var params map[string]string
	for i, t := range tmpl {
		if (t == "{ref}" || t == "{path}") && i == len(tmpl)-1 {
			// The last template segment takes the rest of the path.
			v, ok := restParam(segs[min(i, len(segs)):])
			if !ok {
				return nil, false
			}
			return setParam(params, t[1:len(t)-1], v), true
		}
		if i >= len(segs) {
			return nil, false
		}
		if !strings.HasPrefix(t, "{") {
			if t != segs[i] {
				return nil, false
			}
			continue
		}
		name := t[1 : len(t)-1]
		v, ok := paramSeg(name, segs[i])
		if !ok {
			return nil, false
		}
		params = setParam(params, name, v)
	}
	if len(segs) != len(tmpl) {
		return nil, false
	}
	return params, true
}

// setParam sets a path parameter, making the map on first use.
func setParam(params map[string]string, k, v string) map[string]string {
	if params == nil {
		params = map[string]string{}
	}
	params[k] = v
	return params
}

// paramSeg reads one path segment as the parameter name: unescaped, not
// empty, and a number for numbers and comment IDs.
func paramSeg(name, seg string) (string, bool) {
	u, err := url.PathUnescape(seg)
	if err != nil || u == "" {
		return "", false
	}
	if strings.HasSuffix(name, "_number") || name == "comment_id" {
		if _, err := strconv.ParseInt(u, 10, 64); err != nil {
			return "", false
		}
	}
	return u, true
}

// restParam joins the remaining segments (at least one, none empty),
// unescaped, as a ref or path with slashes.
func restParam(rest []string) (string, bool) {
	if len(rest) == 0 {
		return "", false
	}
	parts := make([]string, 0, len(rest))
	for _, s := range rest {
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return "", false
		}
		parts = append(parts, u)
	}
	return strings.Join(parts, "/"), true
}

// maxRequestBody is the most of a request's body the fake reads.
const maxRequestBody = 32 << 20

// ServeHTTP serves the fake API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Into room for the length the client sent, in one allocation, where
	// io.ReadAll starts at 512 bytes and grows.
	var in bytes.Buffer
	in.Grow(int(min(max(r.ContentLength, 0), maxRequestBody)) + bytes.MinRead)
	in.ReadFrom(io.LimitReader(r.Body, maxRequestBody))
	body := in.Bytes()
	rt, params, prefix, info := routeRequest(r, body)
	info.At = s.now()

	s.mu.Lock()
	s.seq++
	info.N = s.seq
	hook := s.faultHook
	s.mu.Unlock()
	var hooked *Fault
	if hook != nil {
		hooked = hook(info) // outside the lock: the hook may call the Server
	}
	s.mu.Lock()
	fault := s.rules.pick(info, hooked)
	s.mu.Unlock()

	if fault != nil && fault.Late {
		s.holdLate(r, rt, params, body, info, fault)
		return
	}
	if fault != nil && fault.Delay > 0 {
		wait(r, fault.Delay)
	}

	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	c := &call{s: s, r: r, params: params, q: r.URL.Query(), body: body,
		html: scheme + "://" + r.Host}
	c.api = c.html + prefix

	s.mu.Lock()
	if s.webURL != "" {
		c.html = s.webURL
	}
	c.now = s.nowLocked()
	rep := s.dispatchLocked(rt, c, fault, &info)
	rep, payload := encodeReply(rep)
	if fault != nil && fault.Reshape != nil && payload != nil {
		payload = fault.Reshape(payload)
	}
	info.Status = rep.status
	if fault != nil && fault.Drop {
		info.Status = 0
	}
	s.log = append(s.log, info)
	late := s.late
	s.late = nil
	for _, land := range late {
		land()
	}
	s.mu.Unlock()

	writeReply(w, r, rep, payload, info, fault)
}

// routeRequest finds a request's route, its parameters and the API prefix
// it came under (/api/v3 or none), and describes it for the request log.
func routeRequest(r *http.Request, body []byte) (*routeDef, map[string]string, string, RequestInfo) {
	esc := r.URL.EscapedPath()
	prefix := ""
	if esc == apiPrefix || strings.HasPrefix(esc, apiPrefix+"/") {
		prefix = apiPrefix
		esc = strings.TrimPrefix(esc, apiPrefix)
	}
	if esc == "" {
		esc = "/"
	}
	if esc == "/api/graphql" {
		// Enterprise Server's GraphQL endpoint sits beside /api/v3, not
		// under it.
		esc = "/graphql"
	}
	rt, params := match(r.Method, esc)
	info := RequestInfo{
		Method: r.Method,
		Path:   r.URL.RequestURI(),
		Write:  r.Method != http.MethodGet && r.Method != http.MethodHead && !(esc == "/graphql" && isGraphQLQuery(body)),
		Body:   string(body),
		Route:  r.Method + " " + esc,
	}
	if rt != nil {
		info.Route = r.Method + " " + rt.tmpl
	}
	return rt, params, prefix, info
}

// wait holds an answer back for d, or until the client gives up.
func wait(r *http.Request, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

// encodeReply is a reply's JSON body, as GitHub writes it (no HTML
// escaping, no trailing newline); nil for none.
func encodeReply(rep reply) (reply, []byte) {
	if rep.body == nil || rep.status == http.StatusNoContent {
		return rep, nil
	}
	if raw, isRaw := rep.body.(rawJSON); isRaw && !json.Valid([]byte(raw)) {
		return rep, []byte(raw) // a fault's body that is not JSON (an HTML error page)
	}
	payload, err := encodeJSON(rep.body)
	if err != nil {
		rep = errReply(http.StatusInternalServerError, "fakegithub: encoding: "+err.Error(), docRoot)
		payload, _ := json.Marshal(rep.body)
		return rep, payload
	}
	return rep, payload
}

// encodeJSON is v's JSON as GitHub writes it: no HTML escaping, no
// trailing newline.
func encodeJSON(v any) ([]byte, error) {
	if m, isObj := v.(*omap); isObj && m != nil {
		// A GraphQL answer: the executor's objects write their JSON in
		// one pass, the same bytes (see omap.appendJSON).
		b, err := m.appendJSON(nil)
		if err != nil {
			return nil, &json.MarshalerError{Type: reflect.TypeOf(m), Err: err}
		}
		return b, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeReply sends a reply with GitHub's headers, or breaks the connection
// as a Drop or Truncate fault asks.
func writeReply(w http.ResponseWriter, r *http.Request, rep reply, payload []byte, info RequestInfo, fault *Fault) {
	h := w.Header()
	for k, vs := range rep.header {
		h[k] = vs
	}
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("0000:%04X:%06X:%06X:%08X", info.N%0xffff, info.N, info.N, info.N))
	if payload != nil && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	switch {
	case fault != nil && fault.Drop:
		abort(w, nil, 0)
		return
	case fault != nil && fault.Truncate:
		abort(w, payload, rep.status)
		return
	}
	if payload != nil {
		h.Set("Content-Length", strconv.Itoa(len(payload)))
	}
	w.WriteHeader(rep.status)
	if r.Method != http.MethodHead && payload != nil {
		w.Write(payload)
	}
}

// holdLate serves a LateWrite: the request is queued to take effect, under
// the server's lock, once the next request has been answered; the client,
// which sends one request at a time, can only send that one after giving up
// on this. It gets no answer: the handler waits for it to give up (a minute
// at most).
func (s *Server) holdLate(r *http.Request, rt *routeDef, params map[string]string, body []byte, info RequestInfo, fault *Fault) {
	// A copy: the request is used after its handler returned.
	c := &call{s: s, r: r.Clone(context.Background()), params: params, q: r.URL.Query(), body: body, html: "http://" + r.Host}
	c.api = c.html
	if strings.HasPrefix(r.URL.EscapedPath(), apiPrefix) {
		c.api += apiPrefix
	}
	s.mu.Lock()
	s.late = append(s.late, func() {
		c.now = s.nowLocked()
		rep := s.dispatchLocked(rt, c, nil, &info)
		info.Status, info.Fault = rep.status, fault.kind()
		s.log = append(s.log, info)
	})
	s.mu.Unlock()
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case <-r.Context().Done():
	case <-t.C:
	}
}

// abort closes the connection: at once (status 0), or after sending the
// status line, headers declaring the full length and only part of payload.
func abort(w http.ResponseWriter, payload []byte, status int) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		if status != 0 {
			w.Header().Set("Content-Length", strconv.Itoa(len(payload)+64))
			w.WriteHeader(status)
			w.Write(payload[:len(payload)/2])
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		panic(http.ErrAbortHandler)
	}
	hdr := w.Header().Clone()
	conn, buf, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	if status == 0 {
		return
	}
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	hdr.Set("Content-Length", strconv.Itoa(len(payload)+64))
	hdr.Write(buf)
	buf.WriteString("\r\n")
	buf.Write(payload[:len(payload)/2])
	buf.Flush()
}

const (
	docRoot      = "https://docs.github.com/rest"
	docRateLimit = "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"
)

func (s *Server) dispatchLocked(rt *routeDef, c *call, fault *Fault, info *RequestInfo) reply {
	gql := rt != nil && rt.tmpl == "/graphql"
	// Authentication first: a bad token is refused before anything else.
	if s.token != "" && !s.authorized(c.r.Header.Get("Authorization")) {
		rep := errReply(http.StatusUnauthorized, "Bad credentials", docRoot)
		rep.header = s.bucketHeadersLocked(gql)
		return rep
	}
	if fault != nil && fault.Status != 0 && !fault.AfterWrite && !fault.Drop {
		info.Fault = fault.kind()
		return fault.reply(s.bucketHeadersLocked(gql))
	}
	if fault != nil && !fault.AfterWrite && fault.Drop {
		info.Fault = fault.kind()
		return reply{}
	}
	if gql {
		return s.dispatchGraphQL(c, fault, info)
	}

	s.rate.window(s.nowLocked())
	if s.rate.remaining <= 0 {
		rep := errReply(s.rate.status, "API rate limit exceeded for installation ID 1.", docRateLimit)
		rep.header = s.rate.headers(s.nowLocked())
		return rep
	}
	s.rate.remaining--
	var rep reply
	if rt == nil {
		rep = notFound()
	} else if !s.ownRepo(c) {
		rep = notFound()
	} else {
		rep = rt.h(rest{s: s, db: &s.db}, c)
	}
	hdr := s.rate.headers(s.nowLocked())
	for k, vs := range rep.header {
		hdr[k] = vs
	}
	rep.header = hdr
	if fault != nil {
		info.Fault = fault.kind()
		if fault.AfterWrite && !fault.Drop {
			return fault.reply(hdr)
		}
	}
	return rep
}

// dispatchGraphQL serves POST /graphql on the GraphQL points bucket (the
// REST requests bucket is not drawn on).
func (s *Server) dispatchGraphQL(c *call, fault *Fault, info *RequestInfo) reply {
	c.fault, c.seq = fault, info.N
	rep := s.graphql(c)
	info.Points = c.points
	if fault != nil && (fault.GraphQL == nil || c.faultFired) {
		info.Fault = fault.kind()
	}
	if fault != nil && fault.AfterWrite && !fault.Drop {
		return fault.reply(rep.header)
	}
	return rep
}

// bucketHeadersLocked are the rate-limit headers of the request's bucket.
func (s *Server) bucketHeadersLocked(gql bool) http.Header {
	if gql {
		return s.gql.headers(s.nowLocked())
	}
	return s.rate.headers(s.nowLocked())
}

func (s *Server) ownRepo(c *call) bool {
	o, ok := c.params["owner"]
	if !ok {
		return true
	}
	return strings.EqualFold(o, s.owner) && strings.EqualFold(c.params["repo"], s.repo)
}

func (s *Server) authorized(h string) bool {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok {
		return false
	}
	scheme = strings.ToLower(scheme)
	return (scheme == "bearer" || scheme == "token") && strings.TrimSpace(tok) == s.token
}

// bucket is one of GitHub's rate-limit buckets, REST's requests or
// GraphQL's points: each refills an hour after its window opened, by the
// server's clock.
type bucket struct {
	resource         string // X-RateLimit-Resource: core or graphql
	limit, remaining int
	reset            time.Time
}

// window opens a new window, full, once the last one has ended.
func (b *bucket) window(now time.Time) {
	if b.reset.IsZero() || !now.Before(b.reset) {
		b.reset = now.Add(time.Hour)
		b.remaining = b.limit
	}
}

// headers are the bucket's X-RateLimit-* headers, as GitHub sends them on
// every answer.
func (b *bucket) headers(now time.Time) http.Header {
	b.window(now)
	rem := max(b.remaining, 0)
	h := http.Header{}
	h.Set("X-Ratelimit-Limit", strconv.Itoa(b.limit))
	h.Set("X-Ratelimit-Remaining", strconv.Itoa(rem))
	h.Set("X-Ratelimit-Used", strconv.Itoa(max(b.limit-rem, 0)))
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(b.reset.Unix(), 10))
	h.Set("X-Ratelimit-Resource", b.resource)
	return h
}

// restBucket is REST's requests bucket; status is how an exhausted one
// answers, 403 (GitHub's usual) or 429.
type restBucket struct {
	bucket
	status int
}

// ---- error replies ----

type errorBody struct {
	Message          string       `json:"message"`
	Errors           []fieldError `json:"errors,omitempty"`
	DocumentationURL string       `json:"documentation_url"`
	Status           string       `json:"status"`
}

type fieldError struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

func errReply(status int, msg, doc string) reply {
	return reply{status: status, body: errorBody{Message: msg, DocumentationURL: doc, Status: strconv.Itoa(status)}}
}

func notFound() reply { return errReply(http.StatusNotFound, "Not Found", docRoot) }

func badJSON(doc string) reply {
	return errReply(http.StatusBadRequest, "Problems parsing JSON", doc)
}

func invalid(doc string, errs ...fieldError) reply {
	return reply{status: http.StatusUnprocessableEntity, body: errorBody{
		Message: "Validation Failed", Errors: errs, DocumentationURL: doc, Status: "422"}}
}

func ok(body any) reply { return reply{status: http.StatusOK, body: body} }
