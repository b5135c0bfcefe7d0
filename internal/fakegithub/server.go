package fakegithub

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Server is the fake GitHub. Create it with New, LoadFile or Synthetic; it is
// safe for concurrent use (one mutex serialises requests and helpers).
type Server struct {
	mu sync.Mutex

	owner, repo, defaultBranch string
	token                      string
	webURL                     string // html_url base; "": the address the request came to
	identity                   User
	now                        func() time.Time
	clock                      *Clock
	members                    map[string]bool   // lower-case logins with author_association MEMBER
	permissions                map[string]string // lower-case login: role on the repository (SetPermission)

	db store // the repository's records

	rate restBucket // REST requests

	installed      []InstalledRepo   // other repositories of GET /installation/repositories
	files          map[string][]byte // default branch contents by path
	draftForbidden bool              // convertPullRequestToDraft answers FORBIDDEN
	// collaboratorsForbidden: Repository.collaborators answers FORBIDDEN.
	collaboratorsForbidden bool

	gql             gqlBucket     // GraphQL points
	gqlPulls        gqlPullsCache // the last pullRequests listing
	reviewsRequired bool          // reviewDecision is served (branch protection requires reviews)
	// statuses are the accounts' GitHub statuses (SetStatus), by
	// lower-case login; gone the accounts GitHub no longer knows
	// (SetUserGone): user(login:) is null for them.
	statuses map[string]userStatus
	gone     map[string]bool

	log       []RequestInfo
	seq       int
	rules     faultRules
	faultHook func(RequestInfo) *Fault
	late      []func() // LateWrite requests, to take effect after the next request
}

// store is the served repository's records: its issues and pull requests
// with their comments and events, its labels, milestones, branches and
// checks, and the version that keys the listings' caches. It has no lock:
// every use is under the server's (the methods named ...Locked say so, as
// Server's do).
type store struct {
	issues  []*issueRec // ordered by number
	byNum   map[int]*issueRec
	nextNum int
	nextID  int64 // comments, events, review comments: one counter, so IDs follow insertion order

	labels     map[string]labelDef // key: lower-case name
	milestones []string            // titles; number = index+1
	// branches are the base repository's branches, each with the commit
	// it points at: an open PR's head branch at its head commit (pushes to
	// the PR move both), until PushBranch moves the branch alone.
	branches  map[string]string
	protected map[string]bool // branches GitHub refuses to delete
	// baseHeads are the head commits pushed to branches of the base
	// repository (PushBase), by branch: what a PR's baseRef targets.
	baseHeads map[string]Event
	// checks are the status check rollups' contexts, by commit;
	// requiredChecks the names the base branch requires (isRequired).
	checks         map[string][]*checkRec
	requiredChecks []string
	committers     map[string]bool // lower-case logins of PR authors: CONTRIBUTOR

	version    uint64 // bumped on every mutation; keys list caches
	issueCache listCache
	commCache  commentCache
}

type issueRec struct {
	Issue
	comments []Comment // by ID
	events   []Event   // by (At, ID)
	// tip is the last commit pushed, in the order commits were added
	// (timeline events sort by git date, pushes do not): the next one's parent.
	tip string
	// pushes are the commits in the order added, with when each reached
	// GitHub; first is the head the PR was opened with.
	pushes []push
	first  string
}

type push struct {
	sha string
	at  time.Time
}

// headAt is the PR's head commit at a time: the last commit pushed by then.
func (r *issueRec) headAt(t time.Time) string {
	head, last := r.first, time.Time{}
	for _, p := range r.pushes {
		if !p.at.After(t) && !p.at.Before(last) {
			head, last = p.sha, p.at
		}
	}
	return head
}

type labelDef struct {
	ID          int64
	Name        string
	Color       string
	Description string
}

