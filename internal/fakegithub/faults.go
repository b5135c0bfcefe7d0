package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RequestInfo is one logged request. The Authorization header is never
// recorded.
type RequestInfo struct {
	N      int    // 1-based sequence number since the server started
	Method string // as sent
	// Route is "METHOD /template" with GitHub's OpenAPI path template, e.g.
	// "GET /repos/{owner}/{repo}/issues/{issue_number}/comments"; for an
	// unknown path it is "METHOD /escaped/path" (without the /api/v3 prefix).
	Route  string
	Path   string // raw (escaped) path and query as sent, prefix included
	Status int    // status sent; 0 when the connection was dropped
	Write  bool   // method other than GET and HEAD
	Fault  string // kind of injected fault, "" for none
	Body   string // request body
	// Points is what a GraphQL request was charged in the GraphQL bucket
	// (its rateLimit cost; 0 for REST, refused queries and dry runs).
	Points int
	// At is the server's clock when the request came (Options.Clock): how
	// far apart two requests were in the run's own time.
	At time.Time
}

// Requests returns the request log, oldest first.
func (s *Server) Requests() []RequestInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RequestInfo, len(s.log))
	copy(out, s.log)
	return out
}

// Count returns how many requests were logged.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// Writes returns how many logged requests were writes (not GET or HEAD).
func (s *Server) Writes() int {
	return len(s.WriteRequests())
}

// WriteRequests returns the logged writes, oldest first.
func (s *Server) WriteRequests() []RequestInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []RequestInfo
	for _, r := range s.log {
		if r.Write {
			out = append(out, r)
		}
	}
	return out
}

// CountBy counts logged requests by Route ("METHOD /template").
func (s *Server) CountBy() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int{}
	for _, r := range s.log {
		m[r.Route]++
	}
	return m
}

// Reset clears the request log (not the repository state, rate limit or
// fault rules).
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = nil
}

// Fault is an injected failure. Combinations:
//   - Delay only: the request is served normally after Delay.
//   - Status (without AfterWrite): the canned response is sent; the request
//     has no effect and does not count against the rate limit.
//   - AfterWrite: the request takes effect, then the canned response
//     (Status, default 502) is sent instead of the real one; with Drop the
//     connection is dropped instead.
//   - Drop: the connection is closed without a response.
//   - Truncate: the request takes effect; its response declares a longer
//     Content-Length than is sent, then the connection is closed.
//   - Late: no answer; the request is held until the client gives up (its
//     timeout), and takes effect only once the server has answered the
//     next request: a read the client makes to verify sees nothing, the
//     write lands after it.
//   - Reshape: the request is served (it takes effect), and its answer's
//     JSON goes through Reshape before it is sent (see EditAnswer).
type Fault struct {
	Status     int
	Header     http.Header
	Body       string
	Delay      time.Duration
	Drop       bool
	Truncate   bool
	AfterWrite bool
	Late       bool
	// GraphQL is a fault of a GraphQL answer (see GraphQLFault); with it,
	// the other fields are unused.
	GraphQL *GraphQLFault
	// Reshape rewrites the answer's body, a JSON document; alone, without
	// the fields above. It runs under the server's lock: it may not call
	// the Server.
	Reshape func(body []byte) []byte
}

// EditAnswer serves the request and hands its JSON answer, decoded (numbers
// as json.Number), to edit before it is sent: a shape GitHub may answer
// that the fake's state never makes, such as a field null or left out
// ("updated_at": null, "labels" missing, a GraphQL connection null without
// an error). An answer that is no JSON object is sent as it is.
func EditAnswer(edit func(answer map[string]any)) *Fault {
	return &Fault{Reshape: func(body []byte) []byte {
		var v map[string]any
		d := json.NewDecoder(bytes.NewReader(body))
		d.UseNumber()
		if d.Decode(&v) != nil || v == nil {
			return body
		}
		edit(v)
		out, err := json.Marshal(v)
		if err != nil {
			return body
		}
		return out
	}}
}

func (f *Fault) kind() string {
	if f.GraphQL != nil {
		return "graphql " + f.GraphQL.Kind
	}
	if f.Reshape != nil {
		return "reshape"
	}
	var parts []string
	if f.AfterWrite {
		parts = append(parts, "after-write")
	}
	if f.Late {
		parts = append(parts, "late")
	}
	switch {
	case f.Drop:
		parts = append(parts, "drop")
	case f.Truncate:
		parts = append(parts, "truncate")
	case f.Status != 0 || f.AfterWrite:
		parts = append(parts, strconv.Itoa(f.statusOr502()))
	}
	if f.Delay > 0 {
		parts = append(parts, "delay "+f.Delay.String())
	}
	return strings.Join(parts, " ")
}

func (f *Fault) statusOr502() int {
	if f.Status == 0 {
		return http.StatusBadGateway
	}
	return f.Status
}

func (f *Fault) reply(rateHeaders http.Header) reply {
	h := rateHeaders.Clone()
	if h == nil {
		h = http.Header{}
	}
	for k, vs := range f.Header {
		h[http.CanonicalHeaderKey(k)] = vs
	}
	st := f.statusOr502()
	body := f.Body
	if body == "" {
		body = fmt.Sprintf(`{"message":%q,"documentation_url":%q,"status":"%d"}`, http.StatusText(st), docRoot, st)
	}
	return reply{status: st, body: rawJSON(body), header: h}
}

// rawJSON is a pre-encoded JSON body.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// ServerError is a 500, 502 or 503 with a GitHub-like body.
func ServerError(status int) *Fault {
	msg := "Server Error"
	switch status {
	case http.StatusBadGateway:
		msg = "Server Error"
	case http.StatusServiceUnavailable:
		msg = "Service Unavailable"
	case http.StatusGatewayTimeout:
		msg = "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists."
	}
	return &Fault{Status: status, Body: fmt.Sprintf(`{"message":%q,"documentation_url":%q,"status":"%d"}`, msg, docRoot, status)}
}

