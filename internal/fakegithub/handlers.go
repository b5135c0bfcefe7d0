package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	docListIssues   = "https://docs.github.com/rest/issues/issues#list-repository-issues"
	docUpdateIssue  = "https://docs.github.com/rest/issues/issues#update-an-issue"
	docUpdatePull   = "https://docs.github.com/rest/pulls/pulls#update-a-pull-request"
	docReviewers    = "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request"
	docComment      = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
	docListComments = "https://docs.github.com/rest/issues/comments#list-issue-comments-for-a-repository"
	docAddLabels    = "https://docs.github.com/rest/issues/labels#add-labels-to-an-issue"
	docSetLabels    = "https://docs.github.com/rest/issues/labels#set-labels-for-an-issue"
	docRemoveLabel  = "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue"
	docListPulls    = "https://docs.github.com/rest/pulls/pulls#list-pull-requests"
	docDeleteRef    = "https://docs.github.com/rest/git/refs#delete-a-reference"
	docGetRef       = "https://docs.github.com/rest/git/refs#get-a-reference"
)

func (c *call) num(name string) int {
	n, _ := strconv.Atoi(c.params[name])
	return n
}

// ---- issues ----

func (h rest) listIssues(c *call) reply {
	q := c.q
	state := def(q.Get("state"), "open")
	by := def(q.Get("sort"), "created")
	dir := def(q.Get("direction"), "desc")
	since, sinceOK := parseSince(q.Get("since"))
	errs := listQueryErrors("Issue", state, dir, by, []string{"created", "updated", "comments"})
	if !sinceOK {
		errs = append(errs, fieldError{Resource: "Issue", Field: "since", Code: "invalid"})
	}
	if len(errs) > 0 {
		return invalid(docListIssues, errs...)
	}
	f := issueFilter{state: state, since: since, labels: splitLabels(q.Get("labels")),
		assignee: q.Get("assignee"), milestone: q.Get("milestone"), creator: q.Get("creator"), milestones: h.db.milestones}
	key := strings.Join([]string{"issues", state, by, dir, ts(since), strings.ToLower(strings.Join(f.labels, ",")),
		f.assignee, f.milestone, f.creator}, "\x00")
	items := h.db.cachedIssues(key, func() []*issueRec {
		var out []*issueRec
		for _, rec := range h.db.issues {
			if f.matches(rec) {
				out = append(out, rec)
			}
		}
		sortIssues(out, by, dir == "desc")
		return out
	})
	return pagedMap(c, items, func(rec *issueRec) issueJSON { return c.issue(rec, false) })
}

// listQueryErrors checks a listing's state, direction and sort (one of
// sorts), in GitHub's order.
func listQueryErrors(resource, state, dir, by string, sorts []string) []fieldError {
	var errs []fieldError
	if state != "open" && state != "closed" && state != "all" {
		errs = append(errs, fieldError{Resource: resource, Field: "state", Code: "invalid"})
	}
	if !slices.Contains(sorts, by) {
		errs = append(errs, fieldError{Resource: resource, Field: "sort", Code: "invalid"})
	}
	if dir != "asc" && dir != "desc" {
		errs = append(errs, fieldError{Resource: resource, Field: "direction", Code: "invalid"})
	}
	return errs
}

// splitLabels reads a comma-separated labels filter.
func splitLabels(list string) []string {
	var want []string
	for _, l := range strings.Split(list, ",") {
		if l = strings.TrimSpace(l); l != "" {
			want = append(want, l)
		}
	}
	return want
}

// issueFilter is the issue listing's filters; empty ones match anything.
type issueFilter struct {
	state                        string // open, closed or all
	since                        time.Time
	labels                       []string // all required
	assignee, milestone, creator string
	milestones                   []string // the repository's, whose numbers the milestone filter may give
}

// matches reports whether rec passes every filter.
func (f issueFilter) matches(rec *issueRec) bool {
	switch {
	case f.state != "all" && rec.State != f.state:
		return false
	case !f.since.IsZero() && rec.UpdatedAt.Before(f.since):
		return false
	case !hasAll(rec.Labels, f.labels):
		return false
	case !matchAssignee(rec.Assignees, f.assignee) || !f.matchMilestone(rec.Milestone):
		return false
	}
	return f.creator == "" || strings.EqualFold(rec.User.Login, f.creator)
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}