// New returns an empty repository (no issues; branch DefaultBranch).
func New(o Options) *Server {
	s := &Server{
		owner:         def(o.Owner, "octo-org"),
		repo:          def(o.Repo, "widgets"),
		defaultBranch: def(o.DefaultBranch, "main"),
		token:         o.Token,
		identity:      User{Login: def(o.Login, "github-actions[bot]"), Type: def(o.LoginType, "Bot")},
		members:       map[string]bool{},
		db: store{byNum: map[int]*issueRec{}, nextNum: 1, nextID: 1000, labels: map[string]labelDef{},
			branches: map[string]string{}, baseHeads: map[string]Event{}},
	}
	switch {
	case o.Clock != nil:
		s.clock = o.Clock
		s.now = o.Clock.Now
	case o.Now != nil:
		s.now = o.Now
	default:
		s.clock = NewClock(time.Now().UTC().Truncate(time.Second))
		s.now = s.clock.Now
	}
	s.db.branches[s.defaultBranch] = branchSHA(s.defaultBranch)
	s.rate.resource, s.gql.resource = "core", "graphql"
	s.rate.limit = o.RateLimit
	if s.rate.limit <= 0 {
		s.rate.limit = 5000
	}
	s.rate.remaining = s.rate.limit
	s.rate.status = o.RateLimitStatus
	s.gql.limit = o.GraphQLRateLimit
	if s.gql.limit <= 0 {
		s.gql.limit = 5000
	}
	s.gql.remaining = s.gql.limit
	if s.rate.status == 0 {
		s.rate.status = http.StatusForbidden
	}
	return s
}

func def(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// Clock returns the server's clock: Options.Clock, or the one New made
// (also with LoadFile and Synthetic); nil when Options.Now was given.
func (s *Server) Clock() *Clock { return s.clock }

// setNow replaces the server's clock (Clock then returns nil).
func (s *Server) setNow(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
	s.clock = nil
}

// Now returns the server's current time, truncated to seconds as GitHub's
// timestamps are.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nowLocked()
}

func (s *Server) nowLocked() time.Time { return s.now().UTC().Truncate(time.Second) }

// Owner, Repo and FullName name the served repository.
func (s *Server) Owner() string    { return s.owner }
func (s *Server) Repo() string     { return s.repo }
func (s *Server) FullName() string { return s.owner + "/" + s.repo }

// DefaultBranch returns the repository's default branch.
func (s *Server) DefaultBranch() string { return s.defaultBranch }

// Identity returns the account the token acts as.
func (s *Server) Identity() User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identity
}

// SetIdentity changes the account the token acts as from the next request
// on: GraphQL's viewer names it, writes are made as it (a token swapped
// mid-run, a proxy that mixes answers to two tokens).
func (s *Server) SetIdentity(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.identity = u
}

// SetToken changes the required token ("" disables authentication).
func (s *Server) SetToken(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = t
}

// SetWebURL makes the html_url of every object start with base (such as
// http://sandbox.invalid) instead of the address the request came to: a
// link the sandbox prints must not point at a port gone when it exits.
func (s *Server) SetWebURL(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webURL = strings.TrimRight(base, "/")
}

// AddMember makes logins members of the organisation: their comments,
// reviews and review comments carry author_association MEMBER, as a
// maintainer's do.
func (s *Server) AddMember(logins ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range logins {
		s.members[strings.ToLower(l)] = true
	}
}

// ---- rate limit knobs ----

// SetRateRemaining sets how many requests are left in the current window
// (0: the next counted request is refused until the window resets, one hour
// after it opened, by the server's clock).
func (s *Server) SetRateRemaining(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rate.window(s.nowLocked())
	s.rate.remaining = n
}

// setRateLimitStatus chooses 403 (GitHub's usual answer) or 429 for an
// exhausted primary limit.
func (s *Server) setRateLimitStatus(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rate.status = status
}

// RateRemaining returns the requests left in the current window.
func (s *Server) RateRemaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rate.window(s.nowLocked())
	return s.rate.remaining
}

// ---- building scenarios ----

// AddPR adds a pull request and returns its number. Zero fields get
// defaults: Number (next free), State "open", User "octocat", CreatedAt
// (now), UpdatedAt (CreatedAt), HeadRef "pr-<n>", BaseRef (default branch).
// A head branch in the base repository is added to the branch set.
// No timeline events are created: use the acting helpers for those.
func (s *Server) AddPR(pr Issue) int {
	pr.IsPR = true
	return s.add(pr)
}

