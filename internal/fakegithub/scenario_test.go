package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"
)

// consistent checks that every item's updated_at is its latest activity.
func consistent(t *testing.T, s *Server) {
	t.Helper()
	for _, is := range s.Issues() {
		latest := is.CreatedAt
		for _, it := range s.Timeline(is.Number) {
			if it.At.After(latest) {
				latest = it.At
			}
			if it.At.Before(is.CreatedAt) {
				t.Errorf("#%d: %s at %v before creation %v", is.Number, it.Type, it.At, is.CreatedAt)
			}
		}
		if is.UpdatedAt.Before(latest) {
			t.Errorf("#%d: updated_at %v before its latest activity %v", is.Number, is.UpdatedAt, latest)
		}
	}
}

var markerRE = regexp.MustCompile(`<!-- stalepr:stale marked=(\S+)(?: head=[0-9a-f]+)? -->$`)

func TestSandboxScenario(t *testing.T) {
	t.Parallel()
	now := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC) // any date: the file is relative
	s, err := LoadFile("../../testdata/sandbox/repo.json", now)
	if err != nil {
		t.Fatal(err)
	}
	if s.FullName() != "octo-org/widgets" || s.Clock().Now() != now || s.numIssues() != 31 {
		t.Fatalf("%s %v %d", s.FullName(), s.Clock().Now(), s.numIssues())
	}
	consistent(t, s)
	day := 24 * time.Hour
	me := s.Identity()

	// #16: marked stale 40 days ago, untouched: updated_at is the marking.
	is := s.MustIssue(16)
	if !is.HasLabel("stale") || !is.UpdatedAt.Equal(now.Add(-40*day)) {
		t.Errorf("#16 %+v", is)
	}
	cs := s.Comments(16)
	notice := cs[len(cs)-1]
	m := markerRE.FindStringSubmatch(notice.Body)
	if notice.User != me || m == nil || m[1] != now.Add(-40*day).Format(time.RFC3339) {
		t.Errorf("#16 notice %+v", notice)
	}
	var labeled Event
	for _, e := range s.Events(16) {
		if e.Type == EventLabeled {
			labeled = e
		}
	}
	if labeled.Label != "stale" || labeled.Actor != me || labeled.At.Format(time.RFC3339) != m[1] {
		t.Errorf("#16 labeled %+v", labeled)
	}
	// #18: a person commented after the notice.
	if is := s.MustIssue(18); !is.UpdatedAt.Equal(now.Add(-5 * day)) {
		t.Errorf("#18 updated %v", is.UpdatedAt)
	}
	// #20: a bot commented after the notice.
	if c := s.Comments(20); c[len(c)-1].User.Type != "Bot" {
		t.Errorf("#20 %+v", c)
	}
	// #22: closed as stale, then reopened by a person.
	is = s.MustIssue(22)
	if is.State != "open" || is.HasLabel("stale") {
		t.Errorf("#22 %+v", is)
	}
	var types []string
	for _, it := range s.Timeline(22) {
		types = append(types, it.Type)
	}
	if strings.Join(types, ",") != "commented,labeled,commented,closed,reopened,unlabeled,commented" {
		t.Errorf("#22 timeline %v", types)
	}
	// Exemptions and shapes.
	if !s.MustIssue(12).HasLabel("pinned") || s.MustIssue(13).Milestone != "v2.0" || !s.MustIssue(15).Draft ||
		s.MustIssue(10).HeadRepo != "ivan/widgets" || !s.MustIssue(11).HeadRepoDeleted || s.MustIssue(29).IsPR {
		t.Error("exemption fixtures lost")
	}
	if !s.HasBranch("tweak-ci") || s.HasBranch("patch-1") {
		t.Errorf("branches %v", s.Branches())
	}
	if is := s.MustIssue(28); is.State != "closed" || is.MergedAt.IsZero() {
		t.Errorf("#28 %+v", is)
	}
	// Checks on the head the events leave: #8's required test failing,
	// #3's failure re-run green (listed, the rollup passing); the names
	// marked required are the base branch's.
	if got := s.db.rollupState(s.db.byNum[8].HeadSHA); got != "FAILURE" || len(s.db.checks[s.db.byNum[8].HeadSHA]) != 3 {
		t.Errorf("#8 rollup %s of %d checks, want FAILURE of 3", got, len(s.db.checks[s.db.byNum[8].HeadSHA]))
	}
	if got := s.db.rollupState(s.db.byNum[3].HeadSHA); got != "SUCCESS" || len(s.db.checks[s.db.byNum[3].HeadSHA]) != 3 {
		t.Errorf("#3 rollup %s of %d checks, want SUCCESS of 3 (the failure and its green re-run)", got, len(s.db.checks[s.db.byNum[3].HeadSHA]))
	}
	if fmt.Sprint(s.db.requiredChecks) != "[build test]" {
		t.Errorf("required checks %v, want [build test]", s.db.requiredChecks)
	}
	// Assignment events: #9 assigned to dave by alice; #7 assigned to dave
	// and unassigned by him.
	var assignments []string
	for _, n := range []int{7, 9} {
		for _, e := range s.Events(n) {
			if e.Type == EventAssigned || e.Type == EventUnassigned {
				assignments = append(assignments, fmt.Sprintf("#%d %s %s by %s", n, e.Type, e.Assignee.Login, e.Actor.Login))
			}
		}
	}
	if got := strings.Join(assignments, ", "); got != "#7 assigned dave by bob, #7 unassigned dave by dave, #9 assigned dave by alice" ||
		len(s.MustIssue(7).Assignees) != 0 || fmt.Sprint(s.MustIssue(9).Assignees) != "[dave]" {
		t.Errorf("assignments %s; #7 assignees %v, #9 %v", got, s.MustIssue(7).Assignees, s.MustIssue(9).Assignees)
	}

	// Served over HTTP with its dates.
	ts := httptest.NewServer(s)
	defer ts.Close()
	got := do(t, ts, "GET", repoPath+"/issues?labels=stale&sort=updated&direction=asc&per_page=100", "")
	if n := numbers(t, got); fmt.Sprint(n) != "[31 17 16 23 20 18 19]" { // issues too, oldest update first
		t.Errorf("stale listing %v", n)
	}
}

