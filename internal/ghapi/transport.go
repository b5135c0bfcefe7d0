package ghapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stalepr/stalepr/internal/api"
)

// Clock is the time source of the transport: the real clock in main, a fake
// one in tests so that waits take no time.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Limits are the transport's rules for one run.
type Limits struct {
	DryRun        bool          // refuse every write request
	MaxRequests   int           // operations-per-run; 0: no cap
	Reserve       int           // stop while x-ratelimit-remaining <= Reserve
	WriteInterval time.Duration // minimum pause between two writes
	MaxRetries    int           // retries of a transient failure (default 3)
	MaxWait       time.Duration // longest single wait on a secondary limit (default 2m)
	// MaxWaitTotal bounds the time a run spends waiting on secondary limits
	// (default 15m): past it, the rest is left for the next run.
	MaxWaitTotal time.Duration
	// MaxRefusals is how many secondary limits in a row, with no request
	// accepted in between, end the run (default 5): GitHub keeps refusing.
	MaxRefusals int
	// Logf, when set, is told when the transport slows its write pace.
	Logf func(format string, args ...any)
	// AttemptTimeout bounds one attempt, body included (default 30s). There
	// is no timeout on a whole request: it may wait out a secondary limit.
	AttemptTimeout time.Duration
	// MaxBody caps every response body (default defaultMaxBody); a larger
	// answer fails the request instead of growing the process without bound.
	MaxBody int64
	// Deadline, by the client's clock, ends the run (run-timeout): no request
	// starts and no wait runs past it, and a read still in flight is cut at
	// it. A write in flight keeps its own AttemptTimeout, so that its outcome
	// is known. Zero: no deadline.
	Deadline time.Time
}

// defaultMaxBody is the largest response body read. The largest legitimate
// page is 100 items whose bodies GitHub caps at 65,536 characters: at up to
// 4 bytes a character that is 26 MB, plus metadata; a typical listing page
// of 100 pull requests is under 1 MiB. Decoding costs a few times the body,
// so the cap also bounds the process to a few hundred MB.
const defaultMaxBody = 32 << 20

func (l Limits) withDefaults() Limits {
	if l.MaxRetries == 0 {
		l.MaxRetries = 3
	}
	if l.MaxWait == 0 {
		l.MaxWait = 2 * time.Minute
	}
	if l.MaxRefusals == 0 {
		l.MaxRefusals = 5
	}
	if l.MaxWaitTotal == 0 {
		l.MaxWaitTotal = 15 * time.Minute
	}
	if l.AttemptTimeout == 0 {
		l.AttemptTimeout = 30 * time.Second
	}
	if l.MaxBody == 0 {
		l.MaxBody = defaultMaxBody
	}
	return l
}

// transport is the single choke point of every request: it counts, enforces
// dry run and the budget, paces writes, retries transient failures and waits
// on secondary rate limits. go-github sits on top of it and never sees those.
type transport struct {
	base   http.RoundTripper
	lim    Limits
	clock  Clock
	jitter func() float64

	mu            sync.Mutex
	used, writes  int
	byRoute       map[string]int
	rateLimit     int
	rateRemaining int
	rateReset     time.Time
	rateRead      time.Time // when the reading was taken, by our clock
	lastWrite     time.Time
	interval      time.Duration // the write pace, slowed after each secondary limit
	secondaryHits int           // in a row, reset by an accepted request
	waited        time.Duration // on secondary limits, in all
	stopped       error
	held          int // requests of MaxRequests set aside for a later step (Client.Hold)
	// refused is the writes a dry run did not send (Client.RefuseWrite):
	// counted against MaxRequests and the rate reading as a real run's.
	refused int

	// GraphQL: the read queries sent, the points they cost (from their
	// rateLimit answers), and the points bucket as last read.
	queries, points              int
	pointsLimit, pointsRemaining int
	pointsReset                  time.Time
	pointsRead                   time.Time // when the reading was taken, by our clock
}