// AddIssue adds a plain issue (not a pull request) and returns its number.
func (s *Server) AddIssue(is Issue) int {
	is.IsPR = false
	return s.add(is)
}

func (s *Server) add(is Issue) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addLocked(is)
}

func (s *Server) addLocked(is Issue) int {
	if is.Number == 0 {
		is.Number = s.db.nextNum
	}
	if _, dup := s.db.byNum[is.Number]; dup {
		panic(fmt.Sprintf("fakegithub: issue #%d already exists", is.Number))
	}
	if is.Number >= s.db.nextNum {
		s.db.nextNum = is.Number + 1
	}
	is = s.db.issueDefaults(is, s.nowLocked())
	if is.IsPR {
		is = s.pullDefaults(is)
	} else {
		is = Issue{Number: is.Number, Title: is.Title, Body: is.Body, User: is.User, State: is.State,
			StateReason: is.StateReason, Labels: is.Labels, Milestone: is.Milestone, Assignees: is.Assignees,
			Locked: is.Locked, CreatedAt: is.CreatedAt, UpdatedAt: is.UpdatedAt, ClosedAt: is.ClosedAt}
	}
	rec := &issueRec{Issue: is, tip: is.HeadSHA, first: is.HeadSHA}
	s.db.byNum[is.Number] = rec
	if is.IsPR {
		if s.db.committers == nil {
			s.db.committers = map[string]bool{}
		}
		s.db.committers[strings.ToLower(is.User.Login)] = true
	}
	i := sort.Search(len(s.db.issues), func(i int) bool { return s.db.issues[i].Number > is.Number })
	if i == len(s.db.issues) {
		s.db.issues = append(s.db.issues, rec)
	} else {
		s.db.issues = slices.Insert(s.db.issues, i, rec)
	}
	s.db.version++
	return is.Number
}

// issueDefaults fills in what an issue or pull request left unset (title,
// author, state, dates: created now when unset), dates it to the second as
// GitHub does, and creates its labels and milestone.
func (db *store) issueDefaults(is Issue, now time.Time) Issue {
	if is.Title == "" {
		if is.IsPR {
			is.Title = fmt.Sprintf("Pull request %d", is.Number)
		} else {
			is.Title = fmt.Sprintf("Issue %d", is.Number)
		}
	}
	if is.User.Login == "" {
		is.User = Person("octocat")
	}
	if is.User.Type == "" {
		is.User = userFor(is.User.Login)
	}
	if is.State == "" {
		is.State = "open"
	}
	if is.CreatedAt.IsZero() {
		is.CreatedAt = now
	}
	is.CreatedAt = is.CreatedAt.UTC().Truncate(time.Second)
	if is.UpdatedAt.Before(is.CreatedAt) {
		is.UpdatedAt = is.CreatedAt
	}
	is.UpdatedAt = is.UpdatedAt.UTC().Truncate(time.Second)
	if is.State == "closed" && is.ClosedAt.IsZero() {
		is.ClosedAt = is.UpdatedAt
	}
	is.Labels = slices.Clone(is.Labels)
	for i, l := range is.Labels {
		is.Labels[i] = db.ensureLabel(l).Name
	}
	is.Assignees = slices.Clone(is.Assignees)
	if is.Milestone != "" {
		db.ensureMilestone(is.Milestone)
	}
	return is
}

// pullDefaults fills in a pull request's branches and head commit; an
// open one's head branch, in this repository, exists and points at its
// head commit.
func (s *Server) pullDefaults(is Issue) Issue {
	if is.HeadRef == "" {
		is.HeadRef = fmt.Sprintf("pr-%d", is.Number)
	}
	if is.BaseRef == "" {
		is.BaseRef = s.defaultBranch
	}
	if is.HeadSHA == "" {
		is.HeadSHA = fakeSHA("head", int64(is.Number))
	}
	if is.HeadRepo == s.FullName() {
		is.HeadRepo = ""
	}
	if is.HeadRepo == "" && !is.HeadRepoDeleted && is.State == "open" {
		s.db.branches[is.HeadRef] = is.HeadSHA
	}
	is.RequestedReviewers = slices.Clone(is.RequestedReviewers)
	is.RequestedTeams = slices.Clone(is.RequestedTeams)
	return is
}

