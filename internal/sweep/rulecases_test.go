package sweep_test

// The rules' end-to-end cases as data (testdata/rules/<rule>/<case>.yaml,
// each with its expected .out), as actionlint keeps its testdata/err: a
// repository in the fake GitHub's scenario format, the inputs, one run
// over the real client, and what the run did to each PR in a stable text.
// A new rule's end-to-end cases are a folder of these files.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// ruleCase is a case file: the run's inputs, the accounts' permissions
// (the collaborator listing), the repository as the fake's scenario
// (internal/fakegithub/scenario.go), its dates in days before t0, and the
// PRs a maintainer closes while the run is under way: after its listing,
// as it reads afresh the PRs it is about to write to.
type ruleCase struct {
	Inputs          map[string]string `yaml:"inputs"`
	Permissions     map[string]string `yaml:"permissions"`
	Scenario        any               `yaml:"scenario"`
	ClosedDuringRun []int             `yaml:"closed_during_run"`
}

func TestRuleCases(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "rules", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lifecycle.Rules() {
		if !slices.ContainsFunc(files, func(f string) bool { return filepath.Base(filepath.Dir(f)) == string(r.Name) }) {
			t.Errorf("rule %s has no end-to-end case: add testdata/rules/%s/<case>.yaml and run with -update", r.Name, r.Name)
		}
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.ToSlash(file), ".yaml")
		t.Run(strings.TrimPrefix(name, "testdata/rules/"), func(t *testing.T) {
			t.Parallel()
			testenv.Golden(t, name+".out", runRuleCase(t, file))
		})
	}
}

// runRuleCase loads a case into a fake of its own, runs once at t0 and
// renders what the run did.
func runRuleCase(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c ruleCase
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	// The fake reads its scenario as JSON, strictly.
	sc, err := json.Marshal(c.Scenario)
	if err != nil {
		t.Fatalf("%s: scenario: %v", file, err)
	}
	fake, err := fakegithub.Load(bytes.NewReader(sc), t0)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	fake.SetToken(token)
	for login, role := range c.Permissions {
		fake.SetPermission(login, role)
	}
	w := serveWorld(t, fake)
	before, branches := fake.Issues(), fake.Branches()
	sort.Strings(branches)
	comments := map[int][]fakegithub.Comment{}
	for _, is := range before {
		comments[is.Number] = fake.Comments(is.Number)
	}
	cfg := w.config(c.Inputs)
	base := fake.Transport()
	if len(c.ClosedDuringRun) > 0 {
		base = &caseHook{next: base, hook: func() {
			for _, n := range c.ClosedDuringRun {
				fake.Close(n, maint, w.now(), "")
			}
		}}
	}
	res := sweep.Run(context.Background(), w.client(cfg, w.clock, base), cfg, w.now(), &nopLog{})
	var out strings.Builder
	if !res.OK() || res.Stopped != nil {
		fmt.Fprintf(&out, "# run not OK: stopped %v\n", res.Stopped)
	}
	for _, is := range before {
		out.WriteString(renderCasePR(w, res, is, comments[is.Number]))
	}
	for _, br := range branches {
		if !fake.HasBranch(br) {
			fmt.Fprintf(&out, "- branch %s\n", br)
		}
	}
	return out.String()
}

// caseHook runs hook once, before the run's first fresh read of the PRs
// it is about to write to (isNowRead), then sends every request on.
type caseHook struct {
	once sync.Once
	next http.RoundTripper
	hook func()
}

func (h *caseHook) RoundTrip(r *http.Request) (*http.Response, error) {
	if isNowRead(r) {
		h.once.Do(h.hook)
	}
	return h.next.RoundTrip(r)
}

var queueStates = map[sweep.QueueState]string{sweep.QueueFresh: "fresh", sweep.QueueStale: "stale",
	sweep.QueueRevived: "revived", sweep.QueueExempt: "exempt", sweep.QueueIntake: "intake"}

// renderCasePR is what the run did to one PR: its items (outcome, action,
// reason), the writes sent to it, the labels and comments they changed,
// its state after, and its place in the queue.
func renderCasePR(w *world, res sweep.Result, was fakegithub.Issue, comments []fakegithub.Comment) string {
	n := was.Number
	var b strings.Builder
	kind := ""
	if !was.IsPR {
		kind = " (an issue)"
	}
	fmt.Fprintf(&b, "#%d%s %q\n", n, kind, was.Title)
	reported := false
	for _, it := range res.Items {
		if it.Number == n {
			reported = true
			fmt.Fprintf(&b, "  run: %s (%s: %s)", it.Outcome, it.Action, it.Reason)
			if it.Err != "" {
				fmt.Fprintf(&b, " error %q", it.Err)
			}
			b.WriteString("\n")
		}
	}
	if !reported {
		b.WriteString("  run: not reported\n")
	}
	var sent []string
	for _, r := range w.fake.WriteRequests() {
		if sfPROf(r) == n {
			sent = append(sent, strings.Replace(r.Route, "/repos/{owner}/{repo}/", "", 1))
		}
	}
	if len(sent) > 0 {
		fmt.Fprintf(&b, "  sent: %s\n", strings.Join(sent, ", "))
	}
	now := w.fake.MustIssue(n)
	for _, l := range was.Labels {
		if !now.HasLabel(l) {
			fmt.Fprintf(&b, "  - label %s\n", l)
		}
	}
	for _, l := range now.Labels {
		if !was.HasLabel(l) {
			fmt.Fprintf(&b, "  + label %s\n", l)
		}
	}
	after := w.fake.Comments(n)
	for _, c := range comments {
		if !slices.ContainsFunc(after, func(a fakegithub.Comment) bool { return a.ID == c.ID }) {
			fmt.Fprintf(&b, "  - comment by %s\n", c.User.Login)
		}
	}
	for _, c := range after {
		if !slices.ContainsFunc(comments, func(a fakegithub.Comment) bool { return a.ID == c.ID }) {
			fmt.Fprintf(&b, "  + comment by %s:\n", c.User.Login)
			for _, line := range strings.Split(c.Body, "\n") {
				b.WriteString(strings.TrimRight("    | "+line, " ") + "\n")
			}
		}
	}
	labels := slices.Clone(now.Labels)
	sort.Strings(labels)
	state := now.State
	if now.Draft {
		state += ", draft"
	}
	fmt.Fprintf(&b, "  after: %s, labels [%s]\n", state, strings.Join(labels, ", "))
	if q := queued(res, n); q.Number == n {
		turn := ""
		if q.Turn != lifecycle.TurnUnknown {
			turn = fmt.Sprintf(", turn: %s%s", q.Turn, caseDate(" since", q.TurnSince))
		}
		fmt.Fprintf(&b, "  queue: %s%s%s%s\n", queueStates[q.State], caseDate(" since", q.Since), caseDate(" due", q.Due), turn)
	}
	return b.String()
}

// caseDate is " what date", "" for a zero time.
func caseDate(what string, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return what + " " + at.UTC().Format(time.RFC3339)
}
