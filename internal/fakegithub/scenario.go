package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
)

// scenario is the JSON scenario format. Dates are relative to the "now"
// given to load, so sample data stays meaningful whenever it runs. Unknown
// fields are errors (typos should not pass silently).
type scenario struct {
	Owner         string `json:"owner,omitempty"`
	Repo          string `json:"repo,omitempty"`
	DefaultBranch string `json:"default_branch,omitempty"`
	Login         string `json:"login,omitempty"`      // token identity, default github-actions[bot]
	LoginType     string `json:"login_type,omitempty"` // default from the login ("[bot]" suffix: Bot)
	// StaleLabel is the label the marked_stale shorthand adds (default "stale").
	StaleLabel string          `json:"stale_label,omitempty"`
	Members    []string        `json:"members,omitempty"`  // author_association MEMBER
	Branches   []string        `json:"branches,omitempty"` // extra branches of the base repository
	Labels     []scenarioLabel `json:"labels,omitempty"`   // colours and descriptions
	Items      []scenarioItem  `json:"items"`
}

// scenarioLabel defines a repository label.
type scenarioLabel struct {
	Name        string `json:"name"`
	Color       string `json:"color,omitempty"`
	Description string `json:"description,omitempty"`
}

// scenarioItem is a pull request (default) or, with "issue": true, a plain
// issue. Users are logins; a "[bot]" suffix makes a bot.
type scenarioItem struct {
	Number      int    `json:"number,omitempty"`
	Issue       bool   `json:"issue,omitempty"`
	Title       string `json:"title"`
	Body        string `json:"body,omitempty"`
	User        string `json:"user,omitempty"`
	Note        string `json:"note,omitempty"` // free text for readers: what a run should do with it
	State       string `json:"state,omitempty"`
	StateReason string `json:"state_reason,omitempty"`
	// Labels present from creation, without labeled events.
	Labels             []string `json:"labels,omitempty"`
	Milestone          string   `json:"milestone,omitempty"`
	Assignees          []string `json:"assignees,omitempty"`
	Locked             bool     `json:"locked,omitempty"`
	Draft              bool     `json:"draft,omitempty"`
	Head               string   `json:"head,omitempty"`      // head branch
	HeadRepo           string   `json:"head_repo,omitempty"` // "owner/name" of a fork
	HeadRepoDeleted    bool     `json:"head_repo_deleted,omitempty"`
	Base               string   `json:"base,omitempty"`
	RequestedReviewers []string `json:"requested_reviewers,omitempty"`
	RequestedTeams     []string `json:"requested_teams,omitempty"`

	CreatedDaysAgo float64 `json:"created_days_ago"`
	// UpdatedDaysAgo, when set, is updated_at (raised to the latest event
	// if one is later); otherwise updated_at is the latest event or creation.
	UpdatedDaysAgo *float64        `json:"updated_days_ago,omitempty"`
	ClosedDaysAgo  *float64        `json:"closed_days_ago,omitempty"` // for state "closed" without a closed event
	MergedDaysAgo  *float64        `json:"merged_days_ago,omitempty"`
	Events         []scenarioEvent `json:"events,omitempty"`
	// Checks are the CI contexts of the head commit the events leave, in
	// the order GitHub lists them (a re-run after the run it repeats).
	Checks []scenarioCheck `json:"checks,omitempty"`
}

// scenarioCheck is one context of a PR's head commit: a check run, or with
// State a commit status. Names, statuses and conclusions are GitHub's, in
// any case.
type scenarioCheck struct {
	Name string `json:"name"`
	// Status is a check run's: completed (the default), in_progress,
	// queued, waiting, pending.
	Status string `json:"status,omitempty"`
	// Conclusion is a completed check run's: success, failure, cancelled,
	// timed_out, skipped, neutral, action_required, startup_failure.
	Conclusion string `json:"conclusion,omitempty"`
	// State makes the context a commit status (a legacy CI's): success,
	// failure, error, pending.
	State string `json:"state,omitempty"`
	// Required: the base branch requires a check of this name (its
	// protection or a ruleset names checks, for every PR).
	Required bool `json:"required,omitempty"`
	// CompletedDaysAgo is a completed check run's completion, or a commit
	// status's creation.
	CompletedDaysAgo *float64 `json:"completed_days_ago,omitempty"`
}

