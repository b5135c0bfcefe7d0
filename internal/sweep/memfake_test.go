package sweep_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
	"github.com/stalepr/stalepr/internal/sweep"
)

// memGitHub is sweep.GitHub in memory: the repository's PRs, their
// timelines and comments, and the branches, with every call recorded as a
// readable line. No HTTP, no transport: it shows what the sweep asks of its
// port, and a plan test reads in a few lines what a run sends. Limits and
// faults are the HTTP fake's (internal/fakegithub) business; so are the
// end-to-end tests.
type memGitHub struct {
	self     string // the login the token writes as
	now      time.Time
	prs      map[int]*memPR
	branches map[string]string // the commit each branch points at
	nextID   int64
	wrote    bool
	calls    []string // every call, in order
	writes   int
}

type memPR struct {
	pr       lifecycle.PR
	open     bool
	head     sweep.Head
	timeline []lifecycle.Event  // comments included, as GitHub's timeline has them
	ancestry []lifecycle.Commit // the head's first-parent chain, head first (none set: the head alone, unknown)
	comments []sweep.Comment
}

var _ sweep.GitHub = (*memGitHub)(nil)

func newMem(now time.Time) *memGitHub {
	return &memGitHub{self: "github-actions[bot]", now: now, prs: map[int]*memPR{}, branches: map[string]string{"main": fmt.Sprintf("%040x", 0xba5e)}, nextID: 100}
}

// add adds an open PR by alice from branch pr-N of this repository, last
// updated at updated.
func (m *memGitHub) add(updated time.Time) int {
	n := len(m.prs) + 1
	ref := fmt.Sprintf("pr-%d", n)
	m.branches[ref] = fmt.Sprintf("%040d", n)
	m.prs[n] = &memPR{
		pr: lifecycle.PR{Number: n, Title: fmt.Sprintf("PR %d", n), Author: "alice", CreatedAt: updated.Add(-24 * time.Hour),
			UpdatedAt: updated, HeadSHA: fmt.Sprintf("%040d", n), NodeID: fmt.Sprintf("PR_%d", n)},
		open: true,
		head: sweep.Head{Ref: ref, SHA: fmt.Sprintf("%040d", n), SameRepo: true, DefaultBranch: "main"},
	}
	return n
}

// mark leaves PR n as a previous run did at `at`: the stale label and our
// notice, by our login.
func (m *memGitHub) mark(n int, at time.Time) {
	p := m.prs[n]
	p.pr.Labels = append(p.pr.Labels, "stale")
	p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Labeled, At: at, Actor: m.self, Bot: true, Label: "stale"})
	m.comment(n, m.self, at.Add(time.Second), notice.Body("This PR is stale.", notice.StaleMarker(at, p.pr.HeadSHA)))
}

// comment adds a comment by login at `at`, as a person or our login writes it.
func (m *memGitHub) comment(n int, login string, at time.Time, body string) {
	p := m.prs[n]
	m.nextID++
	kind, markedAt, head, rule := notice.Parse(body)
	ev := lifecycle.Event{Kind: lifecycle.Commented, At: at, Actor: login, Bot: strings.HasSuffix(login, "[bot]"),
		CommentID: m.nextID, Notice: kind, MarkedAt: markedAt, MarkHead: head, Rule: rule}
	p.timeline = append(p.timeline, ev)
	p.comments = append(p.comments, sweep.Comment{ID: m.nextID, Issue: n, UpdatedAt: at, Event: ev, Body: body})
	p.pr.UpdatedAt = lifecycle.Later(p.pr.UpdatedAt, at)
}

func (m *memGitHub) call(format string, args ...any) {
	m.calls = append(m.calls, fmt.Sprintf(format, args...))
}

func (m *memGitHub) write(format string, args ...any) {
	m.writes++
	m.call(format, args...)
}

// touch is what every write does to a PR on GitHub: it moves updated_at.
func (m *memGitHub) touch(n int) *memPR {
	p := m.prs[n]
	p.pr.UpdatedAt = m.now
	return p
}