func newTransport(base http.RoundTripper, lim Limits, clock Clock) *transport {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{
		base: base, lim: lim.withDefaults(), clock: clock, jitter: rand.Float64,
		byRoute: map[string]int{}, rateRemaining: -1, pointsRemaining: -1, interval: lim.WriteInterval,
	}
}

func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// repeatable reports whether sending the request twice leaves the same state
// as sending it once. Posting a comment is the one write that is not: the
// client verifies it instead.
func repeatable(r *http.Request) bool {
	// The only GraphQL write sent is convertPullRequestToDraft, which
	// leaves a draft a draft.
	return !isWrite(r.Method) || r.Method != http.MethodPost ||
		strings.HasSuffix(r.URL.Path, "/labels") || strings.HasSuffix(r.URL.Path, "/graphql")
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	gql := isGraphQL(req)
	write := isWrite(req.Method) && !(gql && isRead(req.Context()))
	if write && t.lim.DryRun {
		return nil, ErrDryRunWrite
	}
	ctx := req.Context()
	route := req.Method + " " + routeOf(req.URL.Path)
	useReserve := api.ReserveAllowed(ctx)
	for attempt := 0; ; {
		if err := t.ready(ctx, useReserve, gql && !write, write); err != nil {
			return nil, err
		}
		switch then, resp, err := t.try(ctx, req, route, write, attempt); then {
		case done:
			return resp, err
		case retry:
			attempt++
			if err := t.backoff(ctx, attempt); err != nil {
				return nil, err
			}
		}
	}
}

// ready holds a try until it may go: admitted by the budget and the rate
// limits (a GraphQL read by its points), and a write also paced after the
// last one and passed by its guard, checked after every wait.
func (t *transport) ready(ctx context.Context, useReserve, gqlRead, write bool) error {
	if err := t.admit(useReserve, gqlRead); err != nil {
		return err
	}
	if !write {
		return nil
	}
	t.mu.Lock()
	last := t.lastWrite
	t.mu.Unlock()
	if err := t.pace(ctx); err != nil {
		return err
	}
	return t.guard(ctx, useReserve, last)
}

// try sends the request once and decides what follows, whether it got an
// answer or not.
func (t *transport) try(ctx context.Context, req *http.Request, route string, write bool, attempt int) (next, *http.Response, error) {
	resp, err := t.attempt(ctx, req, route, write)
	if err != nil {
		then, err := t.failed(ctx, req, route, write, attempt, err)
		return then, resp, err
	}
	return t.answered(ctx, req, route, resp, attempt)
}

// guard runs a guarded write's check (api.Guarded) after every wait and
// right before the try it guards: the first, and each retry or resend
// after a backoff or a secondary limit, so no try rests on a read made
// before a wait. Its read may spend the last request the write was
// admitted on: the write is admitted again after it. A write its check
// stops is not sent: the pace counts from the last write sent (last), so
// the next write (the same set computed again from the check's read) does
// not wait for one that never went.
func (t *transport) guard(ctx context.Context, useReserve bool, last time.Time) error {
	if err := api.Guard(ctx); err != nil {
		t.mu.Lock()
		t.lastWrite = last
		t.mu.Unlock()
		return &guardError{err: err}
	}
	return t.admit(useReserve, false)
}

// guardError is a guarded write's check that stopped it unsent: the
// check's own error, which the client returns as it is (Client.fail).
type guardError struct{ err error }

func (e *guardError) Error() string { return e.err.Error() }
func (e *guardError) Unwrap() error { return e.err }

// next is what RoundTrip does after an attempt.
type next int

const (
	done   next = iota // return the answer or the error
	retry              // a transient failure: back off, then send again
	resend             // a secondary limit waited out: the request was refused, not processed, so send it again
)

