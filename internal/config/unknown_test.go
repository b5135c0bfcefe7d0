package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// given is source with the names given as a workflow's with: keys.
func given(inputs map[string]string, names ...string) Source {
	src := source(inputs, nil)
	src.Given = func() []string { return names }
	return src
}

// TestParseRefusesMisspeltInputs: a name that is no input but near one
// (debug_only, as the runner passes it: lower-cased, underscore kept), and
// dry-run however written, are refused, naming the input meant and what it
// takes, rather than run with its default; a name near none, or nearest an
// issue-only input of actions/stale, is a warning.
func TestParseRefusesMisspeltInputs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		want string // the error; "" when a warning
	}{
		{"debug_only", "did you mean debug-only (true or false)? Refused rather than run as if debug-only were unset"},
		{"debug-onl", "did you mean debug-only (true or false)?"},
		{"days-befor-stale", "did you mean days-before-stale (a whole number of days, or -1 for never)?"},
		{"exempt-pr-label", "did you mean exempt-pr-labels (comma-separated values)?"},
		{"stale-clok", "did you mean stale-clock (inactivity or author-turn)?"},
		{"dry-run", "whose dry run is debug-only (true or false): refused rather than run writing; rename it debug-only"},
		{"dry_run", "whose dry run is debug-only"},
		{"dryrun", "whose dry run is debug-only"},
		{"zzzzzzzzzzzz", ""},
		{"stale-issue-labels", ""}, // nearest stale-issue-label, ignored anyway
		{"days-before-isue-stale", ""},
	} {
		c, err := Parse(given(nil, tt.name))
		var errs Errors
		if tt.want == "" {
			if err != nil || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `"`+tt.name+`" is not an input of stalepr and is ignored`) {
				t.Errorf("%s: %v, warnings %q; want one warning", tt.name, err, c.Warnings)
			}
			continue
		}
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Name != tt.name || !strings.Contains(errs[0].Msg, tt.want) {
			t.Errorf("%s: %v; want one error on it saying %q", tt.name, err, tt.want)
		}
	}
	// Every issue-only input of actions/stale, set, stays a warning, near
	// a pull request's input as it is.
	var names []string
	inputs := map[string]string{}
	for _, in := range Inputs {
		if in.Kind == Ignored {
			names = append(names, in.Name)
			inputs[in.Name] = "x"
		}
	}
	c, err := Parse(given(inputs, names...))
	if err != nil || len(c.Warnings) != len(names) {
		t.Errorf("the issue inputs: %v, %d warnings, want %d", err, len(c.Warnings), len(names))
	}
	// A misspelt input is refused together with the other bad inputs.
	var errs Errors
	_, err = Parse(given(map[string]string{"days-before-stale": "ninety"}, "days-before-stale", "debug_only"))
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Errorf("a bad value and a misspelt input: %v, want both", err)
	}
}

// TestParseConnectionRefusesMisspeltInputs: a fleet's run reads its
// repository's file before the other inputs; a misspelt one is refused
// before that read too.
func TestParseConnectionRefusesMisspeltInputs(t *testing.T) {
	t.Parallel()
	if _, err := ParseConnection(given(nil, "dry-run")); err == nil {
		t.Error("dry-run: ParseConnection accepted it")
	}
	if _, err := ParseConnection(given(nil, "zzzzzzzzzzzz", "stale-pr-message")); err != nil {
		t.Errorf("an unknown name near no input: %v", err)
	}
}

// TestSplitListFlowList: a list input in brackets is the YAML flow list
// people write ("[pinned, security]"), quoted items or not; a bracketed
// bare item is refused, as it may be a label of that name; a value that
// is no YAML list is split on commas, as actions/stale does.
func TestSplitListFlowList(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    string
		want []string
		err  string
	}{
		{v: "pinned, security", want: []string{"pinned", "security"}},
		{v: "[pinned, security]", want: []string{"pinned", "security"}},
		{v: ` [ "pinned", 'keep open', lifecycle/frozen ] `, want: []string{"pinned", "keep open", "lifecycle/frozen"}},
		{v: `["[WIP]"]`, want: []string{"[WIP]"}},
		{v: `["a,b", c]`, want: []string{"a,b", "c"}},
		{v: "[]", want: nil},
		{v: "[WIP], [bug]", want: []string{"[WIP]", "[bug]"}},
		{v: "[WIP]", err: `"[WIP]" may be a YAML list of the one value "WIP" or the value "[WIP]" itself: write WIP for the first, ["[WIP]"] for the second`},
		{v: "[a, [b]]", err: "holds a list or a map as an item"},
	} {
		got, err := SplitList(tt.v)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("SplitList(%q): %q, %v; want the error %q", tt.v, got, err, tt.err)
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("SplitList(%q): %q, %v; want %q", tt.v, got, err, tt.want)
		}
	}
	// Every list input reads it so.
	for _, in := range Inputs {
		if in.Kind != List || in.Name == inputQuietPeriods {
			continue
		}
		_, err := Parse(source(map[string]string{in.Name: "[alice]"}, nil))
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Name != in.Name {
			t.Errorf("%s: [alice]: %v, want one error on it", in.Name, err)
		}
	}
	c := mustParse(t, map[string]string{"exempt-pr-labels": "[pinned, security]", "quiet-periods": "[sat, sun]", "reviewers": "[alice, octo/core]"})
	if !slices.Equal(c.Policy.ExemptLabels, []string{"pinned", "security"}) || !slices.Equal(c.Policy.Reviewers, []string{"alice", "octo/core"}) ||
		!c.Policy.Quiet.Paused(time.Date(2024, 1, 6, 12, 0, 0, 0, time.UTC)) || c.Policy.Quiet.Paused(time.Date(2024, 1, 8, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("exempt-pr-labels %q, reviewers %q, quiet %v", c.Policy.ExemptLabels, c.Policy.Reviewers, c.Policy.Quiet)
	}
}