// list is one page holding every PR the query selects, in its order.
func (m *memGitHub) list(q sweep.Query) ([]lifecycle.PR, sweep.Page) {
	var out []lifecycle.PR
	for _, p := range m.prs {
		if p.open != (q.State == "open") || !hasAll(p.pr, q.Labels) {
			continue
		}
		if !q.Since.IsZero() && !p.pr.UpdatedAt.After(q.Since) {
			continue
		}
		pr := p.pr
		pr.Labels = slices.Clone(pr.Labels)
		out = append(out, pr)
	}
	key := func(pr lifecycle.PR) time.Time {
		if q.Sort == "created" {
			return pr.CreatedAt
		}
		return pr.UpdatedAt
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i]).Before(key(out[j])) })
	pg := sweep.Page{Ascending: true}
	if len(out) > 0 {
		pg.FirstKey, pg.LastKey = key(out[0]), key(out[len(out)-1])
	}
	return out, pg
}

func hasAll(pr lifecycle.PR, labels []string) bool {
	for _, l := range labels {
		if !pr.HasLabel(l) {
			return false
		}
	}
	return true
}

func (m *memGitHub) ListPRs(_ context.Context, q sweep.Query, page int) ([]lifecycle.PR, sweep.Page, error) {
	m.call("list issues %s labels=%s", q.State, strings.Join(q.Labels, ","))
	prs, pg := m.list(q)
	return prs, pg, nil
}

// OpenPulls is one page of every open PR the query selects, each with its
// whole history, as a GraphQL page holding it all.
func (m *memGitHub) OpenPulls(_ context.Context, q sweep.Query, after string) ([]sweep.Listed, sweep.Page, error) {
	m.call("list open pulls labels=%s", strings.Join(q.Labels, ","))
	prs, pg := m.list(sweep.Query{State: "open", Labels: q.Labels, Sort: q.Sort, Direction: q.Direction})
	out := make([]sweep.Listed, len(prs))
	for i, pr := range prs {
		out[i] = sweep.Listed{PR: pr, History: slices.Clone(m.prs[pr.Number].timeline)}
	}
	pg.Total, pg.Viewer = len(prs), m.self
	return out, pg, nil
}

// ClosedPulls is one page of every closed PR, the most recently updated
// first, each with its whole history (closed PRs are never merged here, and
// their branches are the map's).
func (m *memGitHub) ClosedPulls(_ context.Context, _ bool, after string) ([]sweep.ClosedListed, sweep.Page, error) {
	m.call("list closed pulls")
	prs, pg := m.list(sweep.Query{State: "closed", Sort: "updated"})
	slices.Reverse(prs)
	out := make([]sweep.ClosedListed, len(prs))
	for i, pr := range prs {
		p := m.prs[pr.Number]
		var closedAt time.Time
		for _, e := range p.timeline {
			if e.Kind == lifecycle.Closed {
				closedAt = e.At
			}
		}
		out[i] = sweep.ClosedListed{Listed: sweep.Listed{PR: pr, History: slices.Clone(p.timeline)},
			ClosedAt: closedAt, BranchGone: m.branches[p.head.Ref] == ""}
	}
	pg.FirstKey, pg.LastKey, pg.Ascending, pg.Total, pg.Viewer = pg.LastKey, pg.FirstKey, false, len(prs), m.self
	return out, pg, nil
}

func (m *memGitHub) commentsSince(since time.Time) []sweep.Comment {
	var out []sweep.Comment
	for _, p := range m.prs {
		for _, c := range p.comments {
			if !c.UpdatedAt.Before(since) {
				out = append(out, c)
			}
		}
	}
	return out
}

func (m *memGitHub) History(_ context.Context, n int, before string) ([]lifecycle.Event, error) {
	m.call("read history #%d", n)
	return slices.Clone(m.prs[n].timeline), nil
}

func (m *memGitHub) PullHead(_ context.Context, n int) (sweep.Head, error) {
	m.call("read head #%d", n)
	return m.prs[n].head, nil
}

func (m *memGitHub) Ancestry(_ context.Context, n int) ([]lifecycle.Commit, error) {
	m.call("read the head commits of #%d", n)
	return slices.Clone(m.prs[n].ancestry), nil
}

// Checks knows no check: the memory fake's pages never say one fails.
func (m *memGitHub) Checks(_ context.Context, numbers []int) (map[int]lifecycle.Checks, error) {
	m.call("read the checks of %d pull requests", len(numbers))
	return map[int]lifecycle.Checks{}, nil
}