// failed decides what follows an attempt that got no answer.
func (t *transport) failed(ctx context.Context, req *http.Request, route string, write bool, attempt int, err error) (next, error) {
	switch {
	case ctx.Err() != nil:
		return done, ctx.Err()
	case errors.Is(err, ErrDeadline):
		t.stop(ErrDeadline)
		return done, ErrDeadline
	case final(err) && write:
		// GitHub answered, but what it said was not read: the write may
		// have been made (PostComment then looks for it).
		return done, fmt.Errorf("%w: %s: %w", errUnknownWrite, route, err)
	case final(err):
		return done, err
	case repeatable(req) && attempt < t.lim.MaxRetries:
		return retry, nil
	}
	class := errTransient
	if write {
		class = errUnknownWrite
	}
	return done, fmt.Errorf("%w: %s: %w", class, route, err)
}

// answered decides what follows an answer: a rate limit stops or waits,
// a server error is retried, a web page is refused.
func (t *transport) answered(ctx context.Context, req *http.Request, route string, resp *http.Response, attempt int) (next, *http.Response, error) {
	t.observe(resp.Header)
	switch kind, wait := t.rateLimitOf(resp); kind {
	case limitPrimary:
		err := &rateLimitError{reset: t.reset(), now: t.clock.Now()}
		if resp.Header.Get("X-RateLimit-Resource") == "graphql" {
			err.reset, err.graphql = t.pointsResetAt(), true
		}
		t.stop(err)
		return done, nil, err
	case limitSecondary:
		if err := t.waitSecondary(ctx, wait); err != nil {
			return done, nil, err
		}
		return resend, nil, nil
	}
	t.mu.Lock()
	t.secondaryHits = 0
	t.mu.Unlock()
	if retriedStatus(resp.StatusCode) && repeatable(req) && !(isShrinkable(ctx) && shrinks(resp.StatusCode)) && attempt < t.lim.MaxRetries {
		return retry, nil, nil
	}
	if isHTML(resp) {
		return done, nil, &htmlError{route: route, host: req.URL.Host, status: resp.StatusCode}
	}
	return done, resp, nil
}

// waitSecondary waits out a secondary limit, or stops the run when GitHub
// asks for a longer pause than a run may take (retrying sooner breaks its
// rule; later requests are refused with the same reason) or the waits add
// up to too much.
func (t *transport) waitSecondary(ctx context.Context, wait time.Duration) error {
	if wait > t.lim.MaxWait {
		err := &secondaryError{why: fmt.Sprintf("GitHub asks to wait %s, longer than the %s a run waits", wait, t.lim.MaxWait)}
		t.stop(err)
		return err
	}
	if err := t.hitSecondary(wait); err != nil {
		return err
	}
	return t.sleep(ctx, wait)
}

// retriedStatus reports whether code is a server error worth sending again; 501 Not Implemented
// is the same answer every time.
func retriedStatus(code int) bool { return code >= 500 && code != http.StatusNotImplemented }

// sends is how many times RoundTrip sent a request whose final answer has
// this status: every retry when the status is retried and the request
// repeatable, else once.
func (t *transport) sends(req *http.Request, status int) int {
	if retriedStatus(status) && repeatable(req) {
		return t.lim.MaxRetries + 1
	}
	return 1
}

// final reports failures that the same request would meet again.
func final(err error) bool {
	var big *tooLargeError
	var bad *malformedError
	return errors.As(err, &big) || errors.As(err, &bad)
}

// isHTML reports whether resp is a web page, which the API never answers and a web server does. Redirects
// pass (their bodies are often HTML) and so do server errors, which GitHub's
// front end may render as HTML during an outage.
func isHTML(resp *http.Response) bool {
	if resp.StatusCode >= 300 && resp.StatusCode < 400 || resp.StatusCode >= 500 {
		return false
	}
	if strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/html") {
		return true
	}
	body := reread(resp)
	return bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("<"))
}

