package ghapi

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/stalepr/stalepr/internal/api"
)

// Errors that end a run cleanly: the rest is left for the next run. Each is
// an api.Stop, so the sweep and the report tell why a run
// stopped without knowing this package.
var (
	ErrBudget      error = api.Budget
	ErrRateReserve error = api.RateReserve
	ErrRateLimited error = api.RateLimit
	ErrSecondary   error = api.Secondary
	// ErrDeadline: the run reached run-timeout.
	ErrDeadline error = api.Deadline
)

var (
	ErrDryRunWrite  = errors.New("dry run: write request refused")
	errTransient    = errors.New("transient failure")
	errUnknownWrite = errors.New("write outcome unknown")
)

// asStop maps go-github's own rate-limit errors (its refusal to send
// requests until the reset after it saw x-ratelimit-remaining: 0, which the
// transport never sees) onto an api.Stop.
func asStop(err error) error {
	if IsRateLimited(err) && !errors.Is(err, api.RateLimit) {
		return &api.StopError{Reason: api.RateLimit, Err: err}
	}
	return err
}

// IsRateLimited reports the primary rate limit: ours, or go-github's own
// refusal to send requests until the reset after it saw
// x-ratelimit-remaining: 0.
func IsRateLimited(err error) bool {
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	return errors.Is(err, ErrRateLimited) || errors.As(err, &rl) || errors.As(err, &ab)
}

// IsNotFound reports a 404: the PR, label or comment is gone.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