// Links knows no link: every PR links nothing.
func (m *memGitHub) Links(_ context.Context, numbers []int) (map[int]lifecycle.Links, error) {
	m.call("read the links of %d pull requests", len(numbers))
	out := map[int]lifecycle.Links{}
	for _, n := range numbers {
		out[n] = lifecycle.Links{Read: true}
	}
	return out, nil
}

// BusyStatuses knows no status: nobody is busy.
func (m *memGitHub) BusyStatuses(_ context.Context, logins []string) ([]lifecycle.Busy, error) {
	m.call("read the GitHub status of %d accounts", len(logins))
	return nil, nil
}

func (m *memGitHub) PullsNow(_ context.Context, listed []lifecycle.PR) (map[int]sweep.Now, error) {
	m.call("read %d pull requests afresh", len(listed))
	out := map[int]sweep.Now{}
	for _, l := range listed {
		p := m.prs[l.Number]
		now := sweep.Now{PR: p.pr, Open: p.open}
		for _, e := range p.timeline {
			if e.At.After(l.UpdatedAt) {
				now.Since = append(now.Since, e)
			}
		}
		out[l.Number] = now
	}
	return out, nil
}

func (m *memGitHub) Pull(_ context.Context, n int, _ bool) (sweep.ClosedListed, bool, error) {
	m.call("read #%d and its history", n)
	p := m.prs[n]
	return sweep.ClosedListed{Listed: sweep.Listed{PR: p.pr, History: slices.Clone(p.timeline)}}, p.open, nil
}

func (m *memGitHub) Permission(_ context.Context, login string) (lifecycle.Access, error) {
	m.call("read the permission of %s", login)
	return lifecycle.AccessUnknown, nil
}

func (m *memGitHub) Collaborators(context.Context) (map[string]lifecycle.Access, bool, error) {
	m.call("list the collaborators")
	return nil, false, api.ErrPermissionRefused // as Permission: nothing known, author_association decides
}

func (m *memGitHub) BranchInUse(_ context.Context, branch string) (bool, error) {
	m.call("look for open PRs on %s", branch)
	for _, p := range m.prs {
		if p.open && p.head.SameRepo && p.head.Ref == branch {
			return true, nil
		}
	}
	return false, nil
}

func (m *memGitHub) BranchHead(_ context.Context, branch string) (string, bool, error) {
	m.call("read branch %s", branch)
	sha, ok := m.branches[branch]
	return sha, ok, nil
}

func (m *memGitHub) Viewer(context.Context) (string, error) {
	m.call("ask who the token is")
	return m.self, nil
}

func (m *memGitHub) WroteAs() string {
	if m.wrote {
		return m.self
	}
	return ""
}

func (m *memGitHub) RecentComments(_ context.Context, since time.Time) ([]sweep.Comment, error) {
	m.call("list recent comments")
	return m.commentsSince(since), nil
}

func (m *memGitHub) AddLabels(_ context.Context, n int, labels []string) error {
	m.write("label #%d %s", n, strings.Join(labels, ","))
	p := m.touch(n)
	for _, l := range labels {
		if !p.pr.HasLabel(l) {
			p.pr.Labels = append(p.pr.Labels, l)
			p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Labeled, At: m.now, Actor: m.self, Bot: true, Label: l})
		}
	}
	return nil
}

func (m *memGitHub) SetLabels(ctx context.Context, n int, labels []string) error {
	if err := api.Guard(ctx); err != nil {
		return err // as ghapi's transport: the guard's read, then no write
	}
	m.write("set labels #%d %s", n, strings.Join(labels, ","))
	m.touch(n).pr.Labels = slices.Clone(labels)
	return nil
}

func (m *memGitHub) RemoveLabel(ctx context.Context, n int, label string) error {
	if err := api.Guard(ctx); err != nil {
		return err // as ghapi's transport: the guard's read, then no write
	}
	m.write("unlabel #%d %s", n, label)
	p := m.touch(n)
	p.pr.Labels = slices.DeleteFunc(p.pr.Labels, func(l string) bool { return strings.EqualFold(l, label) })
	p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Unlabeled, At: m.now, Actor: m.self, Bot: true, Label: label})
	return nil
}