// scenarioEvent is one timeline entry. Type is a timeline event type
// (commented, labeled, unlabeled, closed, reopened, reviewed, committed,
// head_ref_force_pushed, ready_for_review, convert_to_draft, renamed,
// review_requested, review_request_removed, line-commented, merged,
// assigned, unassigned) or a
// shorthand for stalepr's own writes, made as the token identity:
//   - marked_stale: the stale label plus a notice comment ending in
//     "<!-- stalepr:stale marked=<RFC 3339 time of the label> -->";
//   - closed_stale: a closing comment ending in "<!-- stalepr:close -->",
//     then a closed event.
//
// User defaults to the token identity for labeled, unlabeled, closed and
// the shorthands, and to the item's author otherwise.
type scenarioEvent struct {
	Type     string  `json:"type"`
	DaysAgo  float64 `json:"days_ago"`
	User     string  `json:"user,omitempty"`
	Body     string  `json:"body,omitempty"`     // commented, reviewed, line-commented
	Label    string  `json:"label,omitempty"`    // labeled, unlabeled, marked_stale
	State    string  `json:"state,omitempty"`    // reviewed: APPROVED, CHANGES_REQUESTED, COMMENTED
	Message  string  `json:"message,omitempty"`  // committed
	Title    string  `json:"title,omitempty"`    // renamed: the new title
	Reviewer string  `json:"reviewer,omitempty"` // review_requested/removed: login or "team:slug"
	Path     string  `json:"path,omitempty"`     // line-commented
	Reason   string  `json:"reason,omitempty"`   // closed: state_reason
	Assignee string  `json:"assignee,omitempty"` // assigned, unassigned: the account (user: who did it)

	// PushedDaysAgo (committed): the commit, dated DaysAgo by git, was
	// pushed later. updated_at moves to the push; the timeline does not
	// show it (GitHub dates commits by their git dates).
	PushedDaysAgo *float64 `json:"pushed_days_ago,omitempty"`
}

// StaleNoticeBody is the text the marked_stale shorthand posts.
// head is the PR's head commit at the mark ("" for none, as v1 wrote it).
func StaleNoticeBody(label string, markedAt time.Time, head string) string {
	marker := "<!-- stalepr:stale marked=" + ts(markedAt)
	if head != "" {
		marker += " head=" + head
	}
	return "This pull request has had no activity for a while, so it is now marked `" + label + "`.\n\n" +
		"Any comment keeps it open.\n\n" + marker + " -->"
}

// closeNoticeBody is the text the closed_stale shorthand posts.
func closeNoticeBody() string {
	return "Closing this pull request: it stayed stale without activity.\n\n<!-- stalepr:close -->"
}

// Load builds a server from a JSON scenario with dates relative to now;
// the server's Clock is stopped at now.
func Load(r io.Reader, now time.Time) (*Server, error) {
	s := New(Options{Clock: NewClock(now.UTC().Truncate(time.Second))})
	if err := s.loadScenario(r, now); err != nil {
		return nil, err
	}
	return s, nil
}