// AddBranch adds branches of the base repository, each at a commit of its
// own (a PR opened from one later moves it to the PR's head); one that
// exists already is left where it points.
func (s *Server) AddBranch(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if _, ok := s.db.branches[n]; !ok {
			s.db.branches[n] = branchSHA(n)
		}
	}
}

// branchSHA is the commit a branch added with no history points at.
func branchSHA(name string) string { return fakeSHA("branch "+name, 0) }

// PushBranch pushes a commit to a branch of the base repository at `at`,
// creating the branch if it is gone, and returns the commit's SHA. As on
// GitHub, an open pull request from the branch moves with it (the commit
// is its author's); a closed one keeps the head it was closed with.
func (s *Server) PushBranch(branch string, at time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sha := fakeSHA("push", s.db.newID())
	for _, rec := range s.db.issues {
		if rec.IsPR && rec.State == "open" && rec.HeadRepo == "" && !rec.HeadRepoDeleted && rec.HeadRef == branch {
			s.db.addEventLocked(rec, Event{Type: EventCommitted, At: at, SHA: sha, Message: "Update " + branch,
				AuthorName: rec.User.Login, AuthorEmail: noreplyEmail(rec.User), AuthorLogin: rec.User.Login})
		}
	}
	s.db.branches[branch] = sha
	s.db.version++
	return sha
}

// followHeadLocked moves a PR's head branch, in this repository and while
// it exists, to the PR's head commit: a push to the PR is a push to it.
func (db *store) followHeadLocked(rec *issueRec) {
	if !rec.IsPR || rec.HeadRepo != "" || rec.HeadRepoDeleted {
		return
	}
	if _, ok := db.branches[rec.HeadRef]; ok {
		db.branches[rec.HeadRef] = rec.HeadSHA
	}
}

// HasBranch reports whether the base repository has the branch.
// ProtectBranch makes GitHub refuse to delete a branch.
func (s *Server) ProtectBranch(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db.protected == nil {
		s.db.protected = map[string]bool{}
	}
	s.db.protected[name] = true
}

func (s *Server) HasBranch(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.db.branches[name]
	return ok
}

// Branches lists the base repository's branches, sorted.
func (s *Server) Branches() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.db.branches))
	for b := range s.db.branches {
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

// defineLabel sets a repository label's colour and description.
func (s *Server) defineLabel(name, color, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.db.ensureLabel(name)
	l.Color = color
	l.Description = description
	s.db.labels[strings.ToLower(name)] = l
}

func (db *store) ensureLabel(name string) labelDef {
	k := strings.ToLower(name)
	if l, ok := db.labels[k]; ok {
		return l
	}
	l := labelDef{ID: 5000 + int64(len(db.labels)), Name: name, Color: inventColor(name)}
	db.labels[k] = l
	return l
}

func (db *store) labelFor(name string) labelDef {
	if l, ok := db.labels[strings.ToLower(name)]; ok {
		return l
	}
	return labelDef{Name: name, Color: inventColor(name)}
}

var palette = []string{"d73a4a", "0075ca", "cfd3d7", "a2eeef", "7057ff", "008672", "e4e669", "d876e3", "fbca04", "b60205", "0e8a16", "5319e7"}

func inventColor(name string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(name)))
	return palette[h.Sum32()%uint32(len(palette))]
}

func (db *store) ensureMilestone(title string) int {
	for i, t := range db.milestones {
		if t == title {
			return i + 1
		}
	}
	db.milestones = append(db.milestones, title)
	return len(db.milestones)
}

func (db *store) milestoneNumber(title string) int {
	for i, t := range db.milestones {
		if t == title {
			return i + 1
		}
	}
	return 0
}

func (db *store) newID() int64 {
	db.nextID++
	return db.nextID
}

func (db *store) mustGet(n int) *issueRec {
	rec, ok := db.byNum[n]
	if !ok {
		panic(fmt.Sprintf("fakegithub: no issue #%d", n))
	}
	return rec
}

// touch moves updated_at forward to at (never backwards, so helpers may
// build history in any order).
func (db *store) touch(rec *issueRec, at time.Time) {
	if at.After(rec.UpdatedAt) {
		rec.UpdatedAt = at
	}
	db.version++
}