// attempt sends the request once, within AttemptTimeout, and reads the
// whole body.
func (t *transport) attempt(ctx context.Context, req *http.Request, route string, write bool) (*http.Response, error) {
	timeout, cut := t.lim.AttemptTimeout, false
	if !t.lim.Deadline.IsZero() && !write {
		if left := t.lim.Deadline.Sub(t.clock.Now()); left < timeout {
			timeout, cut = left, true
		}
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// A shallow copy, not Clone's deep one of the headers and URL: a
	// RoundTripper may not change the request it is given, so they can be
	// shared; the body is the attempt's own.
	r := req.WithContext(actx)
	if req.GetBody != nil && req.Body != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	t.count(route, write, isGraphQL(req))
	resp, err := t.base.RoundTrip(r)
	var body []byte
	if err == nil {
		body, err = bufferBody(resp, t.lim.MaxBody)
		if big, ok := err.(*tooLargeError); ok {
			big.route = route
		}
	}
	if err != nil && cut && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return nil, ErrDeadline // the run's deadline, not the attempt's own timeout
	}
	if err != nil {
		return nil, err
	}
	// Every answer is decoded, an error's too (go-github reads its "errors"
	// into a slice): each is bounded; only a success is a page of items.
	perPage := 0
	if resp.StatusCode/100 == 2 {
		perPage = perPageOf(req.URL)
	}
	if why := checkShape(body, perPage); why != "" {
		return nil, &malformedError{route: route, why: why}
	}
	return resp, nil
}

// admit says whether one more request may go: not after a stop, within
// operations-per-run, and above rate-limit-reserve (above 0 when the
// request may use the reserve) of the bucket it draws on: a GraphQL query
// GitHub's points, any other request the REST limit.
func (t *transport) admit(useReserve, query bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped != nil {
		return t.stopped
	}
	if t.lim.MaxRequests > 0 && t.used+t.held+t.refused >= t.lim.MaxRequests {
		return ErrBudget
	}
	if t.pastDeadline(0) {
		t.stopped = ErrDeadline
		return ErrDeadline
	}
	floor := t.lim.Reserve
	if useReserve {
		floor = 0
	}
	if query {
		if t.pointsKnown() && t.pointsRemaining <= floor {
			return ErrRateReserve
		}
		return nil
	}
	if t.rateKnown() && t.rateRemaining-t.refused <= floor {
		return ErrRateReserve
	}
	return nil
}

// pointsKnown reports whether the last reading of the GraphQL points still
// applies, by REST's rule (rateKnown): a reset already past when read keeps it.
func (t *transport) pointsKnown() bool {
	return t.pointsRemaining >= 0 && t.holds(t.pointsReset, t.pointsRead)
}

// meterPoints takes a query's rateLimit answer: what it cost and what is left.
func (t *transport) meterPoints(cost, limit, remaining int, reset time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.points += cost
	if limit > 0 {
		t.pointsLimit, t.pointsRemaining = limit, remaining
		t.pointsRead = t.clock.Now()
		if !reset.IsZero() {
			t.pointsReset = reset
		}
	}
}

func (t *transport) pointsResetAt() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pointsReset
}

func isGraphQL(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/graphql")
}

// rateKnown reports whether the last rate-limit reading still applies (its window has not
// reset). Enterprise Server without limits sends no headers at all. A reset
// time already past when it was read means the clocks disagree (the
// runner's is ahead): the reading then holds until the next one, which
// every answer brings, rather than never.
func (t *transport) rateKnown() bool {
	return t.rateRemaining >= 0 && t.holds(t.rateReset, t.rateRead)
}

// holds reports whether a bucket's reading taken at read, whose window resets
// at reset (zero: unknown), still applies: until the reset, or until the next
// reading when the reset was already past when read. A reading dropped for a
// reset in the past would switch rate-limit-reserve off and let the run
// write into it.
func (t *transport) holds(reset, read time.Time) bool {
	return reset.IsZero() || t.clock.Now().Before(reset) || !reset.After(read)
}