func matchAssignee(have []string, want string) bool {
	switch want {
	case "":
		return true
	case "none":
		return len(have) == 0
	case "*":
		return len(have) > 0
	}
	return slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, want) })
}

// matchMilestone applies the milestone filter: a number, "none", "*" or a
// title.
func (f issueFilter) matchMilestone(have string) bool {
	want := f.milestone
	switch want {
	case "":
		return true
	case "none":
		return have == ""
	case "*":
		return have != ""
	}
	if n, err := strconv.Atoi(want); err == nil {
		return have != "" && slices.Index(f.milestones, have)+1 == n
	}
	return have == want
}

func (h rest) issueRec(c *call, param string) (*issueRec, bool) {
	rec, found := h.db.byNum[c.num(param)]
	return rec, found
}

// decodeObject parses a JSON object body into raw fields.
func decodeObject(body []byte) (map[string]json.RawMessage, bool) {
	m := map[string]json.RawMessage{}
	if len(strings.TrimSpace(string(body))) == 0 {
		return m, true
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, false
	}
	return m, true
}

func isNull(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }

func (h rest) patchIssue(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	f, good := decodeObject(c.body)
	if !good {
		return badJSON(docUpdateIssue)
	}
	p, errs := h.parseIssuePatch(f)
	if p.state != nil && *p.state == "open" && rec.IsPR && rec.State == "closed" {
		// As the pulls endpoint (patchPull).
		if why := h.unreopenable(rec); why != "" {
			return reply{status: http.StatusUnprocessableEntity, body: errorBody{Message: "Validation Failed",
				Errors:           []fieldError{{Resource: patchResource, Code: "custom", Field: "state", Message: why}},
				DocumentationURL: docUpdateIssue, Status: "422"}}
		}
	}
	if len(errs) > 0 {
		return invalid(docUpdateIssue, errs...)
	}
	h.applyIssuePatch(rec, p, c.now)
	if len(f) > 0 {
		h.db.touch(rec, c.now)
		rec.UpdatedAt = c.now
	}
	return ok(c.issue(rec, true))
}

// patchResource names the resource in PATCH's errors: "Issue", for pull
// requests too, as on GitHub.
const patchResource = "Issue"

// issuePatch is a PATCH of an issue or pull request, parsed: a nil or unset
// field is left as it is.
type issuePatch struct {
	title, body, state, reason *string
	bodyNull, reasonNull       bool
	labels                     []string
	labelsSet                  bool
	assignees                  []string
	assigneesSet               bool
	milestone                  string
	milestoneSet               bool
}

// parseIssuePatch reads a PATCH body's fields, with an error for each bad
// one, in GitHub's order.
func (h rest) parseIssuePatch(f map[string]json.RawMessage) (issuePatch, []fieldError) {
	var p issuePatch
	var errs []fieldError
	bad := func(field, code string) {
		errs = append(errs, fieldError{Resource: patchResource, Field: field, Code: code})
	}
	for _, k := range []string{"title", "body", "state", "state_reason"} {
		v, null, good := optString(f, k)
		if !good {
			bad(k, "invalid")
		}
		switch k {
		case "title":
			p.title = v
		case "body":
			p.body, p.bodyNull = v, null
		case "state":
			p.state = v
		case "state_reason":
			p.reason, p.reasonNull = v, null
		}
	}
	if p.state != nil && *p.state != "open" && *p.state != "closed" {
		bad("state", "invalid")
	}
	if p.reason != nil && !slices.Contains([]string{"completed", "not_planned", "reopened", "duplicate"}, *p.reason) {
		bad("state_reason", "invalid")
	}
	if p.title != nil && strings.TrimSpace(*p.title) == "" {
		bad("title", "missing_field")
	}
	if raw, present := f["labels"]; present {
		names, good := parseLabels(raw)
		if !good {
			bad("labels", "invalid")
		}
		p.labels, p.labelsSet = names, true
	}
	if raw, present := f["assignees"]; present {
		if json.Unmarshal(raw, &p.assignees) != nil {
			bad("assignees", "invalid")
		}
		p.assigneesSet = true
	}
	if raw, present := f["milestone"]; present {
		p.milestoneSet = true
		var good bool
		if p.milestone, good = h.parseMilestone(raw); !good {
			bad("milestone", "invalid")
		}
	}
	return p, errs
}