func (m *memGitHub) PostComment(_ context.Context, n int, body string) error {
	kind, _, _, _ := notice.Parse(body)
	m.write("comment #%d %s", n, map[lifecycle.Notice]string{lifecycle.StaleNotice: "stale notice",
		lifecycle.CloseNotice: "closing notice", lifecycle.NudgeNotice: "nudge", lifecycle.ReopenNotice: "reopen notice"}[kind])
	m.touch(n)
	m.comment(n, m.self, m.now, body)
	m.wrote = true
	return nil
}

func (m *memGitHub) DeleteComment(_ context.Context, id int64) error {
	m.write("delete comment %d", id)
	for _, p := range m.prs {
		p.comments = slices.DeleteFunc(p.comments, func(c sweep.Comment) bool { return c.ID == id })
	}
	return nil
}

func (m *memGitHub) Close(ctx context.Context, n int, labels []string) error {
	if err := api.Guard(ctx); err != nil {
		return err // as ghapi's transport: the guard's read, then no write
	}
	m.write("close #%d labels=%s", n, strings.Join(labels, ","))
	p := m.touch(n)
	p.open = false
	p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Closed, At: m.now, Actor: m.self, Bot: true})
	if labels != nil {
		p.pr.Labels = slices.Clone(labels)
	}
	return nil
}

func (m *memGitHub) Reopen(_ context.Context, n int, labels []string) error {
	m.write("reopen #%d", n)
	p := m.touch(n)
	p.open = true
	p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Reopened, At: m.now, Actor: m.self, Bot: true})
	if labels != nil {
		p.pr.Labels = slices.Clone(labels)
	}
	return nil
}

func (m *memGitHub) RequestReviewers(_ context.Context, n int, logins []string) error {
	m.write("request reviews #%d %s", n, strings.Join(logins, ","))
	p := m.touch(n)
	for _, l := range logins {
		p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.ReviewRequested, At: m.now, Actor: m.self, Bot: true, Reviewer: l})
	}
	return nil
}

func (m *memGitHub) DeleteBranch(ctx context.Context, branch string) error {
	if err := api.Guard(ctx); err != nil {
		return err // as ghapi's transport: the guard's read, then no write
	}
	m.write("delete branch %s", branch)
	delete(m.branches, branch)
	return nil
}

func (m *memGitHub) ConvertToDraft(_ context.Context, nodeID string) error {
	m.write("convert %s to draft", nodeID)
	for _, p := range m.prs {
		if p.pr.NodeID == nodeID {
			p.pr.Draft = true
		}
	}
	return nil
}

func (m *memGitHub) Usage() api.Usage {
	return api.Usage{Requests: len(m.calls), Writes: m.writes, RateRemaining: -1}
}

func (m *memGitHub) RequestsLeft() int { return -1 }

func (m *memGitHub) RefuseWrite(context.Context, int) error { return nil }

// memRun sweeps m once with inputs, as the action parses them.
func memRun(t *testing.T, m *memGitHub, inputs map[string]string) sweep.Result {
	t.Helper()
	cfg, err := config.Parse(config.Source{
		Input: func(name string) (string, bool) { v, ok := inputs[name]; return v, ok },
		Env: func(name string) string {
			return map[string]string{"GITHUB_TOKEN": token, "GITHUB_REPOSITORY": "octo/repo"}[name]
		},
	})
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return sweep.Run(context.Background(), m, cfg, m.now, &nopLog{})
}

// writes are the calls that change the repository, in order.
func (m *memGitHub) writeCalls() []string {
	var out []string
	for _, c := range m.calls {
		if !strings.HasPrefix(c, "list ") && !strings.HasPrefix(c, "read ") && !strings.HasPrefix(c, "look ") && !strings.HasPrefix(c, "ask ") {
			out = append(out, c)
		}
	}
	return out
}