func statusOf(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// rateLimitError is the primary rate limit as the transport saw it, with the
// reset time so the user is told when the next run can continue, and the
// time it was seen (a reset not after it means the clocks disagree).
type rateLimitError struct {
	reset, now time.Time
	graphql    bool // GitHub's GraphQL points, a bucket of their own
}

func (e *rateLimitError) Error() string {
	if e.graphql {
		return fmt.Sprintf("%v (GraphQL points): %s", ErrRateLimited, e.until())
	}
	return fmt.Sprintf("%v: %s", ErrRateLimited, e.until())
}

// until tells when the limit resets, in words that fit after "used up".
func (e *rateLimitError) until() string {
	if !e.reset.IsZero() && !e.reset.After(e.now) {
		return "GitHub gave " + resetText(e.reset) + " as the reset time, already past by this runner's clock " +
			"(the two clocks disagree), so when it resets is unknown"
	}
	return "until " + resetText(e.reset)
}

func (e *rateLimitError) Is(target error) bool { return target == ErrRateLimited }

// secondaryError is the secondary rate limit's stop, with its reason: one
// long Retry-After is not GitHub refusing again and again.
type secondaryError struct{ why string }

func (e *secondaryError) Error() string        { return ErrSecondary.Error() + ": " + e.why }
func (e *secondaryError) Is(target error) bool { return target == ErrSecondary }

func resetText(t time.Time) string {
	if t.IsZero() {
		return "an unknown time"
	}
	return t.UTC().Format(time.RFC3339)
}

// tooLargeError is a response body above Limits.MaxBody, refused unread.
type tooLargeError struct {
	route string
	limit int64
	// onePR: a GraphQL query already at its smallest, one pull request
	// (a page of one, a PR's history): no smaller answer to ask for, and
	// its size is that PR's own, not a wrong GITHUB_API_URL's.
	onePR bool
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s: response body larger than %s, not read", e.route, sizeText(e.limit))
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// htmlError means the API URL answered a web page, the sign of GITHUB_API_URL set
// to the web root. Reported as such rather than as go-github's "invalid
// character '<'".
type htmlError struct {
	route  string
	host   string
	status int
}

func (e *htmlError) Error() string {
	return fmt.Sprintf("%s: %s answered an HTML page (HTTP %d), not JSON", e.route, e.host, e.status)
}

// noGraphQLError is a 404 from the GraphQL endpoint itself. GitHub's
// GraphQL API answers a missing repository with 200 and a NOT_FOUND error,
// so a 404 means no GraphQL API at that address: a wrong GITHUB_API_URL, a
// proxy, or a server that is not GitHub.
type noGraphQLError struct{ url string }

func (e *noGraphQLError) Error() string {
	return "POST " + e.url + " answered 404: no GraphQL API there"
}

// redirectError is a redirect to a host other than the API's, not followed so
// that the token (added to every request by oauth2.Transport) stays with
// the API host.
type redirectError struct{ from, to string }

func (e *redirectError) Error() string {
	return fmt.Sprintf("%s redirected to another host, %s: not followed, the token is sent to %s only", e.from, e.to, e.from)
}

// Class names a kind of failure that has one piece of advice.
type Class string

// The failure classes a user can act on.
const (
	BadCredentials    Class = "bad credentials"
	RepoNotFound      Class = "repository not found"
	MissingPermission Class = "missing permission"
	Unreachable       Class = "network unreachable"
	NotTheAPI         Class = "not the API"
	RateLimited       Class = "rate limited"
	TooLarge          Class = "response too large"
	Malformed         Class = "malformed answer"
	OffHostRedirect   Class = "redirect to another host"
	ServerError       Class = "GitHub server error"
)

// Problem is a failure explained: what happened and what to do, in words a
// user of the action can act on. It never holds the token.
type Problem struct {
	Class  Class
	Op     string // what the client was doing: "list pull requests (page 1)"
	What   string // what happened
	Advice string // what to do
	Err    error  // the underlying error, for errors.Is and errors.As
	// writeRefused: GitHub refused a write for want of permission, which
	// every later write of the run would meet too (api.ErrWriteRefused).
	writeRefused bool
}

// Is makes a write refused for permission api.ErrWriteRefused, which
// stops the run at its first one.
func (p *Problem) Is(target error) bool { return p.writeRefused && target == api.ErrWriteRefused }

func (p *Problem) Error() string {
	s := p.What + ". " + p.Advice
	if p.Op != "" {
		s = p.Op + ": " + s
	}
	return s
}

func (p *Problem) Unwrap() error { return p.Err }

// opKind is what a request was for: the same status means different things
// (a 404 on the listing is a missing repository, on a label a label already
// gone) and a 403 needs a different permission.
type opKind int

const (
	opList   opKind = iota // repository-wide listing: the first request of a run
	opRead                 // reading one pull request
	opWrite                // labels, comments, closing
	opBranch               // deleting a branch
	opFile                 // reading a file of the repository (.github/stalepr.yml)
)

const (
	apiRoot    = "GITHUB_API_URL is the API root (https://api.github.com, or https://HOST/api/v3 on Enterprise Server)"
	writePerms = "`pull-requests: write` and `issues: write`"
)

// failureContext is what the client knows of a failure beyond the error:
// the advice depends on it.
type failureContext struct {
	repo string // owner/name
	// workflow: the run is a GitHub Actions job, whose token's permissions
	// are the workflow's `permissions:`; outside one (a terminal) they are
	// the token's own scopes or fine-grained permissions.
	workflow bool
	// sends tells how many times the transport sent a request that got a
	// final answer of the status given (a 5xx after its retries).
	sends func(req *http.Request, status int) int
	// token is the token itself: its prefix says its kind, whose
	// permissions are set in different places.
	token string
}

// classify explains err for an operation of kind op in the context s; nil when
// err is of no known class.
func classify(err error, op opKind, s failureContext) *Problem {
	var (
		rl    *rateLimitError
		grl   *github.RateLimitError
		gab   *github.AbuseRateLimitError
		sec   *secondaryError
		big   *tooLargeError
		bad   *malformedError
		html  *htmlError
		redir *redirectError
		nogql *noGraphQLError
		er    *github.ErrorResponse
	)
	p := &Problem{Err: err}
	switch {
	case errors.As(err, &rl), errors.As(err, &grl), errors.Is(err, ErrRateLimited):
		until := "until " + resetText(time.Time{})
		if rl != nil {
			until = rl.until()
		} else if grl != nil {
			until = (&rateLimitError{reset: grl.Rate.Reset.Time}).until()
		}
		p.Class = RateLimited
		p.What = "GitHub's API rate limit for this token is used up " + until
		if rl != nil && rl.graphql {
			p.What = "GitHub's GraphQL rate limit (points) for this token is used up " + until
		}
		p.Advice = "The run stopped cleanly; a run after that time continues where this one stopped. " +
			"If it happens often, lower operations-per-run, raise rate-limit-reserve or run less often"
	case errors.As(err, &gab), errors.As(err, &sec), errors.Is(err, ErrSecondary):
		p.Class = RateLimited
		p.What = "GitHub's secondary rate limit (too many writes in a short time) stopped the run"
		if sec != nil {
			p.What += ": " + sec.why
		} else if gab != nil && gab.RetryAfter != nil {
			p.What += fmt.Sprintf("; GitHub asks to wait %s", *gab.RetryAfter)
		}
		p.Advice = "The next run continues. Raise write-interval or lower operations-per-run, " +
			"and do not run other bots that write with the same token at the same time"
	case errors.As(err, &big) && big.onePR:
		p.Class = TooLarge
		p.What = fmt.Sprintf("GitHub's answer to %s for a single pull request (100 of its timeline items or commits) was larger than %s, "+
			"even asked one pull request at a time, and was not read", big.route, sizeText(big.limit))
		p.Advice = "Comments that long (up to 65,536 characters each, and more bytes once escaped in JSON) make it so: " +
			"that pull request cannot be read, so the run stops at it until its largest comments are hidden, shortened or deleted. " +
			"If no pull request holds such comments, check that no proxy between stalepr and GitHub adds to the answers"
	case errors.As(err, &big):
		p.Class = TooLarge
		p.What = fmt.Sprintf("the answer to %s was larger than %s and was not read", big.route, sizeText(big.limit))
		p.Advice = "A page of GitHub's API is far smaller (100 pull requests take under 1 MiB): " +
			"check that " + apiRoot + " and any proxy in between"
	case errors.As(err, &bad):
		p.Class = Malformed
		p.What = fmt.Sprintf("the answer to %s was malformed and not read: %s", bad.route, bad.why)
		p.Advice = "GitHub's API never answers so; the next run reads it again. If it persists, " +
			"check that " + apiRoot + " and any proxy in between"
	case errors.As(err, &html):
		p.Class = NotTheAPI
		p.What = fmt.Sprintf("%s answered an HTML page (HTTP %d) instead of the API's JSON", html.host, html.status)
		p.Advice = "GITHUB_API_URL must be the API root, such as https://" + html.host + "/api/v3 on Enterprise Server " +
			"(https://api.github.com for github.com), not the web address https://" + html.host
	case errors.As(err, &nogql):
		p.Class = NotTheAPI
		p.What = "GitHub's GraphQL API is not at " + nogql.url + " (it answered 404)"
		p.Advice = "stalepr reads pull requests through GraphQL (github.com, or Enterprise Server 3.11 or later, at https://HOST/api/graphql): " +
			"check that " + apiRoot + ", and that no proxy in between keeps /graphql from it"
	case errors.As(err, &redir):
		p.Class = OffHostRedirect
		p.What = redir.Error()
		p.Advice = "Set GITHUB_API_URL to the address that answers the API itself, without a redirect to another host"
	case errors.As(err, &er) && er.Response != nil:
		return classifyStatus(p, er, op, s)
	default:
		return classifyNet(p, err)
	}
	return p
}

func classifyStatus(p *Problem, er *github.ErrorResponse, op opKind, s failureContext) *Problem {
	code := er.Response.StatusCode
	said := fmt.Sprintf("GitHub answered %d", code)
	if er.Message != "" {
		said += " " + er.Message
	}
	switch {
	case code == http.StatusUnauthorized:
		p.Class = BadCredentials
		p.What = said + ": the token is invalid, expired or revoked"
		p.Advice = "In a workflow leave repo-token unset (it defaults to ${{ github.token }}) or set it to a secret holding a valid token; " +
			"for the CLI set GITHUB_TOKEN, for example GITHUB_TOKEN=$(gh auth token)"
	case code == http.StatusNotFound && op == opList:
		p.Class = RepoNotFound
		p.What = said + ": the repository " + s.repo + " does not exist or this token cannot see it"
		p.Advice = "Check the repository input (or GITHUB_REPOSITORY) is owner/name of an existing repository, " +
			"and that the token was granted access to it (a token of another repository, or a fine-grained token without it, sees a 404); " +
			"on Enterprise Server check that " + apiRoot
	case code == http.StatusForbidden && op == opWrite && !locked(er.Message):
		p.Class = MissingPermission
		p.What = said
		p.Advice = writeAdvice(s.token, er.Message, s.workflow)
		p.writeRefused = true
	case code == http.StatusForbidden:
		p.Class = MissingPermission
		p.What = said
		p.Advice = permissionAdvice(op, s.workflow)
	case code >= 500:
		p.Class = ServerError
		p.What = serverFailure(er, s)
		p.Advice = "The fault is on GitHub's side, not in the inputs, and the next run tries again. If it persists, " +
			"see GitHub's status page, https://www.githubstatus.com (on Enterprise Server, ask its administrators)"
	default:
		return nil
	}
	return p
}

// serverFailure says which request GitHub failed and how often it was sent:
// GET /repos/{owner}/{repo}/issues (tried 4 times, with backoff).
func serverFailure(er *github.ErrorResponse, s failureContext) string {
	code := er.Response.StatusCode
	said := fmt.Sprintf("GitHub answered %d %s", code, http.StatusText(code))
	if er.Message != "" && !strings.EqualFold(er.Message, http.StatusText(code)) {
		said += fmt.Sprintf(" (%q)", er.Message)
	}
	req := er.Response.Request
	if req == nil {
		return said
	}
	said += " to " + req.Method + " " + routeOf(req.URL.Path)
	switch n := s.sends(req, code); n {
	case 1:
		return said + " (sent once: this request is not repeated)"
	default:
		return said + fmt.Sprintf(" (tried %d times, with backoff)", n)
	}
}

// permissionAdvice says which permission an operation of kind op needs, in
// the words of where the token's permissions are set: a workflow's
// `permissions:`, or the token's own scopes outside one.
func permissionAdvice(op opKind, workflow bool) string {
	if !workflow {
		const classic = "; a classic token needs the repo scope (public_repo for a public repository)"
		switch op {
		case opWrite:
			return "The token may not change pull requests: a fine-grained token needs Pull requests and Issues: read and write on this repository" + classic
		case opBranch:
			return "Deleting branches needs a fine-grained token with Contents: read and write on this repository" + classic +
				"; or set -delete-branch=false"
		case opFile:
			return "Reading the repository's files needs a fine-grained token with Contents: read on this repository" + classic
		}
		return "The token may not read this repository's pull requests and issues: a fine-grained token needs Pull requests and Issues " +
			"on this repository (read access to preview, read and write to mark and close)" + classic
	}
	switch op {
	case opWrite:
		return "The token may not change pull requests: grant " + writePerms +
			" under `permissions:` in the workflow (a pull_request run from a fork only ever gets a read-only token)"
	case opBranch:
		return "Deleting branches needs `contents: write` under `permissions:` in the workflow; or set delete-branch: false"
	case opFile:
		return "Reading the repository's files needs read access to its contents: grant the GitHub App the permission " +
			"Contents: read (with GITHUB_TOKEN, `contents: read` under `permissions:`)"
	}
	return "The token may not read this repository's pull requests and issues: grant " + writePerms +
		" under `permissions:` in the workflow (reading needs read access, marking and closing write access)"
}

// locked reports GitHub's refusal of a comment on a locked conversation:
// a 403 of that one pull request, not of the token.
func locked(message string) bool { return strings.Contains(strings.ToLower(message), "locked") }

// writeAdvice says how to let the token write, in the terms of the token's
// kind as its prefix (GitHub's documented token formats) or GitHub's
// message tells it: a workflow's GITHUB_TOKEN and a GitHub App's
// installation token both start ghs_ and are refused "by integration", a
// fine-grained personal token starts github_pat_ and is refused "by
// personal access token", a classic one starts ghp_.
func writeAdvice(token, message string, workflow bool) string {
	const (
		actions     = "for the workflow's GITHUB_TOKEN (repo-token's default), add `permissions: pull-requests: write, issues: write` to the workflow or its job (a pull_request run from a fork only ever gets a read-only token)"
		app         = "for a GitHub App's token, give the App the repository permissions Pull requests: Read and write and Issues: Read and write, and accept them in its installation"
		fineGrained = "a fine-grained personal access token needs Pull requests: Read and write and Issues: Read and write on this repository"
		classic     = "a classic personal access token needs the repo scope (public_repo for a public repository), and its owner write access to the repository"
	)
	const head = "The token may not change pull requests: "
	switch {
	case strings.HasPrefix(token, "github_pat_"), strings.Contains(message, "by personal access token"):
		return head + fineGrained
	case strings.HasPrefix(token, "ghp_"), strings.HasPrefix(token, "gho_"):
		return head + classic
	case (strings.HasPrefix(token, "ghs_") || strings.Contains(message, "by integration")) && workflow:
		return head + actions + "; " + app
	case strings.HasPrefix(token, "ghs_"), strings.Contains(message, "by integration"):
		return head + app
	case workflow:
		return head + actions + "; " + app + "; " + fineGrained + "; " + classic
	}
	return head + fineGrained + "; " + classic + "; " + app
}

// classifyNet explains failures to reach the API host at all.
func classifyNet(p *Problem, err error) *Problem {
	host := ""
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
	}
	var (
		dns   *net.DNSError
		op    *net.OpError
		cert  *tls.CertificateVerificationError
		unk   x509.UnknownAuthorityError
		hostn x509.HostnameError
	)
	p.Class = Unreachable
	p.Advice = "Check that " + apiRoot + " and that the runner can reach that host (DNS, proxy, firewall)"
	switch {
	case errors.As(err, &dns):
		name := dns.Name
		if name == "" {
			name = host
		}
		p.What = "cannot resolve the host name " + name + ": " + dns.Err
	case errors.Is(err, syscall.ECONNREFUSED):
		p.What = "the connection to " + orAddr(host, err) + " was refused"
	case errors.As(err, &cert), errors.As(err, &unk), errors.As(err, &hostn):
		p.What = "the TLS certificate of " + orAddr(host, err) + " is not trusted"
		p.Advice = "Check that " + apiRoot + "; for a server with a private certificate authority, install that CA on the runner"
	case errors.As(err, &op) && op.Op == "dial":
		p.What = "cannot connect to " + orAddr(host, err) + ": " + op.Err.Error()
	default:
		return nil
	}
	return p
}

func orAddr(host string, err error) string {
	if host != "" {
		return host
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		return op.Addr.String()
	}
	return "the API host"
}

// urlCredentials is a URL's user:password@ part, wherever it stands in a text.
var urlCredentials = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*:/*)[^\s/?#@]+@`)

// sanitize makes a text that may hold a server's words safe to print: the
// token and URL credentials become ***, and control characters (terminal
// escapes, newlines that would start a workflow command, bidirectional
// overrides) are escaped as \x1b, \n, \u202e.
func sanitize(s, token string) string {
	if token != "" {
		s = strings.ReplaceAll(s, token, "***")
	}
	if strings.IndexByte(s, '@') >= 0 {
		// Only then can it hold credentials: the expression costs as much
		// on a long error answer without any.
		s = urlCredentials.ReplaceAllString(s, "${1}***@")
	}
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