// pastDeadline reports whether the run's deadline comes before a wait of d
// would end.
func (t *transport) pastDeadline(d time.Duration) bool {
	return !t.lim.Deadline.IsZero() && !t.clock.Now().Add(d).Before(t.lim.Deadline)
}

// sleep waits d, unless the wait would end past the run's deadline: then the
// run stops at once rather than wait for a request it may not send.
func (t *transport) sleep(ctx context.Context, d time.Duration) error {
	if t.pastDeadline(d) {
		t.stop(ErrDeadline)
		return ErrDeadline
	}
	return t.clock.Sleep(ctx, d)
}

func (t *transport) pace(ctx context.Context) error {
	t.mu.Lock()
	wait := t.lastWrite.Add(t.interval).Sub(t.clock.Now())
	t.mu.Unlock()
	if !t.lastWrite.IsZero() && wait > 0 {
		if err := t.sleep(ctx, wait); err != nil {
			return err
		}
	}
	t.mu.Lock()
	t.lastWrite = t.clock.Now()
	t.mu.Unlock()
	return nil
}

func (t *transport) count(route string, write, gql bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.used++
	t.byRoute[route]++
	if write {
		t.writes++
	} else if gql {
		t.queries++
	}
}

func (t *transport) backoff(ctx context.Context, attempt int) error {
	d := time.Duration(float64(time.Second<<(attempt-1)) * (0.5 + t.jitter()))
	return t.sleep(ctx, d)
}

func (t *transport) stop(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped == nil {
		t.stopped = err
	}
}

// maxInterval is the slowest write pace: GitHub allows 500 content-creating
// requests an hour, one every 7.2 s; a minute leaves a wide margin.
const maxInterval = time.Minute

// hitSecondary records a secondary limit about to be waited out. GitHub asks
// clients that hit one to slow down, so every hit doubles the write pace
// (from at least a second). It stops the run only when the waits add up to
// more than a run may spend, or GitHub refuses too often in a row: the
// error returned is then the run's stop.
func (t *transport) hitSecondary(wait time.Duration) error {
	t.mu.Lock()
	t.secondaryHits++
	t.waited += wait
	var stop error
	switch {
	case t.secondaryHits > t.lim.MaxRefusals:
		stop = &secondaryError{why: fmt.Sprintf("GitHub refused %d times in a row after the run slowed down", t.secondaryHits)}
	case t.waited > t.lim.MaxWaitTotal:
		stop = &secondaryError{why: fmt.Sprintf("the waits it asked for add up to more than the %s a run waits in all", t.lim.MaxWaitTotal)}
	}
	if stop != nil {
		if t.stopped == nil {
			t.stopped = stop
		}
		t.mu.Unlock()
		return stop
	}
	old := t.interval
	t.interval = min(max(2*t.interval, time.Second), maxInterval)
	changed := t.interval != old
	t.mu.Unlock()
	if changed && t.lim.Logf != nil {
		t.lim.Logf("GitHub answered with a secondary rate limit: waiting %s, then writing at most once every %s", wait.Round(time.Second), t.interval)
	}
	return nil
}

func (t *transport) observe(h http.Header) {
	limit, remaining, reset, ok := rateHeaders(h)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch h.Get("X-RateLimit-Resource") {
	case "", "core":
		t.rateLimit, t.rateRemaining = limit, remaining
		t.rateRead = t.clock.Now()
		if !reset.IsZero() {
			t.rateReset = reset
		}
	case "graphql":
		// GraphQL's points are a bucket of their own.
		t.pointsLimit, t.pointsRemaining = limit, remaining
		t.pointsRead = t.clock.Now()
		if !reset.IsZero() {
			t.pointsReset = reset
		}
	}
	// Search and others have limits of their own: they say nothing about
	// the requests the reserve protects.
}