// secondaryRateLimitMessage is GitHub's message for a secondary rate limit.
const secondaryRateLimitMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. " +
	"If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000."

// SecondaryRateLimit is a 403 or 429 for a secondary limit, with a
// retry-after header when retryAfter > 0 (seconds). The x-ratelimit-*
// headers are the ordinary ones (remaining > 0).
func SecondaryRateLimit(status int, retryAfter int) *Fault {
	f := &Fault{Status: status, Body: fmt.Sprintf(`{"message":%q,"documentation_url":%q,"status":"%d"}`,
		secondaryRateLimitMessage, "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits", status)}
	if retryAfter > 0 {
		f.Header = http.Header{"Retry-After": {strconv.Itoa(retryAfter)}}
	}
	return f
}

// PrimaryRateLimit is a 403 or 429 exactly as an exhausted primary limit
// answers (x-ratelimit-remaining: 0), for one request, without changing the
// server's counter; reset is the reset time sent in x-ratelimit-reset.
func PrimaryRateLimit(status int, reset time.Time) *Fault {
	return &Fault{Status: status,
		Header: http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset.Unix(), 10)}},
		Body: fmt.Sprintf(`{"message":"API rate limit exceeded for installation ID 1.","documentation_url":%q,"status":"%d"}`,
			docRateLimit, status)}
}

// StatusFault answers status with body (a JSON document; "" for GitHub's
// usual {"message":...} for the status).
func StatusFault(status int, body string) *Fault { return &Fault{Status: status, Body: body} }

// LinkPage answers 200 with body (a JSON document) instead of the real page
// and, when next > 0, a Link header whose rel="next" is page next: a page
// that links to itself or back makes a listing that loops.
func LinkPage(body string, next int) *Fault {
	f := &Fault{Status: http.StatusOK, Body: body}
	if next > 0 {
		f.Header = http.Header{"Link": {fmt.Sprintf(`<https://api.github.com/loop?per_page=100&page=%d>; rel="next"`, next)}}
	}
	return f
}

// DropConnection closes the connection without answering; the request has
// no effect.
func DropConnection() *Fault { return &Fault{Drop: true} }

// TruncatedBody serves the request (it takes effect) but cuts the response
// body short of its declared Content-Length and closes the connection.
func TruncatedBody() *Fault { return &Fault{Truncate: true} }

// FailAfterWrite applies the request, then answers 502: the client cannot
// know whether its write happened.
func FailAfterWrite() *Fault { return &Fault{AfterWrite: true, Status: http.StatusBadGateway} }

// LateWrite never answers: the server holds the request until the client
// gives up, then applies it after answering the client's next request (the
// write GitHub finishes after the client's timeout).
func LateWrite() *Fault { return &Fault{Late: true} }

// DropAfterWrite applies the request, then drops the connection.
func DropAfterWrite() *Fault { return &Fault{AfterWrite: true, Drop: true} }

// FaultRule injects Fault into matching requests.
type FaultRule struct {
	Method string // "" matches any method
	// Route matches RequestInfo.Route: either the full "METHOD /template"
	// or just the template ("/repos/{owner}/{repo}/issues/{issue_number}/comments");
	// "" matches any route.
	Route string
	// Writes: only requests that write match (on POST /graphql, a
	// mutation, not a query).
	Writes bool
	// Nth is the 1-based index, among the requests this rule matches, of
	// the first one to fail (0 means 1). Times is how many consecutive
	// matching requests fail (0 means 1; negative: all from Nth on).
	Nth, Times int
	Fault      *Fault
}

type faultRule struct {
	FaultRule
	seen int
}

func (r *faultRule) matches(info RequestInfo) bool {
	if r.Method != "" && !strings.EqualFold(r.Method, info.Method) || r.Writes && !info.Write {
		return false
	}
	if gf := r.Fault.GraphQL; gf != nil && !gf.appliesTo([]byte(info.Body)) {
		return false
	}
	if r.Route != "" && r.Route != info.Route {
		_, tmpl, _ := strings.Cut(info.Route, " ")
		if r.Route != tmpl {
			return false
		}
	}
	return true
}

// InjectFault adds a rule. Rules are checked in the order added; every
// matching rule counts the request, and the first one due fires.
func (s *Server) InjectFault(r FaultRule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Nth <= 0 {
		r.Nth = 1
	}
	if r.Times == 0 {
		r.Times = 1
	}
	s.rules = append(s.rules, &faultRule{FaultRule: r})
}

// failNext makes the next request matching method and route (see
// FaultRule) fail with f.
func (s *Server) failNext(method, route string, f *Fault) {
	s.InjectFault(FaultRule{Method: method, Route: route, Fault: f})
}

// SetFaultHook installs a function consulted before the rules for every
// request (Status is not yet known); a non-nil result is injected. It runs
// outside the server's lock, so it may call the Server's methods.
func (s *Server) SetFaultHook(h func(RequestInfo) *Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultHook = h
}

// ClearFaults removes the hook and all rules.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultHook = nil
	s.rules = nil
}

// faultRules are the injected rules, in the order added.
type faultRules []*faultRule

// pick counts the request on every rule it matches and returns picked (the
// hook's fault), else the first rule's that is due, else nil.
func (rs faultRules) pick(info RequestInfo, picked *Fault) *Fault {
	for _, r := range rs {
		if !r.matches(info) {
			continue
		}
		r.seen++
		due := r.seen >= r.Nth && (r.Times < 0 || r.seen < r.Nth+r.Times)
		if due && picked == nil {
			picked = r.Fault
		}
	}
	return picked
}