func TestMemMarksAnInactivePR(t *testing.T) {
	t.Parallel()
	m := newMem(t0)
	n := m.add(daysAgo(100))
	m.add(daysAgo(5)) // active: left alone
	res := memRun(t, m, nil)
	// Label first, then the notice: a stop in between leaves a labelled PR
	// the next run completes.
	want := []string{fmt.Sprintf("label #%d stale", n), fmt.Sprintf("comment #%d stale notice", n)}
	if got := m.writeCalls(); !slices.Equal(got, want) {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Stopped != nil || res.Writes != 2 {
		t.Errorf("stopped %v, %d writes counted; want no stop, 2", res.Stopped, res.Writes)
	}
}

func TestMemUnstalesOnAPersonsComment(t *testing.T) {
	t.Parallel()
	m := newMem(t0)
	n := m.add(daysAgo(120))
	m.mark(n, daysAgo(10))
	m.comment(n, "bob", daysAgo(2), "Still working on it.")
	memRun(t, m, nil)
	want := []string{fmt.Sprintf("unlabel #%d stale", n)}
	if got := m.writeCalls(); !slices.Equal(got, want) {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := m.prs[n]; !p.open || p.pr.HasLabel("stale") {
		t.Errorf("#%d open %v, labels %v: want open without the stale label", n, p.open, p.pr.Labels)
	}
}

func TestMemClosesAndDeletesTheBranch(t *testing.T) {
	t.Parallel()
	m := newMem(t0)
	n := m.add(daysAgo(150))
	m.mark(n, daysAgo(40)) // days-before-close 30: due
	memRun(t, m, map[string]string{"delete-branch": "true", "close-pr-message": "Closed as stale."})
	// The stale label stays on through the close until the branch is gone,
	// so a stop in between leaves a PR the next run's clean-up finishes.
	ref := m.prs[n].head.Ref
	want := []string{
		fmt.Sprintf("comment #%d closing notice", n),
		fmt.Sprintf("close #%d labels=stale", n),
		"delete branch " + ref,
		fmt.Sprintf("unlabel #%d stale", n),
	}
	if got := m.writeCalls(); !slices.Equal(got, want) {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := m.prs[n]; p.open || m.branches[ref] != "" || p.pr.HasLabel("stale") {
		t.Errorf("#%d open %v, branch kept %v, labels %v: want closed, branch deleted, no stale label", n, p.open, m.branches[ref] != "", p.pr.Labels)
	}
	if m.branches["main"] == "" {
		t.Error("the default branch was deleted")
	}
}

// TestMemReopensAPRClosedOnTheReviewersTurn: the closure audit's writes, in
// their order: our comment (its marker tells a later run the reopening is
// ours), the stale label off, then the reopening.
func TestMemReopensAPRClosedOnTheReviewersTurn(t *testing.T) {
	t.Parallel()
	m := newMem(t0)
	n := m.add(daysAgo(150))
	m.mark(n, daysAgo(40))
	p := m.prs[n]
	m.comment(n, m.self, daysAgo(10), notice.Body("Closed as stale.", notice.CloseMarker("")))
	p.timeline = append(p.timeline, lifecycle.Event{Kind: lifecycle.Closed, At: daysAgo(10), Actor: m.self, Bot: true})
	p.open, p.pr.Labels = false, []string{"closed-stale"} // our close swaps stale for close-pr-label
	memRun(t, m, map[string]string{"audit-closed-days": "30", "reopen-wrongly-closed": "true", "close-pr-label": "closed-stale"})
	want := []string{fmt.Sprintf("comment #%d reopen notice", n), fmt.Sprintf("unlabel #%d closed-stale", n), fmt.Sprintf("reopen #%d", n)}
	if got := m.writeCalls(); !slices.Equal(got, want) {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !p.open || len(p.pr.Labels) != 0 {
		t.Errorf("#%d open %v, labels %v: want open without close-pr-label", n, p.open, p.pr.Labels)
	}
}

func (m *memGitHub) Hold(int) func() { return func() {} }

// memGitHub keeps no issues: no test of it keeps a dashboard.
func (m *memGitHub) LabelledIssues(_ context.Context, label string) ([]api.Issue, error) {
	m.call("list issues labelled %s", label)
	return nil, nil
}

func (m *memGitHub) CreateIssue(_ context.Context, title, _ string, _ []string) (api.Issue, error) {
	m.write("create issue %q", title)
	return api.Issue{}, errors.New("memGitHub keeps no issues")
}

func (m *memGitHub) EditIssue(_ context.Context, n int, _ string, _ bool) error {
	m.write("edit issue #%d", n)
	return errors.New("memGitHub keeps no issues")
}