// optString reads an optional string field: v is nil when the field is
// absent or null (null tells which), good is false when it is no string.
func optString(f map[string]json.RawMessage, k string) (v *string, null, good bool) {
	raw, present := f[k]
	if !present {
		return nil, false, true
	}
	if isNull(raw) {
		return nil, true, true
	}
	var str string
	if json.Unmarshal(raw, &str) != nil {
		return nil, false, false
	}
	return &str, false, true
}

// parseMilestone reads a milestone's number (null: none) as its title.
func (h rest) parseMilestone(raw json.RawMessage) (string, bool) {
	if isNull(raw) {
		return "", true
	}
	var n int
	if json.Unmarshal(raw, &n) != nil || n < 1 || n > len(h.db.milestones) {
		return "", false
	}
	return h.db.milestones[n-1], true
}

// applyIssuePatch applies a valid patch, attributed to the token's
// identity at now.
func (h rest) applyIssuePatch(rec *issueRec, p issuePatch, now time.Time) {
	who := h.s.identity
	if p.title != nil {
		h.db.renameLocked(rec, who, now, *p.title)
	}
	if p.body != nil {
		rec.Body = *p.body
	} else if p.bodyNull {
		rec.Body = ""
	}
	if p.labelsSet {
		h.db.setLabelsLocked(rec, who, now, p.labels)
	}
	if p.assigneesSet {
		rec.Assignees = slices.Clone(p.assignees)
	}
	if p.milestoneSet {
		rec.Milestone = p.milestone
	}
	h.applyIssueState(rec, p, now)
}

// applyIssueState closes or reopens as the patch says. A state_reason
// counts for issues only (GitHub ignores it on a pull request); alone it
// rewrites a closed issue's reason.
func (h rest) applyIssueState(rec *issueRec, p issuePatch, now time.Time) {
	reason := ""
	if p.reason != nil && !rec.IsPR {
		reason = *p.reason
	}
	if p.state == nil {
		if reason != "" && rec.State == "closed" {
			rec.StateReason = reason
		}
		return
	}
	switch *p.state {
	case "closed":
		if rec.State == "closed" && reason != "" {
			rec.StateReason = reason
		}
		h.db.closeLocked(rec, h.s.identity, now, reason)
	case "open":
		h.db.reopenLocked(rec, h.s.identity, now)
	}
}

// parseLabels accepts ["a","b"], [{"name":"a"}], {"labels":[...]} and a
// bare "a".
func parseLabels(raw json.RawMessage) ([]string, bool) {
	var obj struct {
		Labels json.RawMessage `json:"labels"`
	}
	trimmed := strings.TrimSpace(string(raw))
	if strings.HasPrefix(trimmed, "{") {
		if json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
		if obj.Labels == nil {
			return []string{}, true
		}
		raw = obj.Labels
		trimmed = strings.TrimSpace(string(raw))
	}
	if strings.HasPrefix(trimmed, `"`) {
		var one string
		if json.Unmarshal(raw, &one) != nil {
			return nil, false
		}
		return []string{one}, true
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	names := make([]string, 0, len(items))
	for _, it := range items {
		var n string
		if json.Unmarshal(it, &n) == nil {
			names = append(names, n)
			continue
		}
		var o struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(it, &o) != nil || o.Name == "" {
			return nil, false
		}
		names = append(names, o.Name)
	}
	return names, true
}

func (db *store) setLabelsLocked(rec *issueRec, who User, at time.Time, names []string) {
	for _, have := range slices.Clone(rec.Labels) {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, have) }) {
			db.removeLabelLocked(rec, who, at, have)
		}
	}
	db.addLabelsLocked(rec, who, at, names)
}

// ---- comments ----

func (h rest) listComments(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	since, good := parseSince(c.q.Get("since"))
	if !good {
		return invalid(docListComments, fieldError{Resource: "IssueComment", Field: "since", Code: "invalid"})
	}
	var items []Comment
	for _, cm := range rec.comments {
		if since.IsZero() || !cm.UpdatedAt.Before(since) {
			items = append(items, cm)
		}
	}
	return pagedMap(c, items, func(cm Comment) commentJSON { return c.comment(cm, rec.IsPR) })
}

