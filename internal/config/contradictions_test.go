package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestContradictoryInputs: inputs that defeat each other are refused before
// any request, each error naming both inputs.
func TestContradictoryInputs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		inputs map[string]string
		want   []string // the error messages, in table order
	}{
		{"stale label exempt", map[string]string{"exempt-pr-labels": "pinned, STALE"},
			[]string{`input "exempt-pr-labels": holds "STALE", the stale-pr-label: a pull request marked stale would become exempt and never be closed`}},
		{"custom stale label exempt", map[string]string{"stale-pr-label": "lifecycle/stale", "exempt-pr-labels": "lifecycle/stale"},
			[]string{`input "exempt-pr-labels": holds "lifecycle/stale", the stale-pr-label: a pull request marked stale would become exempt and never be closed`}},
		{"close label is the stale label", map[string]string{"close-pr-label": "Stale"},
			[]string{`input "close-pr-label": is "Stale", the same label as stale-pr-label: closed pull requests could not be told from stale open ones; leave close-pr-label empty or choose another label`}},
		{"only-labels and exempt", map[string]string{"only-labels": "needs-review", "exempt-pr-labels": "Needs-Review"},
			[]string{`input "only-labels": holds "needs-review", which exempt-pr-labels also holds: every pull request it selects would be exempt; remove it from one of the two`}},
		{"only-pr-labels and exempt", map[string]string{"only-labels": "a", "only-pr-labels": "b", "exempt-pr-labels": "b"},
			[]string{`input "only-pr-labels": holds "b", which exempt-pr-labels also holds: every pull request it selects would be exempt; remove it from one of the two`}},
		{"any-of-labels and exempt", map[string]string{"any-of-labels": "x, y", "exempt-pr-labels": "y"},
			[]string{`input "any-of-labels": holds "y", which exempt-pr-labels also holds: pull requests it selects by that label would be exempt; remove it from one of the two`}},
		{"any-of-pr-labels and exempt", map[string]string{"any-of-pr-labels": "y", "exempt-pr-labels": "y"},
			[]string{`input "any-of-pr-labels": holds "y", which exempt-pr-labels also holds: pull requests it selects by that label would be exempt; remove it from one of the two`}},
		{"unstale adds the stale label", map[string]string{"labels-to-add-when-unstale": "triage,stale"},
			[]string{`input "labels-to-add-when-unstale": holds "stale", the stale-pr-label, which would undo marking or unmarking`}},
		{"stale removes the stale label", map[string]string{"labels-to-remove-when-stale": "Stale"},
			[]string{`input "labels-to-remove-when-stale": holds "Stale", the stale-pr-label, which would undo marking or unmarking`}},
		{"intake accepted labels with the clock off", map[string]string{"intake-accepted-labels": "accepted"},
			[]string{`input "intake-accepted-labels": is set, but days-before-intake-close is -1 (off), so nothing reads it; set days-before-intake-close, or remove it`}},
		{"intake close in the run that tells", map[string]string{"days-before-intake-close": "0"},
			[]string{`input "days-before-intake-close": is 0: a pull request would be closed in the run that tells its author, with no time to link an accepted issue; use 1 or more, or -1 for off`}},
		{"intake without its notice", map[string]string{"days-before-intake-close": "7", "intake-message": ""},
			[]string{`input "intake-message": is empty, but the intake clock closes only pull requests it told first; say how an issue gets accepted, or set days-before-intake-close to -1`}},
		{"intake accepts the stale label", map[string]string{"days-before-intake-close": "7", "intake-accepted-labels": "triaged, Stale"},
			[]string{`input "intake-accepted-labels": holds "Stale", the stale-pr-label: an issue stalepr's stale label is on was not accepted by anyone`}},
		{"comma in the stale label", map[string]string{"stale-pr-label": "stale, really"},
			[]string{`input "stale-pr-label": "stale, really" holds a comma, which GitHub's label filter cannot search for; choose a label without one`}},
		{"all at once, with another error", map[string]string{
			"days-before-stale": "0.5", "close-pr-label": "stale", "exempt-pr-labels": "stale,keep", "only-labels": "keep",
		}, []string{
			`input "days-before-stale": want a whole number of days (or -1 for never), got "0.5"`,
			`input "close-pr-label": is "stale", the same label as stale-pr-label: closed pull requests could not be told from stale open ones; leave close-pr-label empty or choose another label`,
			`input "exempt-pr-labels": holds "stale", the stale-pr-label: a pull request marked stale would become exempt and never be closed`,
			`input "only-labels": holds "keep", which exempt-pr-labels also holds: every pull request it selects would be exempt; remove it from one of the two`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(source(tt.inputs, nil))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("err = %v, want Errors", err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestCompatibleLabelsAreAccepted: overlaps that are not contradictions.
func TestCompatibleLabelsAreAccepted(t *testing.T) {
	t.Parallel()
	for _, inputs := range []map[string]string{
		{"close-pr-label": "closed-stale", "exempt-pr-labels": "pinned", "only-labels": "bug", "any-of-labels": "a,b"},
		{"labels-to-remove-when-unstale": "stale"},                           // removing it again is harmless
		{"only-labels": "a", "only-pr-labels": "b", "exempt-pr-labels": "a"}, // only-pr-labels replaces only-labels
		{"stale-pr-label": "lifecycle/stale", "exempt-pr-labels": "stale"},
	} {
		if _, err := Parse(source(inputs, nil)); err != nil {
			t.Errorf("Parse(%v): %v", inputs, err)
		}
	}
}

func TestAPIURLCredentialsNeverQuoted(t *testing.T) {
	t.Parallel()
	for _, api := range []string{
		"https://octo:hunter2@ghe.example.com/api/v3",
		"https://ghp_tok3n@ghe.example.com/api/v3",
		"https://octo:hun%zzter2@ghe.example.com/api/v3", // does not parse
	} {
		_, err := Parse(source(nil, map[string]string{EnvRepository: "o/r", EnvToken: "t", EnvAPIURL: api}))
		if err == nil {
			t.Fatalf("GITHUB_API_URL %q accepted", api)
		}
		for _, secret := range []string{"octo", "hunter2", "hun%zzter2", "ghp_tok3n"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%q: error %q shows %q", api, err, secret)
			}
		}
		if !strings.Contains(err.Error(), `"https://***@ghe.example.com/api/v3"`) {
			t.Errorf("%q: error %q does not show the redacted URL", api, err)
		}
	}
}