func (db *store) addEventLocked(rec *issueRec, e Event) Event {
	if e.Type == EventCommitted && e.Parent == "" {
		e.Parent = rec.tip
	}
	if e.Type == EventCommitted {
		rec.tip = e.SHA
		pushed := e.At
		if e.PushedAt.After(pushed) {
			pushed = e.PushedAt
		}
		at := pushed.UTC().Truncate(time.Second)
		if latest := len(rec.pushes) == 0 || !at.Before(rec.pushes[len(rec.pushes)-1].at); latest {
			// The branch's head is the last commit pushed, as GitHub's
			// head.sha and headRefOid say.
			rec.HeadSHA = e.SHA
		}
		rec.pushes = append(rec.pushes, push{sha: e.SHA, at: at})
	}
	e.At = e.At.UTC().Truncate(time.Second)
	if !e.PushedAt.IsZero() {
		e.PushedAt = e.PushedAt.UTC().Truncate(time.Second)
	}
	if e.ID == 0 {
		e.ID = db.newID()
	}
	i := sort.Search(len(rec.events), func(i int) bool { return rec.events[i].At.After(e.At) })
	rec.events = slices.Insert(rec.events, i, e)
	db.touch(rec, e.At)
	if e.PushedAt.After(e.At) {
		db.touch(rec, e.PushedAt)
	}
	if e.Type == EventCommitted || e.Type == EventHeadRefForcePushed {
		db.followHeadLocked(rec)
	}
	return e
}

func (db *store) addCommentLocked(rec *issueRec, u User, at time.Time, body string) Comment {
	at = at.UTC().Truncate(time.Second)
	c := Comment{ID: db.newID(), Issue: rec.Number, User: u, Body: body, CreatedAt: at, UpdatedAt: at}
	rec.comments = append(rec.comments, c)
	db.touch(rec, at)
	return c
}

// ---- acting as people and bots (tests' scenario builders) ----
// Each helper records the matching timeline event at `at` and moves the
// issue's updated_at to `at` if that is later. They panic on an unknown
// issue number (a bug in the test).

// Comment posts a comment as u and returns it.
func (s *Server) Comment(n int, u User, at time.Time, body string) Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db.addCommentLocked(s.db.mustGet(n), u, at, body)
}

// DeleteComment deletes the comment id as u (a maintainer tidying up).
func (s *Server) DeleteComment(id int64, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, i := s.db.findComment(id)
	if rec == nil {
		panic(fmt.Sprintf("fakegithub: no comment %d", id))
	}
	s.db.deleteCommentLocked(rec, i, u, at)
}

// Label adds labels as u (labeled events for labels not yet present).
func (s *Server) Label(n int, u User, at time.Time, names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.addLabelsLocked(s.db.mustGet(n), u, at, names)
}

// Unlabel removes labels as u (unlabeled events for labels present).
func (s *Server) Unlabel(n int, u User, at time.Time, names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	for _, name := range names {
		s.db.removeLabelLocked(rec, u, at, name)
	}
}

// Review submits a review as u; state is "APPROVED", "CHANGES_REQUESTED"
// or "COMMENTED" (default).
func (s *Server) Review(n int, u User, at time.Time, state, body string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	if state == "" {
		state = "COMMENTED"
	}
	rec := s.db.mustGet(n)
	// A review fulfils the request of its reviewer: GitHub lists them as
	// requested no more (the timeline keeps the request).
	rec.RequestedReviewers = slices.DeleteFunc(rec.RequestedReviewers, func(x string) bool { return strings.EqualFold(x, u.Login) })
	return s.db.addEventLocked(rec, Event{Type: EventReviewed, Actor: u, At: at, ReviewState: strings.ToUpper(state), Body: body})
}

// Push records a commit on the head branch (a "committed" event: git
// author name and date only, no GitHub actor) and moves the head SHA.
// An author written as a login (no spaces) is that account's commit, for
// GraphQL's GitActor.user.
func (s *Server) Push(n int, author string, at time.Time, message string) Event {
	login := author
	if strings.Contains(author, " ") {
		login = ""
	}
	return s.push(n, at, message, author, strings.ToLower(strings.ReplaceAll(author, " ", "."))+"@example.com", login)
}