func (h rest) postComment(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	var in struct {
		Body *string `json:"body"`
	}
	if len(strings.TrimSpace(string(c.body))) > 0 && json.Unmarshal(c.body, &in) != nil {
		return badJSON(docComment)
	}
	if in.Body == nil || strings.TrimSpace(*in.Body) == "" {
		return invalid(docComment, fieldError{Resource: "IssueComment", Field: "body", Code: "missing_field"})
	}
	cm := h.db.addCommentLocked(rec, h.s.identity, c.now, *in.Body)
	rec.UpdatedAt = c.now
	out := c.comment(cm, rec.IsPR)
	return reply{status: http.StatusCreated, body: out, header: http.Header{"Location": {out.URL}}}
}

func (db *store) findComment(id int64) (*issueRec, int) {
	for _, rec := range db.issues {
		for i, cm := range rec.comments {
			if cm.ID == id {
				return rec, i
			}
		}
	}
	return nil, -1
}

func (h rest) deleteComment(c *call) reply {
	id, _ := strconv.ParseInt(c.params["comment_id"], 10, 64)
	rec, i := h.db.findComment(id)
	if rec == nil {
		return notFound()
	}
	h.db.deleteCommentLocked(rec, i, h.s.identity, c.now)
	return reply{status: http.StatusNoContent}
}

// deleteCommentLocked deletes rec's comment i as u at `at`: GitHub keeps a
// comment_deleted event in its place, which moves updated_at.
func (db *store) deleteCommentLocked(rec *issueRec, i int, u User, at time.Time) {
	gone := rec.comments[i]
	rec.comments = slices.Delete(rec.comments, i, i+1)
	db.addEventLocked(rec, Event{Type: EventCommentDeleted, Actor: u, At: at, DeletedAuthor: gone.User})
	db.version++
}

func (h rest) listRepoComments(c *call) reply {
	by := def(c.q.Get("sort"), "created")
	dir := def(c.q.Get("direction"), "asc")
	since, good := parseSince(c.q.Get("since"))
	var errs []fieldError
	if by != "created" && by != "updated" {
		errs = append(errs, fieldError{Resource: "IssueComment", Field: "sort", Code: "invalid"})
	}
	if dir != "asc" && dir != "desc" {
		errs = append(errs, fieldError{Resource: "IssueComment", Field: "direction", Code: "invalid"})
	}
	if !good {
		errs = append(errs, fieldError{Resource: "IssueComment", Field: "since", Code: "invalid"})
	}
	if len(errs) > 0 {
		return invalid(docListComments, errs...)
	}
	key := strings.Join([]string{by, dir, ts(since)}, "\x00")
	if h.db.commCache.items == nil || h.db.commCache.key != key || h.db.commCache.version != h.db.version {
		h.db.commCache = commentCache{key: key, version: h.db.version, items: h.repoComments(by, dir, since)}
	}
	return pagedMap(c, h.db.commCache.items, func(r commentRef) commentJSON { return c.comment(r.c, r.isPR) })
}

// repoComments is every comment updated since (zero: all), sorted by
// created or updated, asc or desc, the ID breaking ties.
func (h rest) repoComments(by, dir string, since time.Time) []commentRef {
	items := []commentRef{}
	for _, rec := range h.db.issues {
		for _, cm := range rec.comments {
			if since.IsZero() || !cm.UpdatedAt.Before(since) {
				items = append(items, commentRef{c: cm, isPR: rec.IsPR})
			}
		}
	}
	slices.SortFunc(items, func(a, b commentRef) int {
		var r int
		if by == "updated" {
			r = a.c.UpdatedAt.Compare(b.c.UpdatedAt)
		} else {
			r = a.c.CreatedAt.Compare(b.c.CreatedAt)
		}
		if r == 0 {
			r = int(a.c.ID - b.c.ID)
		}
		if dir == "desc" {
			r = -r
		}
		return r
	})
	return items
}

// ---- labels ----