// LoadFile is Load from a file.
func LoadFile(path string, now time.Time) (*Server, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Load(f, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// parseScenario decodes a scenario strictly.
func parseScenario(r io.Reader) (scenario, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return scenario{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var sc scenario
	if err := dec.Decode(&sc); err != nil {
		return scenario{}, fmt.Errorf("scenario: %w", err)
	}
	return sc, nil
}

// loadScenario adds a scenario's repository settings and items to s (for a
// server built with New and custom Options).
func (s *Server) loadScenario(r io.Reader, now time.Time) error {
	sc, err := parseScenario(r)
	if err != nil {
		return err
	}
	return s.addScenario(sc, now)
}

var scenarioEventTypes = []string{EventCommented, EventLabeled, EventUnlabeled, EventClosed, EventReopened,
	EventReviewed, EventCommitted, EventHeadRefForcePushed, EventReadyForReview, EventConvertToDraft,
	EventRenamed, EventReviewRequested, EventReviewRequestRemoved, EventLineCommented, EventMerged,
	EventAssigned, EventUnassigned, "marked_stale", "closed_stale"}

// scenarioLoad adds one scenario to a server: at dates its "days ago" by
// the time it is loaded at, and staleLabel is the label its stale bot's
// events put on.
type scenarioLoad struct {
	s          *Server
	at         func(daysAgo float64) time.Time
	staleLabel string
}

// addScenario adds a parsed scenario to s.
func (s *Server) addScenario(sc scenario, now time.Time) error {
	now = now.UTC().Truncate(time.Second)
	l := scenarioLoad{s: s, staleLabel: def(sc.StaleLabel, "stale"), at: func(days float64) time.Time {
		return now.Add(-time.Duration(days * float64(24*time.Hour))).Truncate(time.Second)
	}}
	s.mu.Lock()
	defer s.mu.Unlock()
	l.repo(sc)
	for i, it := range sc.Items {
		if err := l.item(it, i); err != nil {
			return err
		}
	}
	s.db.version++
	return nil
}

// repo applies a scenario's repository settings: its name,
// default branch, identity, members, branches and labels.
func (l scenarioLoad) repo(sc scenario) {
	if sc.Owner != "" {
		l.s.owner = sc.Owner
	}
	if sc.Repo != "" {
		l.s.repo = sc.Repo
	}
	if sc.DefaultBranch != "" {
		l.s.defaultBranch = sc.DefaultBranch
		if _, ok := l.s.db.branches[sc.DefaultBranch]; !ok {
			l.s.db.branches[sc.DefaultBranch] = branchSHA(sc.DefaultBranch)
		}
	}
	if sc.Login != "" {
		l.s.identity = userFor(sc.Login)
		if sc.LoginType != "" {
			l.s.identity.Type = sc.LoginType
		}
	}
	for _, m := range sc.Members {
		l.s.members[strings.ToLower(m)] = true
	}
	for _, b := range sc.Branches {
		if _, ok := l.s.db.branches[b]; !ok {
			l.s.db.branches[b] = branchSHA(b)
		}
	}
	for _, lb := range sc.Labels {
		d := l.s.db.ensureLabel(lb.Name)
		if lb.Color != "" {
			d.Color = lb.Color
		}
		d.Description = lb.Description
		l.s.db.labels[strings.ToLower(lb.Name)] = d
	}
}

// item adds the i-th item of a scenario, then its events, oldest first.
func (l scenarioLoad) item(it scenarioItem, i int) error {
	where := fmt.Sprintf("item %d", i+1)
	if it.Number != 0 {
		where = fmt.Sprintf("item #%d", it.Number)
		if _, dup := l.s.db.byNum[it.Number]; dup {
			return fmt.Errorf("%s: number already used", where)
		}
	}
	is, err := scenarioIssue(it, l.at)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	rec := l.s.db.byNum[l.s.addLocked(is)]
	if is.IsPR && it.Head != "" && it.HeadRepo == "" && is.State == "closed" {
		l.s.db.branches[it.Head] = rec.HeadSHA // its branch, kept after the close, at its head
	}
	events := slices.Clone(it.Events)
	sort.SliceStable(events, func(a, b int) bool { return events[a].DaysAgo > events[b].DaysAgo })
	for j, ev := range events {
		if err := l.event(rec, ev, l.at(ev.DaysAgo)); err != nil {
			return fmt.Errorf("%s: event %d (%s): %w", where, j+1, ev.Type, err)
		}
		if l.at(ev.DaysAgo).Before(is.CreatedAt) {
			return fmt.Errorf("%s: event %d (%s) at %v days ago is before the item was created", where, j+1, ev.Type, ev.DaysAgo)
		}
	}
	if len(it.Checks) > 0 && !is.IsPR {
		return fmt.Errorf("%s: checks are a pull request's: an issue has no head commit", where)
	}
	return l.checks(rec, it.Checks, is.CreatedAt, where)
}

// checks adds a PR's checks on its head commit, as they stand
// after its events; created is the PR's creation as the scenario gives it.
// A required one's name joins the base branch's.
func (l scenarioLoad) checks(rec *issueRec, checks []scenarioCheck, created time.Time, where string) error {
	for j, c := range checks {
		check, err := scenarioCheckOf(c, l.at, created)
		if err != nil {
			return fmt.Errorf("%s: check %d (%s): %w", where, j+1, c.Name, err)
		}
		if l.s.db.checks == nil {
			l.s.db.checks = map[string][]*checkRec{}
		}
		l.s.db.checks[rec.HeadSHA] = append(l.s.db.checks[rec.HeadSHA], &checkRec{Check: check, id: l.s.db.newID(), sha: rec.HeadSHA})
		if c.Required && !slices.Contains(l.s.db.requiredChecks, c.Name) {
			l.s.db.requiredChecks = append(l.s.db.requiredChecks, c.Name)
		}
	}
	return nil
}

// scenarioCheckOf is the Check a scenario's check describes, dated by at;
// created is its PR's creation, before which nothing ran.
func scenarioCheckOf(c scenarioCheck, at func(float64) time.Time, created time.Time) (Check, error) {
	if c.Name == "" {
		return Check{}, fmt.Errorf("name is required")
	}
	out := Check{Name: c.Name, Status: strings.ToUpper(def(c.Status, "completed")), Conclusion: strings.ToUpper(c.Conclusion)}
	done := out.Status == "COMPLETED"
	if c.State != "" {
		if c.Status != "" || c.Conclusion != "" {
			return Check{}, fmt.Errorf("state makes a commit status, which has no status or conclusion")
		}
		out.Status, out.Conclusion = "", strings.ToUpper(c.State)
		done = true // a commit status is dated by its creation, pending too
	}
	switch {
	case done && c.CompletedDaysAgo == nil:
		return Check{}, fmt.Errorf("completed_days_ago is required for a completed check run or a commit status")
	case !done && (c.CompletedDaysAgo != nil || c.Conclusion != ""):
		return Check{}, fmt.Errorf("a check run %s has no conclusion or completion yet", strings.ToLower(out.Status))
	case out.Status == "COMPLETED" && out.Conclusion == "":
		return Check{}, fmt.Errorf("conclusion is required for a completed check run")
	case done:
		out.At = at(*c.CompletedDaysAgo)
		if out.At.Before(created) {
			return Check{}, fmt.Errorf("completed_days_ago %v is before the pull request was created", *c.CompletedDaysAgo)
		}
	}
	return out, nil
}

// scenarioIssue is the Issue a scenario item describes, before its events.
func scenarioIssue(it scenarioItem, at func(float64) time.Time) (Issue, error) {
	if it.State != "" && it.State != "open" && it.State != "closed" {
		return Issue{}, fmt.Errorf("state %q: want open or closed", it.State)
	}
	created := at(it.CreatedDaysAgo)
	is := Issue{Number: it.Number, Title: it.Title, Body: it.Body, User: userFor(def(it.User, "octocat")), State: it.State,
		StateReason: it.StateReason, Labels: it.Labels, Milestone: it.Milestone, Assignees: it.Assignees,
		Locked: it.Locked, CreatedAt: created, UpdatedAt: created, IsPR: !it.Issue, Draft: it.Draft,
		HeadRef: it.Head, HeadRepo: it.HeadRepo, HeadRepoDeleted: it.HeadRepoDeleted, BaseRef: it.Base,
		RequestedReviewers: it.RequestedReviewers, RequestedTeams: it.RequestedTeams}
	if it.UpdatedDaysAgo != nil {
		is.UpdatedAt = at(*it.UpdatedDaysAgo)
		if is.UpdatedAt.Before(created) {
			return Issue{}, fmt.Errorf("updated_days_ago %v is before created_days_ago %v", *it.UpdatedDaysAgo, it.CreatedDaysAgo)
		}
	}
	if it.ClosedDaysAgo != nil {
		is.ClosedAt = at(*it.ClosedDaysAgo)
	}
	if it.MergedDaysAgo != nil {
		is.MergedAt = at(*it.MergedDaysAgo)
	}
	for _, ev := range it.Events {
		if ev.Type == EventClosed || ev.Type == EventMerged || ev.Type == "closed_stale" {
			is.State = "" // the events close it, at their time
			break
		}
	}
	return is, nil
}

// scenarioActor is who made a scenario's event: the user it names, else
// the bot for what a stale bot does (labels, closes, its notices) and the
// item's author for the rest. The bot's login is the bot, whole.
func scenarioActor(ev scenarioEvent, author, bot User) User {
	actor := userFor(ev.User)
	switch ev.Type {
	case EventLabeled, EventUnlabeled, EventClosed, "marked_stale", "closed_stale":
		if ev.User == "" {
			actor = bot
		}
	default:
		if ev.User == "" {
			actor = author
		}
	}
	if actor.Login == bot.Login {
		actor = bot
	}
	return actor
}

// event applies one of an item's events, made at when.
func (l scenarioLoad) event(rec *issueRec, ev scenarioEvent, when time.Time) error {
	actor := scenarioActor(ev, rec.User, l.s.identity)
	switch ev.Type {
	case EventCommented:
		l.s.db.addCommentLocked(rec, actor, when, ev.Body)
	case EventLabeled:
		if ev.Label == "" {
			return fmt.Errorf("label is required")
		}
		l.s.db.addLabelsLocked(rec, actor, when, []string{ev.Label})
	case EventUnlabeled:
		if !l.s.db.removeLabelLocked(rec, actor, when, ev.Label) {
			return fmt.Errorf("label %q is not on the item", ev.Label)
		}
	case EventClosed:
		l.s.db.closeLocked(rec, actor, when, ev.Reason)
	case EventReopened:
		l.s.db.reopenLocked(rec, actor, when)
	case EventReviewed:
		l.s.db.addEventLocked(rec, Event{Type: EventReviewed, Actor: actor, At: when, ReviewState: strings.ToUpper(def(ev.State, "COMMENTED")), Body: ev.Body})
	case EventCommitted:
		e, err := scenarioCommit(ev, actor, when, fakeSHA("commit", l.s.db.nextID+1))
		if err != nil {
			return err
		}
		rec.HeadSHA = e.SHA
		l.s.db.addEventLocked(rec, e)
	case EventHeadRefForcePushed:
		sha := fakeSHA("force", l.s.db.nextID+1)
		rec.HeadSHA = sha
		l.s.db.addEventLocked(rec, Event{Type: ev.Type, Actor: actor, At: when, SHA: sha})
	case EventReadyForReview, EventConvertToDraft:
		l.s.db.setDraftLocked(rec, actor, when, ev.Type == EventConvertToDraft)
	case EventRenamed:
		l.s.db.renameLocked(rec, actor, when, ev.Title)
	case EventReviewRequested, EventReviewRequestRemoved:
		if ev.Reviewer == "" {
			return fmt.Errorf("reviewer is required")
		}
		l.s.db.addEventLocked(rec, scenarioReviewRequest(ev, actor, when))
	case EventLineCommented:
		lc := LineComment{ID: l.s.db.newID(), User: actor, Body: ev.Body, Path: def(ev.Path, "main.go"), CreatedAt: when}
		l.s.db.addEventLocked(rec, Event{Type: ev.Type, Actor: actor, At: when, LineComments: []LineComment{lc}})
	case EventMerged:
		rec.MergedAt = when
		l.s.db.addEventLocked(rec, Event{Type: EventMerged, Actor: actor, At: when, SHA: rec.HeadSHA})
		l.s.db.closeLocked(rec, actor, when, "")
	case EventAssigned, EventUnassigned:
		return l.assign(rec, actor, when, ev)
	case "marked_stale":
		label := def(ev.Label, l.staleLabel)
		l.s.db.addCommentLocked(rec, actor, when, def(ev.Body, StaleNoticeBody(label, when, rec.headAt(when))))
		l.s.db.addLabelsLocked(rec, actor, when, []string{label})
	case "closed_stale":
		l.s.db.addCommentLocked(rec, actor, when, def(ev.Body, closeNoticeBody()))
		l.s.db.closeLocked(rec, actor, when, ev.Reason)
	default:
		return fmt.Errorf("unknown type %q; known: %s", ev.Type, strings.Join(scenarioEventTypes, ", "))
	}
	return nil
}

// scenarioCommit is a scenario's commit, authored by actor at when; it
// reaches GitHub pushed_days_ago when given (a commit pushed later than
// its git date), else at once.
func scenarioCommit(ev scenarioEvent, actor User, when time.Time, sha string) (Event, error) {
	e := Event{Type: EventCommitted, At: when, SHA: sha, Message: def(ev.Message, "Update"),
		AuthorName: actor.Login, AuthorEmail: noreplyEmail(actor)}
	if ev.PushedDaysAgo != nil {
		if *ev.PushedDaysAgo > ev.DaysAgo {
			return Event{}, fmt.Errorf("pushed_days_ago %v is before the commit (days_ago %v)", *ev.PushedDaysAgo, ev.DaysAgo)
		}
		e.PushedAt = when.Add(time.Duration((ev.DaysAgo - *ev.PushedDaysAgo) * float64(24*time.Hour)))
	}
	return e, nil
}

// scenarioReviewRequest is a scenario's review request (or its removal)
// of a person, or of a team named "team:slug".
func scenarioReviewRequest(ev scenarioEvent, actor User, when time.Time) Event {
	e := Event{Type: ev.Type, Actor: actor, At: when}
	if t, isTeam := strings.CutPrefix(ev.Reviewer, "team:"); isTeam {
		e.Team = t
	} else {
		e.Reviewer = ev.Reviewer
	}
	return e
}

// assign applies a scenario's assigned or unassigned event: the
// assignee added to (taken off) the item's, as actor, with its event.
func (l scenarioLoad) assign(rec *issueRec, actor User, when time.Time, ev scenarioEvent) error {
	if ev.Assignee == "" {
		return fmt.Errorf("assignee is required")
	}
	at := slices.IndexFunc(rec.Assignees, func(a string) bool { return strings.EqualFold(a, ev.Assignee) })
	switch {
	case ev.Type == EventUnassigned && at < 0:
		return fmt.Errorf("%s is not assigned", ev.Assignee)
	case ev.Type == EventUnassigned:
		rec.Assignees = slices.Delete(rec.Assignees, at, at+1)
	case at < 0:
		rec.Assignees = append(rec.Assignees, ev.Assignee)
	}
	l.s.db.addEventLocked(rec, Event{Type: ev.Type, Actor: actor, At: when, Assignee: userFor(ev.Assignee)})
	return nil
}