// rateHeaders reads an answer's x-ratelimit-* headers; reset is zero when
// the answer gives none.
func rateHeaders(h http.Header) (limit, remaining int, reset time.Time, ok bool) {
	limit, errL := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	remaining, errR := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	if errL != nil || errR != nil {
		return 0, 0, time.Time{}, false
	}
	if r, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		reset = time.Unix(r, 0)
	}
	return limit, remaining, reset, true
}

func (t *transport) reset() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rateReset
}

type limitKind int

const (
	notLimited limitKind = iota
	limitPrimary
	limitSecondary
)

// rateLimitOf tells rate-limit answers apart, by GitHub's documented rules:
// remaining 0 is the primary limit; retry-after, the secondary-limit message
// or a bare 429 is a secondary limit. A 403 without either is a permission
// error and is passed through.
func (t *transport) rateLimitOf(resp *http.Response) (limitKind, time.Duration) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return notLimited, 0
	}
	retryAfter, hasRetryAfter := parseRetryAfter(resp.Header.Get("Retry-After"), t.clock.Now())
	if resp.Header.Get("X-RateLimit-Remaining") == "0" && !hasRetryAfter {
		return limitPrimary, 0
	}
	body := reread(resp)
	secondary := hasRetryAfter || resp.StatusCode == http.StatusTooManyRequests ||
		bytes.Contains(bytes.ToLower(body), []byte("secondary rate limit"))
	if !secondary {
		return notLimited, 0
	}
	wait := retryAfter
	if !hasRetryAfter {
		t.mu.Lock()
		wait = min(time.Minute<<min(t.secondaryHits, 4), t.lim.MaxWait)
		t.mu.Unlock()
	}
	return limitSecondary, wait
}

// maxRetryAfter (seconds, about 136 years) is the longest Retry-After taken
// as told; a longer one is taken as this.
const maxRetryAfter = 1 << 32

// parseRetryAfter reads Retry-After: seconds, or an HTTP date (then the wait
// is from now, the injected clock's now).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if digits := strings.TrimSpace(v); digits != "" && strings.Trim(digits, "0123456789") == "" {
		// Seconds; a number too large for a time.Duration (or for an
		// int64 at all) would overflow to a negative wait: it is as long
		// as any wait can be, far longer than a run waits.
		s, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || s > maxRetryAfter {
			s = maxRetryAfter
		}
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return time.Minute, true
}

// bufferBody reads the whole body so a connection cut mid-body surfaces here,
// where it can be retried, rather than as a JSON error in go-github. A body
// above max is refused: by its Content-Length before reading, or once max
// bytes have come.
func bufferBody(resp *http.Response, max int64) ([]byte, error) {
	defer resp.Body.Close()
	if resp.ContentLength > max {
		return nil, &tooLargeError{limit: max}
	}
	body, err := readAll(io.LimitReader(resp.Body, max+1), resp.ContentLength)
	if int64(len(body)) > max {
		return nil, &tooLargeError{limit: max}
	}
	if err == nil && resp.ContentLength >= 0 && int64(len(body)) < resp.ContentLength {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, fmt.Errorf("reading response body: %w", err)
	}
	resp.Body = &buffered{bytes.NewReader(body), body}
	return body, nil
}

// readAll is io.ReadAll into room for size bytes (a Content-Length; -1 when
// unknown): io.ReadAll starts at 512 bytes and grows, copying a listing
// page's megabyte a dozen times over.
func readAll(r io.Reader, size int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(max(size, 0)) + bytes.MinRead) // MinRead: the read that meets EOF needs no growth
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// buffered is a body bufferBody read whole. isHTML, rateLimitOf and
// postGraphQL each read the answer again, and copying it each time cost
// more than decoding it: they take its bytes instead (reread, bodyBytes).
type buffered struct {
	*bytes.Reader
	all []byte
}

func (*buffered) Close() error { return nil }