func (h rest) addLabels(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	names, good := parseLabels(c.body)
	if !good {
		return badJSON(docAddLabels)
	}
	if len(names) == 0 {
		return invalid(docAddLabels, fieldError{Resource: "Label", Field: "labels", Code: "missing_field"})
	}
	for _, n := range names {
		if strings.TrimSpace(n) == "" {
			return invalid(docAddLabels, fieldError{Resource: "Label", Field: "name", Code: "invalid"})
		}
	}
	before := len(rec.events)
	h.db.addLabelsLocked(rec, h.s.identity, c.now, names)
	if len(rec.events) != before {
		rec.UpdatedAt = c.now
	}
	return ok(c.labelList(rec.Labels))
}

func (h rest) setLabels(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	names, good := parseLabels(c.body)
	if !good {
		return badJSON(docSetLabels)
	}
	before := len(rec.events)
	h.db.setLabelsLocked(rec, h.s.identity, c.now, names)
	if len(rec.events) != before {
		rec.UpdatedAt = c.now
	}
	return ok(c.labelList(rec.Labels))
}

func (h rest) removeLabel(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	if !h.db.removeLabelLocked(rec, h.s.identity, c.now, c.params["name"]) {
		return errReply(http.StatusNotFound, "Label does not exist", docRemoveLabel)
	}
	rec.UpdatedAt = c.now
	return ok(c.labelList(rec.Labels))
}

// ---- timeline ----

func (h rest) listTimeline(c *call) reply {
	rec, found := h.issueRec(c, "issue_number")
	if !found {
		return notFound()
	}
	items := timelineOf(rec)
	return pagedMap(c, items, func(it TimelineItem) any { return c.timelineItem(rec, it) })
}

// ---- pulls ----

func (h rest) listPulls(c *call) reply {
	f := readPullsFilter(c.q)
	if errs := listQueryErrors("PullRequest", f.state, f.dir, f.by, []string{"created", "updated", "popularity", "long-running"}); len(errs) > 0 {
		return invalid(docListPulls, errs...)
	}
	key := strings.Join([]string{"pulls", f.state, f.by, f.dir, f.head, f.base}, "\x00")
	items := h.db.cachedIssues(key, func() []*issueRec {
		var out []*issueRec
		for _, rec := range h.db.issues {
			if f.keeps(rec, c.now) && h.matchHead(rec, f.head) {
				out = append(out, rec)
			}
		}
		sortIssues(out, f.sortKey(), f.dir == "desc")
		return out
	})
	return pagedMap(c, items, func(rec *issueRec) pullJSON { return c.pullSimple(rec) })
}

// pullsFilter is the query of a pulls listing, with GitHub's defaults
// filled in: the newest first when sorted by creation, else the oldest.
type pullsFilter struct{ state, by, dir, head, base string }

func readPullsFilter(q url.Values) pullsFilter {
	f := pullsFilter{state: def(q.Get("state"), "open"), by: def(q.Get("sort"), "created"), dir: q.Get("direction"),
		head: q.Get("head"), base: q.Get("base")}
	if f.dir == "" {
		f.dir = "asc"
		if f.by == "created" {
			f.dir = "desc"
		}
	}
	return f
}

// keeps applies the filters other than head's: the state, the base, and
// long-running's 30 days open.
func (f pullsFilter) keeps(rec *issueRec, now time.Time) bool {
	switch {
	case !rec.IsPR || (f.state != "all" && rec.State != f.state):
		return false
	case f.base != "" && rec.BaseRef != f.base:
		return false
	case f.by == "long-running" && now.Sub(rec.CreatedAt) < 30*24*time.Hour:
		return false
	}
	return true
}

// sortKey is the order of the listing: long-running ones by creation.
func (f pullsFilter) sortKey() string {
	if f.by == "long-running" {
		return "created"
	}
	return f.by
}

// matchHead applies the pulls listing's head filter, "owner:ref" or
// "ref" ("" matches all); the head's owner is its repository's.
func (h rest) matchHead(rec *issueRec, head string) bool {
	if head == "" {
		return true
	}
	owner, ref, hasOwner := strings.Cut(head, ":")
	if !hasOwner {
		owner, ref = "", head
	}
	full := rec.HeadRepo
	if full == "" {
		full = h.s.FullName()
	}
	headOwner, _, _ := strings.Cut(full, "/")
	return rec.HeadRef == ref && (owner == "" || strings.EqualFold(owner, headOwner))
}

func (h rest) pullRec(c *call) (*issueRec, bool) {
	rec, found := h.db.byNum[c.num("pull_number")]
	if !found || !rec.IsPR {
		return nil, false
	}
	return rec, true
}