func (s *Server) push(n int, at time.Time, message, name, email, login string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	sha := fakeSHA("commit", s.db.nextID+1)
	rec.HeadSHA = sha
	return s.db.addEventLocked(rec, Event{Type: EventCommitted, At: at, SHA: sha, Message: message,
		AuthorName: name, AuthorEmail: email, AuthorLogin: login})
}

// PushBase records a commit pushed to a branch of the base repository
// ("" the default branch) at `at`: the branch's head, which its PRs'
// baseRef targets (a push that may put them in conflict).
func (s *Server) PushBase(branch string, at time.Time, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if branch == "" {
		branch = s.defaultBranch
	}
	s.db.nextID++
	s.db.baseHeads[branch] = Event{ID: s.db.nextID, Type: EventCommitted, At: at, SHA: fakeSHA("base", s.db.nextID), Message: message}
	s.db.branches[branch] = s.db.baseHeads[branch].SHA
	s.db.version++
}

// PushAs records a commit that account u made and pushed, with the git
// identity GitHub gives it: apps commit as "NAME[bot]" with
// ID+NAME[bot]@users.noreply.github.com.
func (s *Server) PushAs(n int, u User, at time.Time, message string) Event {
	return s.push(n, at, message, u.Login, noreplyEmail(u), u.Login)
}

// noreplyEmail is an account's private commit e-mail on GitHub.
func noreplyEmail(u User) string {
	return fmt.Sprintf("%d+%s@users.noreply.github.com", userID(u.Login), strings.ToLower(u.Login))
}

// ForcePush records a head_ref_force_pushed event by u.
func (s *Server) ForcePush(n int, u User, at time.Time) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	sha := fakeSHA("force", s.db.nextID+1)
	rec.HeadSHA = sha
	return s.db.addEventLocked(rec, Event{Type: EventHeadRefForcePushed, Actor: u, At: at, SHA: sha})
}

// Close closes as u (closed event); reason "" means "completed" for issues
// and none for pull requests.
func (s *Server) Close(n int, u User, at time.Time, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.closeLocked(s.db.mustGet(n), u, at, reason)
}

// Reopen reopens as u (reopened event).
func (s *Server) Reopen(n int, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.reopenLocked(s.db.mustGet(n), u, at)
}

// Merge marks a pull request merged and closed by u.
func (s *Server) Merge(n int, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	at = at.UTC().Truncate(time.Second)
	rec.MergedAt = at
	s.db.addEventLocked(rec, Event{Type: EventMerged, Actor: u, At: at, SHA: rec.HeadSHA})
	s.db.closeLocked(rec, u, at, "")
}

// Rename changes the title as u (renamed event).
func (s *Server) Rename(n int, u User, at time.Time, title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.renameLocked(s.db.mustGet(n), u, at, title)
}

// ReadyForReview takes a draft out of draft as u.
func (s *Server) ReadyForReview(n int, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.setDraftLocked(s.db.mustGet(n), u, at, false)
}

// ConvertToDraft turns a pull request into a draft as u.
func (s *Server) ConvertToDraft(n int, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.setDraftLocked(s.db.mustGet(n), u, at, true)
}

// setDraftLocked makes a pull request a draft or ready for review, with the
// timeline event GitHub records for it.
func (db *store) setDraftLocked(rec *issueRec, u User, at time.Time, draft bool) {
	rec.Draft = draft
	ev := EventReadyForReview
	if draft {
		ev = EventConvertToDraft
	}
	db.addEventLocked(rec, Event{Type: ev, Actor: u, At: at})
}

// Assign assigns assignee to issue n as u (an assigned event), as a
// person assigning the Copilot coding agent, or the agent assigning the PR
// to the person who delegated the work, does.
func (s *Server) Assign(n int, u User, at time.Time, assignee User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	if !slices.Contains(rec.Assignees, assignee.Login) {
		rec.Assignees = append(rec.Assignees, assignee.Login)
	}
	s.db.addEventLocked(rec, Event{Type: EventAssigned, Actor: u, At: at, Assignee: assignee})
}