// unread is the body's bytes when it is a buffered body nothing has read
// from yet.
func unread(body io.Reader) ([]byte, bool) {
	b, ok := body.(*buffered)
	if !ok || b.Len() != len(b.all) {
		return nil, false
	}
	return b.all, true
}

// reread reads resp's whole body and leaves it to be read again.
func reread(resp *http.Response) []byte {
	if all, ok := unread(resp.Body); ok {
		return all
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body = &buffered{bytes.NewReader(body), body}
	return body
}

// bodyBytes reads the whole of body.
func bodyBytes(body io.Reader) ([]byte, error) {
	if all, ok := unread(body); ok {
		return all, nil
	}
	return io.ReadAll(body)
}

func (t *transport) usage() api.Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	by := make(map[string]int, len(t.byRoute))
	for k, v := range t.byRoute {
		by[k] = v
	}
	remaining := max(t.rateRemaining-t.refused, 0)
	if !t.rateKnown() {
		remaining = -1
	}
	return api.Usage{Requests: t.used, Writes: t.writes, ByRoute: by, RateLimit: t.rateLimit, RateRemaining: remaining,
		Queries: t.queries, Points: t.points, PointsLimit: t.pointsLimit, PointsRemaining: t.pointsRemaining,
		At: t.clock.Now(), WriteInterval: t.interval}
}

// refuse admits and counts n writes a dry run did not send (see refused).
func (t *transport) refuse(ctx context.Context, n int) error {
	useReserve := api.ReserveAllowed(ctx)
	for range n {
		if err := t.admit(useReserve, false); err != nil {
			return err
		}
		t.mu.Lock()
		if t.lim.DryRun {
			t.refused++
		}
		t.mu.Unlock()
	}
	return nil
}

// left is how many more requests the run may make; -1 when unbounded.
func (t *transport) left() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped != nil {
		return 0
	}
	n := -1
	if t.lim.MaxRequests > 0 {
		n = max(t.lim.MaxRequests-t.used-t.held-t.refused, 0)
	}
	if t.rateKnown() {
		r := max(t.rateRemaining-t.refused-t.lim.Reserve, 0)
		if n < 0 || r < n {
			n = r
		}
	}
	return n
}

var routeRules = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`^(/api/v3)?/repos/[^/]+/[^/]+`), "/repos/{owner}/{repo}"},
	{regexp.MustCompile(`/issues/comments/\d+$`), "/issues/comments/{comment_id}"},
	{regexp.MustCompile(`/issues/\d+`), "/issues/{issue_number}"},
	{regexp.MustCompile(`/pulls/\d+`), "/pulls/{pull_number}"},
	{regexp.MustCompile(`/labels/.+$`), "/labels/{name}"},
	{regexp.MustCompile(`/git/refs/.+$`), "/git/refs/{ref}"},
	{regexp.MustCompile(`/git/ref/.+$`), "/git/ref/{ref}"},
	{regexp.MustCompile(`/contents/.+$`), "/contents/{path}"},
	{regexp.MustCompile(`^/api/graphql$`), "/graphql"},
	{regexp.MustCompile(`^/api/v3`), ""},
}

// routeOf maps a request path to GitHub's documented path template, so counts
// group by endpoint and never carry a label name or branch.
func routeOf(path string) string {
	routes.Lock()
	route, known := routes.m[path]
	routes.Unlock()
	if known {
		return route
	}
	route = path
	for _, r := range routeRules {
		route = r.re.ReplaceAllString(route, r.repl)
	}
	routes.Lock()
	if len(routes.m) >= maxRoutes {
		clear(routes.m)
	}
	routes.m[path] = route
	routes.Unlock()
	return route
}

// routes keeps routeOf's answers by path: ten regular expressions on
// every request cost more than the rest of counting it, and a run's paths
// repeat (/graphql on every query, a PR's paths on each of its writes).
// maxRoutes bounds it: full, it starts again empty.
var routes = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

const maxRoutes = 1024
