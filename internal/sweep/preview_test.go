package sweep_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// sandboxWorld is a world over the sandbox's sample repository
// (testdata/sandbox at the module's root), at t0.
func sandboxWorld(t *testing.T) *world {
	t.Helper()
	fake, err := fakegithub.LoadFile(filepath.Join("..", "..", "testdata", "sandbox", "repo.json"), t0)
	if err != nil {
		t.Fatal(err)
	}
	fake.SetToken(token)
	return serveWorld(t, fake)
}

func sandboxInputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sandbox", "inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]string
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// cleanUpWorld holds a PR of every clean-up and a few to act on: stale PRs
// closed by a person, one closed by stalepr whose branch deletion a stopped
// run left, one reopened after a stale close, a duplicate of our notice, and
// PRs to mark, close and un-stale.
func cleanUpWorld(t *testing.T) *world {
	w := newWorld(t)
	for range 3 {
		n := w.markedPR(10)
		w.fake.Close(n, alice, daysAgo(3), "")
	}
	w.fake.AddBranch("old-work")
	ours := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
	w.fake.Comment(ours, action, daysAgo(1), "Closed as stale.\n\n<!-- stalepr:close -->")
	w.fake.Close(ours, action, daysAgo(1).Add(time.Second), "")
	reopened := w.pr(5)
	w.fake.Label(reopened, action, daysAgo(6), "closed-stale")
	dup := w.markedPR(5)
	at := daysAgo(5)
	w.fake.Comment(dup, action, at.Add(time.Minute), "This PR is stale.\n\n<!-- stalepr:stale marked="+at.Format(time.RFC3339)+
		" head="+w.fake.MustIssue(dup).HeadSHA+" -->")
	for _, d := range []float64{100, 120, 150} {
		w.pr(d)
	}
	w.markedPR(40)
	revived := w.markedPR(10)
	w.fake.Comment(revived, alice, daysAgo(2), "still on it")
	return w
}

// outcomesOf is each PR's outcomes in a result, for comparing two runs.
func outcomesOf(r sweep.Result) map[int][]string {
	out := map[int][]string{}
	for _, it := range r.Items {
		out[it.Number] = append(out[it.Number], fmt.Sprintf("%s (%s)", it.Outcome, it.Reason))
	}
	for _, list := range out {
		sort.Strings(list)
	}
	return out
}

// TestDryRunPreviewsTheRealRun: on the same repository
// and inputs, a dry run reports the outcomes the real run reaches, PR by PR,
// and stops where it stops: it counts the requests the real run would send
// (its reads, and the writes it refuses) against operations-per-run. Its
// requests and the writes it refused add up to the real run's requests,
// and it sends no write.
func TestDryRunPreviewsTheRealRun(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	states := previewStates()
	inputSets := previewInputSets(sandboxInputs(t))
	pair := 0
	for _, stateName := range slices.Sorted(maps.Keys(states)) {
		state := states[stateName]
		for _, inputName := range slices.Sorted(maps.Keys(inputSets)) {
			inputs := inputSets[inputName]
			for _, budget := range previewBudgets(pair, stateName, inputName) {
				name := fmt.Sprintf("%s/%s/budget %d", stateName, inputName, budget)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					in := map[string]string{"operations-per-run": fmt.Sprint(budget)}
					for k, v := range inputs {
						in[k] = v
					}
					realWorld := state(t)
					real := realWorld.run(in)
					in["debug-only"] = "true"
					dryWorld := state(t)
					dry := dryWorld.run(in)

					if got := dryWorld.fake.Writes(); got != 0 {
						t.Fatalf("the dry run sent %d writes", got)
					}
					checkDryMatchesReal(t, dry, real)
					if budget == 20 && isPreviewBudgetCase(stateName, inputName) && real.Stopped != nil && !api.IsStop(real.Stopped) {
						t.Errorf("the real run did not stop on its budget: %v", real.Stopped)
					}
				})
			}
			pair++
		}
	}
}

// previewStates are the repositories the dry run is compared on.
func previewStates() map[string]func(*testing.T) *world {
	return map[string]func(*testing.T) *world{
		"sandbox":   sandboxWorld,
		"synthetic": func(t *testing.T) *world { return syntheticWorld(t, 240) },
		"clean-ups": cleanUpWorld,
		"identity after a post": func(t *testing.T) *world {
			// No stale PR open: the first marker the run reads is in the
			// closed PR's timeline, after its marks posted their notices.
			w := newWorld(t)
			for _, d := range []float64{100, 120, 150, 200} {
				w.pr(d)
			}
			n := w.markedPR(10)
			w.fake.Close(n, alice, daysAgo(3), "")
			return w
		},
	}
}

// previewInputSets are the input sets the dry run is compared with: the
// sandbox's, with a close label and no write pace, plus the extras of each.
func previewInputSets(base map[string]string) map[string]map[string]string {
	with := func(extra map[string]string) map[string]string {
		in := map[string]string{"write-interval": "0s", "close-pr-label": "closed-stale"}
		for k, v := range base {
			in[k] = v
		}
		for k, v := range extra {
			in[k] = v
		}
		return in
	}
	return map[string]map[string]string{
		"sandbox inputs": with(nil),
		"unstale labels and reading templates": with(map[string]string{
			"labels-to-add-when-unstale": "revived", "stale-pr-message": "Stale; {{reviewers}}",
			"close-pr-message": "Closed after {{days-inactive}} days"}),
		"no branch deletion": with(map[string]string{"delete-branch": "false"}),
	}
}

// previewBudgets are the budgets the pair-th state and input set are cut
// at. Every state with every input set, each cut at every budget: 72 runs
// of two sweeps. -short keeps every state with every input set, each at
// one budget, the budgets taken in turn so that each still cuts some state
// (and the sandbox case the budget-20 check needs): 13 of the 72. Without
// -short (CI) all of them run.
func previewBudgets(pair int, stateName, inputName string) []int {
	budgets := []int{9, 16, 20, 33, 80, 1000}
	if !testing.Short() {
		return budgets
	}
	kept := []int{budgets[pair%len(budgets)]}
	if isPreviewBudgetCase(stateName, inputName) && kept[0] != 20 {
		kept = append(kept, 20)
	}
	slices.Sort(kept)
	return kept
}

// isPreviewBudgetCase reports whether the state and input set are the
// sandbox's own, whose real run at budget 20 must stop on its budget.
func isPreviewBudgetCase(stateName, inputName string) bool {
	return stateName == "sandbox" && inputName == "sandbox inputs"
}

// checkDryMatchesReal checks that the dry run reached the real run's
// outcomes, PR by PR, counted its requests, and stopped where it stopped.
func checkDryMatchesReal(t *testing.T, dry, real sweep.Result) {
	t.Helper()
	if got, want := outcomesOf(dry), outcomesOf(real); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes differ:\ndry  %v\nreal %v\n(dry %s, real %s)", got, want, report.Counts(dry), report.Counts(real))
	}
	if got := dry.Requests + dry.WouldSend; got != real.Requests {
		t.Errorf("the dry run sent %d requests and refused %d: %d in all, the real run sent %d", dry.Requests, dry.WouldSend, got, real.Requests)
	}
	if dry.Left != real.Left || dry.Unlisted != real.Unlisted || report.StopReason(dry.Stopped) != report.StopReason(real.Stopped) {
		t.Errorf("the dry run stopped (%v) with %d left (unlisted %v), the real run (%v) with %d (unlisted %v)",
			dry.Stopped, dry.Left, dry.Unlisted, real.Stopped, real.Left, real.Unlisted)
	}
}