// RequestReview requests a review from a user login or, with a "team:"
// prefix ("team:core"), a team, as u.
func (s *Server) RequestReview(n int, u User, at time.Time, reviewer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	e := Event{Type: EventReviewRequested, Actor: u, At: at}
	if t, ok := strings.CutPrefix(reviewer, "team:"); ok {
		e.Team = t
		if !slices.Contains(rec.RequestedTeams, t) {
			rec.RequestedTeams = append(rec.RequestedTeams, t)
		}
	} else {
		e.Reviewer = reviewer
		if !slices.Contains(rec.RequestedReviewers, reviewer) {
			rec.RequestedReviewers = append(rec.RequestedReviewers, reviewer)
		}
	}
	s.db.addEventLocked(rec, e)
}

// RemoveReviewRequest withdraws a review request as u (see RequestReview).
func (s *Server) RemoveReviewRequest(n int, u User, at time.Time, reviewer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	e := Event{Type: EventReviewRequestRemoved, Actor: u, At: at}
	if t, ok := strings.CutPrefix(reviewer, "team:"); ok {
		e.Team = t
		rec.RequestedTeams = slices.DeleteFunc(rec.RequestedTeams, func(x string) bool { return x == t })
	} else {
		e.Reviewer = reviewer
		rec.RequestedReviewers = slices.DeleteFunc(rec.RequestedReviewers, func(x string) bool { return x == reviewer })
	}
	s.db.addEventLocked(rec, e)
}

// LineComment adds a review comment on a diff line as u (a line-commented
// timeline entry).
func (s *Server) LineComment(n int, u User, at time.Time, path, body string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	at = at.UTC().Truncate(time.Second)
	lc := LineComment{ID: s.db.newID(), User: u, Body: body, Path: path, CreatedAt: at}
	return s.db.addEventLocked(s.db.mustGet(n), Event{Type: EventLineCommented, Actor: u, At: at, LineComments: []LineComment{lc}})
}

// AddEvent appends a raw timeline event (any Type) and moves updated_at.
func (s *Server) AddEvent(n int, e Event) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db.addEventLocked(s.db.mustGet(n), e)
}

// SetUpdatedAt forces an issue's updated_at (e.g. to model an edit that
// leaves no timeline event).
func (s *Server) SetUpdatedAt(n int, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.mustGet(n).UpdatedAt = t.UTC().Truncate(time.Second)
	s.db.version++
}

// Edit changes issue n's own fields (Locked, Milestone, Assignees...) as a
// maintainer would in the UI, without a timeline event of its own.
func (s *Server) Edit(n int, f func(*Issue)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.db.mustGet(n).Issue)
	s.db.version++
}

// DeleteBranch removes a branch of the base repository (as a person
// deleting it in the UI).
func (s *Server) DeleteBranch(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.db.branches, name)
}

func (db *store) addLabelsLocked(rec *issueRec, u User, at time.Time, names []string) {
	for _, name := range names {
		if rec.HasLabel(name) {
			continue
		}
		l := db.ensureLabel(name)
		rec.Labels = append(rec.Labels, l.Name)
		db.addEventLocked(rec, Event{Type: EventLabeled, Actor: u, At: at, Label: l.Name})
	}
}

func (db *store) removeLabelLocked(rec *issueRec, u User, at time.Time, name string) bool {
	i := slices.IndexFunc(rec.Labels, func(l string) bool { return strings.EqualFold(l, name) })
	if i < 0 {
		return false
	}
	actual := rec.Labels[i]
	rec.Labels = slices.Delete(rec.Labels, i, i+1)
	db.addEventLocked(rec, Event{Type: EventUnlabeled, Actor: u, At: at, Label: actual})
	return true
}

func (db *store) closeLocked(rec *issueRec, u User, at time.Time, reason string) {
	if rec.State == "closed" {
		return
	}
	at = at.UTC().Truncate(time.Second)
	if reason == "" && !rec.IsPR {
		reason = "completed"
	}
	rec.State = "closed"
	rec.StateReason = reason
	rec.ClosedAt = at
	db.addEventLocked(rec, Event{Type: EventClosed, Actor: u, At: at, StateReason: reason})
}