// TestScenarioKeepsHostileTitles: a scenario's titles reach the API as
// written, workflow commands, pipes, line breaks and HTML included, so the
// tests that feed them to a run (the root package's TestGoldenHostileTitles)
// test the run, not the loader.
func TestScenarioKeepsHostileTitles(t *testing.T) {
	t.Parallel()
	titles := []string{"::warning::x ::set-output name=x::y", "a | b\nc", "<b>B</b> & <script>alert(1)</script>"}
	var items []string
	for i, title := range titles {
		b, err := json.Marshal(title)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, fmt.Sprintf(`{"number":%d,"title":%s,"user":"u","created_days_ago":5}`, i+1, b))
	}
	s, err := Load(strings.NewReader(`{"owner":"o","repo":"r","items":[`+strings.Join(items, ",")+`]}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	for i, title := range titles {
		var pr struct{ Title string }
		do(t, ts, "GET", fmt.Sprintf("/repos/o/r/pulls/%d", i+1), "").json(t, &pr)
		if pr.Title != title {
			t.Errorf("#%d is served with the title %q, want %q", i+1, pr.Title, title)
		}
	}
}

func TestScenarioErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ json, want string }{
		{`{"items":[{"title":"x","bogus":1}]}`, "unknown field"},
		{`{"items":[{"number":3,"title":"x","created_days_ago":5,"events":[{"type":"poked","days_ago":1}]}]}`, `item #3: event 1 (poked): unknown type "poked"`},
		{`{"items":[{"title":"x","created_days_ago":5,"events":[{"type":"commented","days_ago":9}]}]}`, "before the item was created"},
		{`{"items":[{"title":"x","created_days_ago":5,"updated_days_ago":9}]}`, "before created_days_ago"},
		{`{"items":[{"number":4,"title":"x","created_days_ago":5,"events":[{"type":"unassigned","days_ago":1,"assignee":"dave"}]}]}`, "item #4: event 1 (unassigned): dave is not assigned"},
		{`{"items":[{"title":"x","created_days_ago":5,"events":[{"type":"assigned","days_ago":1}]}]}`, "assignee is required"},
		{`{"items":[{"number":4,"title":"x","created_days_ago":5,"checks":[{"name":"test","conclusion":"failure"}]}]}`, "item #4: check 1 (test): completed_days_ago is required"},
		{`{"items":[{"title":"x","created_days_ago":5,"checks":[{"name":"test","completed_days_ago":1}]}]}`, "conclusion is required"},
		{`{"items":[{"title":"x","created_days_ago":5,"checks":[{"name":"test","status":"in_progress","conclusion":"failure"}]}]}`, "a check run in_progress has no conclusion"},
		{`{"items":[{"title":"x","created_days_ago":5,"checks":[{"name":"ci","state":"error","conclusion":"failure","completed_days_ago":1}]}]}`, "state makes a commit status"},
		{`{"items":[{"title":"x","created_days_ago":5,"checks":[{"name":"test","conclusion":"success","completed_days_ago":9}]}]}`, "before the pull request was created"},
		{`{"items":[{"title":"x","issue":true,"created_days_ago":5,"checks":[{"name":"test","conclusion":"success","completed_days_ago":1}]}]}`, "an issue has no head commit"},
		{`{"items":[{"title":"x","created_days_ago":5,"checks":[{"conclusion":"success","completed_days_ago":1}]}]}`, "name is required"},
	} {
		_, err := Load(strings.NewReader(tc.json), t0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
}

// TestSynthetic checks the shape of a synthetic repository. 5,000 items
// hold the proportions to within a few per cent; how fast 50,000 build is
// BenchmarkSynthetic50000's business, not a test's.
func TestSynthetic(t *testing.T) {
	t.Parallel()
	const n = 5000
	s := Synthetic(n, 42, t0)
	if s.numIssues() != n {
		t.Fatal(s.numIssues())
	}
	var prs, issues, stale, drafts, pinned, recent, tail int
	for _, is := range s.Issues() {
		if is.IsPR {
			prs++
		} else {
			issues++
		}
		if is.HasLabel("stale") {
			stale++
		}
		if is.Draft {
			drafts++
		}
		if is.HasLabel("pinned") {
			pinned++
		}
		switch age := t0.Sub(is.UpdatedAt); {
		case age < 90*24*time.Hour:
			recent++
		case !is.HasLabel("stale"):
			tail++
		}
	}
	pct := func(k int) float64 { return float64(k) * 100 / n }
	for name, got := range map[string][2]float64{
		"issues": {pct(issues), 8}, "stale": {pct(stale), 5}, "drafts": {pct(drafts), 4.6},
		"pinned": {pct(pinned), 2}, "tail": {pct(tail), 15},
	} {
		if got[0] < got[1]*0.7 || got[0] > got[1]*1.3 {
			t.Errorf("%s: %.1f%%, want about %.1f%%", name, got[0], got[1])
		}
	}
	if pct(recent) < 70 {
		t.Errorf("recent: %.1f%%", pct(recent))
	}
	consistent(t, s)
	// Reproducible.
	a, b := Synthetic(500, 9, t0).Issues(), Synthetic(500, 9, t0).Issues()
	for i := range a {
		if a[i].Title != b[i].Title || !a[i].UpdatedAt.Equal(b[i].UpdatedAt) {
			t.Fatalf("seed not reproducible at #%d", a[i].Number)
		}
	}
}

func TestPageThrough50000(t *testing.T) {
	testenv.Slow(t)
	t.Parallel()
	s := Synthetic(50000, 1, t0)
	ts := httptest.NewServer(s)
	defer ts.Close()
	next := ts.URL + repoPath + "/issues?state=open&sort=updated&direction=asc&per_page=100"
	total := 0
	for next != "" {
		got := doAuth(t, ts, "GET", strings.TrimPrefix(next, ts.URL), "", "")
		total += len(numbers(t, got))
		_, urls := links(got.header.Get("Link"))
		next = urls["next"]
	}
	if total != s.numIssues() {
		t.Errorf("paged %d of %d", total, s.numIssues())
	}
}

func BenchmarkSynthetic50000(b *testing.B) {
	for b.Loop() {
		Synthetic(50000, 1, t0)
	}
}

func BenchmarkListIssuesPage(b *testing.B) {
	s := Synthetic(50000, 1, t0)
	ts := httptest.NewServer(s)
	defer ts.Close()
	url := ts.URL + repoPath + "/issues?sort=updated&direction=asc&per_page=100&page=250"
	for b.Loop() {
		res, err := ts.Client().Get(url)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
	}
}

// TestScenarioChecks: a scenario's check is a check run (completed by
// default, or under way without a date) or, with state, a commit status,
// on the head commit the item's events leave.
func TestScenarioChecks(t *testing.T) {
	t.Parallel()
	s, err := Load(strings.NewReader(`{"items":[{"number":1,"title":"x","created_days_ago":5,
		"events":[{"type":"committed","days_ago":2}],
		"checks":[{"name":"ci/jenkins","state":"ERROR","required":true,"completed_days_ago":1},{"name":"deploy","status":"queued"}]}]}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	cs := s.db.checks[s.db.byNum[1].HeadSHA]
	if len(cs) != 2 || s.db.rollupState(s.db.byNum[1].HeadSHA) != "FAILURE" || fmt.Sprint(s.db.requiredChecks) != "[ci/jenkins]" {
		t.Fatalf("%d checks on the head, rollup %s, required %v", len(cs), s.db.rollupState(s.db.byNum[1].HeadSHA), s.db.requiredChecks)
	}
	if c := cs[0]; c.typename() != "StatusContext" || c.Conclusion != "ERROR" || !c.At.Equal(t0.Add(-24*time.Hour)) {
		t.Errorf("commit status %+v", c.Check)
	}
	if c := cs[1]; c.typename() != "CheckRun" || c.Status != "QUEUED" || !c.At.IsZero() || c.Conclusion != "" {
		t.Errorf("queued check run %+v", c.Check)
	}
}