func (h rest) getPull(c *call) reply {
	rec, found := h.pullRec(c)
	if !found {
		return notFound()
	}
	return ok(c.pullFull(rec))
}

// patchPull updates a pull request: its title, body and state (the
// closure audit reopens with it). GitHub refuses to reopen one that was
// merged, or whose head branch is gone (deleted, or with its fork).
func (h rest) patchPull(c *call) reply {
	rec, found := h.pullRec(c)
	if !found {
		return notFound()
	}
	f, good := decodeObject(c.body)
	if !good {
		return badJSON(docUpdatePull)
	}
	var p issuePatch
	var errs []fieldError
	for _, k := range []string{"title", "body", "state"} {
		v, _, good := optString(f, k)
		switch {
		case !good, k == "state" && v != nil && *v != "open" && *v != "closed":
			errs = append(errs, fieldError{Resource: "PullRequest", Field: k, Code: "invalid"})
		case k == "title":
			p.title = v
		case k == "body":
			p.body = v
		case k == "state":
			p.state = v
		}
	}
	if len(errs) > 0 {
		return invalid(docUpdatePull, errs...)
	}
	if p.state != nil && *p.state == "open" && rec.State == "closed" {
		if why := h.unreopenable(rec); why != "" {
			return reply{status: http.StatusUnprocessableEntity, body: errorBody{Message: "Validation Failed",
				Errors:           []fieldError{{Resource: "PullRequest", Code: "custom", Field: "state", Message: why}},
				DocumentationURL: docUpdatePull, Status: "422"}}
		}
	}
	h.applyIssuePatch(rec, p, c.now)
	if len(f) > 0 {
		h.db.touch(rec, c.now)
		rec.UpdatedAt = c.now
	}
	return ok(c.pullFull(rec))
}

func (h rest) listReviews(c *call) reply {
	rec, found := h.pullRec(c)
	if !found {
		return notFound()
	}
	var items []Event
	for _, e := range rec.events {
		if e.Type == EventReviewed {
			items = append(items, e)
		}
	}
	return pagedMap(c, items, func(e Event) map[string]any { return c.review(rec.Number, e, false) })
}

// ---- git refs ----

// refJSON is GitHub's git-ref: a reference and the object it points at.
type refJSON struct {
	Ref    string       `json:"ref"`
	NodeID string       `json:"node_id"`
	URL    string       `json:"url"`
	Object refObjectRef `json:"object"`
}

type refObjectRef struct {
	SHA  string `json:"sha"`
	Type string `json:"type"`
	URL  string `json:"url"`
}

// getRef answers one reference by its exact name (heads/BRANCH): the
// branch and the commit it points at; 404 for one that does not exist
// (a tag, or a name that only begins one).
func (h rest) getRef(c *call) reply {
	ref := strings.TrimPrefix(c.params["ref"], "refs/")
	branch, isHead := strings.CutPrefix(ref, "heads/")
	sha, found := h.db.branches[branch]
	if !isHead || !found {
		return errReply(http.StatusNotFound, "Not Found", docGetRef)
	}
	return ok(refJSON{Ref: "refs/heads/" + branch, NodeID: refNodeID(branch),
		URL:    c.repoURL() + "/git/refs/heads/" + escapeRef(branch),
		Object: refObjectRef{SHA: sha, Type: "commit", URL: c.repoURL() + "/git/commits/" + sha}})
}

// refNodeID is a branch's node ID, the same in REST and GraphQL.
func refNodeID(branch string) string { return "REF_" + branch }