func (db *store) reopenLocked(rec *issueRec, u User, at time.Time) {
	if rec.State == "open" {
		return
	}
	rec.State = "open"
	rec.ClosedAt = time.Time{}
	if rec.IsPR {
		rec.StateReason = ""
	} else {
		rec.StateReason = "reopened"
	}
	db.addEventLocked(rec, Event{Type: EventReopened, Actor: u, At: at})
}

func (db *store) renameLocked(rec *issueRec, u User, at time.Time, title string) {
	if rec.Title == title {
		return
	}
	from := rec.Title
	rec.Title = title
	db.addEventLocked(rec, Event{Type: EventRenamed, Actor: u, At: at, RenameFrom: from, RenameTo: title})
}

// ---- inspecting state ----

// issueCopy returns a copy of issue or pull request n.
func (s *Server) issueCopy(n int) (Issue, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.db.byNum[n]
	if !ok {
		return Issue{}, false
	}
	return copyIssue(rec.Issue), true
}

// MustIssue is issueCopy for tests that know n exists.
func (s *Server) MustIssue(n int) Issue {
	is, ok := s.issueCopy(n)
	if !ok {
		panic(fmt.Sprintf("fakegithub: no issue #%d", n))
	}
	return is
}

// Issues returns copies of all issues and pull requests, by number.
func (s *Server) Issues() []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Issue, len(s.db.issues))
	for i, rec := range s.db.issues {
		out[i] = copyIssue(rec.Issue)
	}
	return out
}

// numIssues returns the number of issues and pull requests.
func (s *Server) numIssues() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.db.issues)
}

func copyIssue(is Issue) Issue {
	is.Labels = slices.Clone(is.Labels)
	is.Assignees = slices.Clone(is.Assignees)
	is.RequestedReviewers = slices.Clone(is.RequestedReviewers)
	is.RequestedTeams = slices.Clone(is.RequestedTeams)
	return is
}

// Labels returns issue n's label names (nil if n does not exist).
func (s *Server) Labels(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.db.byNum[n]; ok {
		return slices.Clone(rec.Labels)
	}
	return nil
}

// Comments returns issue n's comments, oldest first.
func (s *Server) Comments(n int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.db.byNum[n]; ok {
		return slices.Clone(rec.comments)
	}
	return nil
}

// Events returns issue n's timeline events other than comments, by time.
func (s *Server) Events(n int) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.db.byNum[n]; ok {
		out := slices.Clone(rec.events)
		for i := range out {
			out[i].LineComments = slices.Clone(out[i].LineComments)
		}
		return out
	}
	return nil
}

// TimelineItem is one entry of an issue's timeline: an Event, or a Comment
// (Type "commented").
type TimelineItem struct {
	Type    string
	At      time.Time
	Actor   User
	Event   Event   // when Type != "commented"
	Comment Comment // when Type == "commented"
}

// Timeline returns issue n's timeline as the API serves it.
func (s *Server) Timeline(n int) []TimelineItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.db.byNum[n]
	if !ok {
		return nil
	}
	return timelineOf(rec)
}

func timelineOf(rec *issueRec) []TimelineItem {
	out := make([]TimelineItem, 0, len(rec.events)+len(rec.comments))
	for _, e := range rec.events {
		out = append(out, TimelineItem{Type: e.Type, At: e.At, Actor: e.Actor, Event: e})
	}
	for _, c := range rec.comments {
		out = append(out, TimelineItem{Type: EventCommented, At: c.CreatedAt, Actor: c.User, Comment: c})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return itemID(out[i]) < itemID(out[j])
	})
	return out
}

func itemID(t TimelineItem) int64 {
	if t.Type == EventCommented {
		return t.Comment.ID
	}
	return t.Event.ID
}

func fakeSHA(kind string, n int64) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s-%d", kind, n)
	a := h.Sum64()
	h.Write([]byte("x"))
	b := h.Sum64()
	h.Write([]byte("y"))
	c := h.Sum64()
	return fmt.Sprintf("%016x%016x%08x", a, b, uint32(c))
}