// escapeRef escapes each "/"-separated segment of a ref for a URL path.
func escapeRef(ref string) string {
	parts := strings.Split(ref, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// unreopenable is why GitHub refuses to reopen the closed pull request
// rec (on the pulls and the issues endpoint alike), "" when it does not: a
// merged one never, one only with its head branch.
func (h rest) unreopenable(rec *issueRec) string {
	switch {
	case !rec.MergedAt.IsZero():
		return "state cannot be changed. The pull request cannot be reopened because it has been merged."
	case rec.HeadRepoDeleted || rec.HeadRepo == "" && !h.db.hasBranchLocked(rec.HeadRef):
		return "state cannot be changed. The " + rec.HeadRef + " branch has been deleted."
	}
	return ""
}

func (db *store) hasBranchLocked(name string) bool {
	_, ok := db.branches[name]
	return ok
}

func (h rest) deleteRef(c *call) reply {
	ref := strings.TrimPrefix(c.params["ref"], "refs/")
	branch, isHead := strings.CutPrefix(ref, "heads/")
	if !isHead || !h.db.hasBranchLocked(branch) {
		return reply{status: http.StatusUnprocessableEntity, body: errorBody{Message: "Reference does not exist",
			DocumentationURL: docDeleteRef, Status: "422"}}
	}
	if branch == h.s.defaultBranch {
		// GitHub refuses to delete the default branch (the exact message is
		// not documented).
		return reply{status: http.StatusUnprocessableEntity, body: errorBody{
			Message: fmt.Sprintf("Cannot delete the default branch %q", branch), DocumentationURL: docDeleteRef, Status: "422"}}
	}
	if h.db.protected[branch] {
		return reply{status: http.StatusUnprocessableEntity, body: errorBody{
			Message: "Cannot delete this protected branch", DocumentationURL: docDeleteRef, Status: "422"}}
	}
	delete(h.db.branches, branch)
	// As on GitHub, deleting the head branch of an open pull request from
	// this repository closes it, and so does deleting its base branch.
	for _, rec := range h.db.issues {
		head := rec.HeadRepo == "" && !rec.HeadRepoDeleted && rec.HeadRef == branch
		if rec.IsPR && rec.State == "open" && (head || rec.BaseRef == branch) {
			h.db.closeLocked(rec, h.s.identity, c.now, "")
			rec.UpdatedAt = c.now
		}
	}
	h.db.version++
	return reply{status: http.StatusNoContent}
}

// requestReviewers requests reviews of users (reviewers) and teams
// (team_reviewers) as the token's account, adding to those requested: a
// review_requested event for each one not requested yet (an account
// requested already gets none, as on GitHub), and 201 with the pull
// request. GitHub refuses (422) a request of the PR's author and one of
// nobody.
func (h rest) requestReviewers(c *call) reply {
	rec, found := h.pullRec(c)
	if !found {
		return notFound()
	}
	var in struct {
		Reviewers     []string `json:"reviewers"`
		TeamReviewers []string `json:"team_reviewers"`
	}
	if json.Unmarshal(c.body, &in) != nil {
		return badJSON(docReviewers)
	}
	if len(in.Reviewers)+len(in.TeamReviewers) == 0 {
		return invalid(docReviewers, fieldError{Resource: "PullRequest", Field: "reviewers", Code: "missing_field"})
	}
	for _, r := range in.Reviewers {
		if strings.EqualFold(r, rec.User.Login) {
			return reply{status: http.StatusUnprocessableEntity, body: errorBody{
				Message: "Review cannot be requested from pull request author.", DocumentationURL: docReviewers, Status: "422"}}
		}
	}
	for _, r := range in.Reviewers {
		if h.s.roleLocked(r) == "" {
			// GitHub refuses the whole request, naming nobody: the
			// others named with them are not requested either.
			return reply{status: http.StatusUnprocessableEntity, body: errorBody{
				Message: "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " +
					h.s.owner + "/" + h.s.repo + " repository.", DocumentationURL: docReviewers, Status: "422"}}
		}
	}
	before := len(rec.events)
	for _, r := range in.Reviewers {
		if !slices.ContainsFunc(rec.RequestedReviewers, func(x string) bool { return strings.EqualFold(x, r) }) {
			rec.RequestedReviewers = append(rec.RequestedReviewers, r)
			h.db.addEventLocked(rec, Event{Type: EventReviewRequested, Actor: h.s.identity, At: c.now, Reviewer: r})
		}
	}
	for _, t := range in.TeamReviewers {
		if !slices.Contains(rec.RequestedTeams, t) {
			rec.RequestedTeams = append(rec.RequestedTeams, t)
			h.db.addEventLocked(rec, Event{Type: EventReviewRequested, Actor: h.s.identity, At: c.now, Team: t})
		}
	}
	if len(rec.events) != before {
		rec.UpdatedAt = c.now
	}
	return reply{status: http.StatusCreated, body: c.pullSimple(rec)}
}
