package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

const testToken = "ghs_s3cr3tT0ken"

// source builds a Source from maps; env defaults to a repository and a token.
func source(inputs map[string]string, env map[string]string) Source {
	if env == nil {
		env = map[string]string{EnvRepository: "octo/hello", EnvToken: testToken}
	}
	return Source{
		Input: func(name string) (string, bool) { v, ok := inputs[name]; return v, ok },
		Env:   func(name string) string { return env[name] },
	}
}

func mustParse(t *testing.T, inputs map[string]string) Config {
	t.Helper()
	c, err := Parse(source(inputs, nil))
	if err != nil {
		t.Fatalf("Parse(%v): %v", inputs, err)
	}
	return c
}

func TestParseDefaults(t *testing.T) {
	t.Parallel()
	want := Config{
		Token: testToken, Owner: "octo", Repo: "hello",
		Policy: lifecycle.Policy{
			DaysBeforeStale:        90,
			DaysBeforeClose:        30,
			StaleLabel:             "stale",
			RemoveStaleWhenUpdated: true,
			ActivityFrom:           lifecycle.Anyone,
			CloseAction:            lifecycle.CloseClosed,
			StaleClock:             lifecycle.ClockInactivity,
			DaysBeforeReviewNudge:  -1,
			DaysBeforeEscalation:   -1,
			ConflictLabel:          "merge-conflict",
			Intake:                 lifecycle.Intake{DaysBeforeClose: -1},
			ReopenCommand:          "/reopen",
		},
		IntakeMessage:      lifecycle.DefaultIntake,
		IntakeCloseMessage: lifecycle.DefaultIntakeClose,
		StaleMessage:       lifecycle.DefaultStale,
		CloseMessage:       lifecycle.DefaultClose,
		NudgeMessage:       notice.DefaultNudge,
		ReopenMessage:      notice.DefaultReopen,
		OperationsPerRun:   500,
		NudgesPerRun:       20,
		EscalationsPerRun:  5,
		RateLimitReserve:   100,
		WriteInterval:      time.Second,
		RunTimeout:         30 * time.Minute,
	}
	for name, inputs := range map[string]map[string]string{
		"nothing set": nil,
		// The runner passes every declared input, with action.yml's default.
		"action.yml defaults": actionDefaults(),
		"all blank":           allBlankExceptMessages(),
	} {
		t.Run(name, func(t *testing.T) {
			got := mustParse(t, inputs)
			want := want
			if name == "all blank" {
				// reopen-command and conflict-label set empty are off, as
				// a message set empty posts nothing.
				want.Policy.ReopenCommand = ""
				want.Policy.ConflictLabel = ""
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// actionDefaults is what the runner passes when a workflow sets nothing.
func actionDefaults() map[string]string {
	m := map[string]string{}
	for _, in := range Inputs {
		m[in.Name] = in.Default
	}
	m[InputRepoToken] = testToken
	m[InputRepository] = "octo/hello"
	return m
}

func allBlankExceptMessages() map[string]string {
	m := map[string]string{}
	for _, in := range Inputs {
		if in.Kind != Message {
			m[in.Name] = "  "
		}
	}
	return m
}

func TestParseValues(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			panic(err)
		}
		return t
	}
	tests := []struct {
		name   string
		inputs map[string]string
		env    map[string]string
		check  func(c Config) any // returns the value to compare
		want   any
	}{
		{"exempt-pr-authors", map[string]string{"exempt-pr-authors": "*[bot], Alice ,,"},
			nil, func(c Config) any { return c.Policy.ExemptAuthors }, []string{"*[bot]", "Alice", "Alice[bot]"}}, // a name matches its bot account too
		{"bools and close-action in any case", map[string]string{"exempt-approved": "TRUE", "only-draft-pr": "true", "close-action": "CLOSE"},
			nil, func(c Config) any {
				return fmt.Sprintf("%v %v %v", c.Policy.ExemptApproved, c.Policy.OnlyDraft, c.Policy.CloseAction)
			}, "true true close"},
		{"close-action draft", map[string]string{"close-action": " draft ", "exempt-draft-pr": "true"},
			nil, func(c Config) any { return c.Policy.CloseAction }, lifecycle.CloseToDraft},
		{"days-before-stale", map[string]string{"days-before-stale": " 14 "},
			nil, func(c Config) any { return c.Policy.DaysBeforeStale }, 14},
		{"days -1 means never", map[string]string{"days-before-stale": "-1", "days-before-close": "-1"},
			nil, func(c Config) any { return [2]int{c.Policy.DaysBeforeStale, c.Policy.DaysBeforeClose} }, [2]int{-1, -1}},
		{"days 0", map[string]string{"days-before-close": "0"},
			nil, func(c Config) any { return c.Policy.DaysBeforeClose }, 0},
		{"pr override wins", map[string]string{"days-before-stale": "10", "days-before-pr-stale": "20", "days-before-close": "5", "days-before-pr-close": "-1"},
			nil, func(c Config) any { return [2]int{c.Policy.DaysBeforeStale, c.Policy.DaysBeforeClose} }, [2]int{20, -1}},
		{"empty override is unset", map[string]string{"days-before-stale": "10", "days-before-pr-stale": ""},
			nil, func(c Config) any { return c.Policy.DaysBeforeStale }, 10},
		{"bool override false wins over generic true", map[string]string{"remove-stale-when-updated": "true", "remove-pr-stale-when-updated": "FALSE"},
			nil, func(c Config) any { return c.Policy.RemoveStaleWhenUpdated }, false},
		{"bool override true", map[string]string{"exempt-all-pr-milestones": "True", "exempt-all-pr-assignees": "true", "ignore-pr-updates": "TRUE"},
			nil, func(c Config) any {
				return [3]bool{c.Policy.ExemptAllMilestones, c.Policy.ExemptAllAssignees, c.Policy.IgnoreUpdates}
			}, [3]bool{true, true, true}},
		{"generic bools", map[string]string{"exempt-all-milestones": "true", "exempt-all-assignees": "true", "ignore-updates": "true", "exempt-draft-pr": "true",
			"include-only-assigned": "true", "exempt-awaiting-review": "true", "delete-branch": "true", "debug-only": "true"},
			nil, func(c Config) any {
				p := c.Policy
				return []bool{p.ExemptAllMilestones, p.ExemptAllAssignees, p.IgnoreUpdates, p.ExemptDraft, p.IncludeOnlyAssigned,
					p.ExemptAwaitingReview, c.DeleteBranch, c.DebugOnly}
			}, []bool{true, true, true, true, true, true, true, true}},
		{"lists trimmed, empties dropped, spaces and slashes kept", map[string]string{"exempt-pr-labels": " keep open , ,lifecycle/frozen,,  "},
			nil, func(c Config) any { return c.Policy.ExemptLabels }, []string{"keep open", "lifecycle/frozen"}},
		{"list on lines", map[string]string{"labels-to-add-when-unstale": "a\nb, c\n"},
			nil, func(c Config) any { return c.LabelsToAddWhenUnstale }, []string{"a", "b", "c"}},
		{"only-pr-labels over only-labels", map[string]string{"only-labels": "x", "only-pr-labels": "y,z"},
			nil, func(c Config) any { return c.Policy.OnlyLabels }, []string{"y", "z"}},
		{"any-of-labels", map[string]string{"any-of-labels": "x,y"},
			nil, func(c Config) any { return c.Policy.AnyOfLabels }, []string{"x", "y"}},
		{"any-of-pr-labels over any-of-labels", map[string]string{"any-of-labels": "x", "any-of-pr-labels": "y"},
			nil, func(c Config) any { return c.Policy.AnyOfLabels }, []string{"y"}},
		{"exempt-milestones", map[string]string{"exempt-milestones": "v1, v2"},
			nil, func(c Config) any { return c.Policy.ExemptMilestones }, []string{"v1", "v2"}},
		{"exempt-pr-milestones over exempt-milestones", map[string]string{"exempt-milestones": "v1", "exempt-pr-milestones": "v3"},
			nil, func(c Config) any { return c.Policy.ExemptMilestones }, []string{"v3"}},
		{"exempt-pr-assignees over exempt-assignees", map[string]string{"exempt-assignees": "a", "exempt-pr-assignees": "b,c"},
			nil, func(c Config) any { return c.Policy.ExemptAssignees }, []string{"b", "c"}},
		{"labels", map[string]string{"stale-pr-label": "lifecycle/stale", "close-pr-label": "closed: stale", "labels-to-remove-when-stale": "needs review", "labels-to-remove-when-unstale": "x"},
			nil, func(c Config) any {
				return []any{c.Policy.StaleLabel, c.CloseLabel, c.LabelsToRemoveWhenStale, c.LabelsToRemoveWhenUnstale}
			}, []any{"lifecycle/stale", "closed: stale", []string{"needs review"}, []string{"x"}}},
		{"messages", map[string]string{"stale-pr-message": "Stale since {{days-inactive}} days, @{{ author }}", "close-pr-message": "bye"},
			nil, func(c Config) any { return [2]string{c.StaleMessage, c.CloseMessage} }, [2]string{"Stale since {{days-inactive}} days, @{{ author }}", "bye"}},
		{"present but empty message: no comment", map[string]string{"stale-pr-message": "", "close-pr-message": " \n"},
			nil, func(c Config) any { return [2]string{c.StaleMessage, c.CloseMessage} }, [2]string{"", ""}},
		{"numbers", map[string]string{"operations-per-run": "1", "rate-limit-reserve": "0"},
			nil, func(c Config) any { return [2]int{c.OperationsPerRun, c.RateLimitReserve} }, [2]int{1, 0}},
		{"write-interval", map[string]string{"write-interval": "1500ms"},
			nil, func(c Config) any { return c.WriteInterval }, 1500 * time.Millisecond},
		{"write-interval 0s and 1m", map[string]string{"write-interval": "1m"},
			nil, func(c Config) any { return c.WriteInterval }, time.Minute},
		{"dashboard-issue", map[string]string{"dashboard-issue": " Pull request queue "},
			nil, func(c Config) any { return c.DashboardIssue }, "Pull request queue"},
		{"dashboard-issue unset: none", nil,
			nil, func(c Config) any { return c.DashboardIssue }, ""},
		{"choices fold case", map[string]string{"activity-from": "People"},
			nil, func(c Config) any { return c.Policy.ActivityFrom }, lifecycle.People},
		{"start-date", map[string]string{"start-date": "2024-01-02"},
			nil, func(c Config) any { return c.Policy.StartDate }, day("2024-01-02T00:00:00Z")},
		{"repository input wins over env", map[string]string{"repository": "other/repo.go"},
			nil, func(c Config) any { return c.Repository() }, "other/repo.go"},
		{"repo-token input wins over env", map[string]string{"repo-token": "tok2"},
			nil, func(c Config) any { return string(c.Token) }, "tok2"},
		{"env only", nil, map[string]string{EnvRepository: "a-b/c_d", EnvToken: "t", EnvAPIURL: "https://ghe.example.com/api/v3"},
			func(c Config) any { return []string{c.Owner, c.Repo, string(c.Token), c.APIURL} }, []string{"a-b", "c_d", "t", "https://ghe.example.com/api/v3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(source(tt.inputs, tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.check(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestStartDateForms(t *testing.T) {
	t.Parallel()
	want := time.Date(2024, 1, 2, 15, 4, 5, 0, time.UTC)
	for _, v := range []string{
		"2024-01-02T15:04:05Z",
		"2024-01-02T17:04:05+02:00",
		"2024-01-02T17:04:05+0200",
		"2024-01-02T10:04:05-05:00",
		"2024-01-02T15:04:05",
		"2024-01-02T15:04:05.000Z",
		"Tue, 02 Jan 2024 15:04:05 +0000",
		"Tue, 2 Jan 2024 16:04:05 +0100",
		"02 Jan 2024 15:04:05 +0000",
		"2 Jan 2024 15:04:05 GMT",
		"Tue, 02 Jan 2024 15:04:05 UT",
	} {
		got, ok := parseDate(v)
		if !ok || !got.Equal(want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
	if got, ok := parseDate("2024-01-02T15:04Z"); !ok || !got.Equal(want.Add(-5*time.Second)) {
		t.Errorf("without seconds: %v %v", got, ok)
	}
	for _, v := range []string{"2024-13-01", "02/01/2024", "yesterday", "2024-01-02T25:00:00Z", "Tue, 02 Jan 2024 15:04:05 EST", "1704207845",
		"2024/02/30", "Jan 32, 2024", "Foo 2, 2024", "2024-01-02 15:04:05 EST", "January 2, 2024 15:04:05 PST", "2 Jan 24"} {
		if got, ok := parseDate(v); ok {
			t.Errorf("parseDate(%q) = %v, want refusal", v, got)
		}
	}
}

// TestStartDateFormsOfActionsStale: the forms actions/stale reads with
// JavaScript's Date, which people copy from its docs and tests; a time
// without a zone is UTC, as on a hosted runner.
func TestStartDateFormsOfActionsStale(t *testing.T) {
	t.Parallel()
	midnight := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Time{
		"January 1, 2000 00:00:00":       midnight, // actions/stale's own tests
		"2000-01-01 00:00:00":            midnight,
		"2000/01/01":                     midnight,
		"Jan 1, 2000":                    midnight,
		"january 1, 2000":                midnight,
		"Jan 1 2000":                     midnight,
		"1 January 2000":                 midnight,
		"Saturday, January 1, 2000":      midnight,
		"Sat, 1 Jan 2000":                midnight,
		"2000/1/1 00:00":                 midnight,
		"2000-01-01 00:00:00 UTC":        midnight,
		"2000-01-01 02:00:00+02:00":      midnight,
		"January 1, 2000 02:00:00 +0200": midnight,
		"Jan 1, 2000 13:30":              midnight.Add(13*time.Hour + 30*time.Minute),
		"2000-01-01 00:00:00.5":          midnight.Add(500 * time.Millisecond),
		"December 31, 1999 23:00:00 GMT": midnight.Add(-time.Hour),
	} {
		if got, ok := parseDate(v); !ok || !got.Equal(want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
	// Through Parse, as a workflow gives it.
	c := mustParse(t, map[string]string{"start-date": "January 1, 2000 00:00:00"})
	if !c.Policy.StartDate.Equal(midnight) {
		t.Errorf("start-date = %v, want %v", c.Policy.StartDate, midnight)
	}
}

// TestStartDateRefusalListsForms: a refused start-date says which forms
// are accepted, with an example of each.
func TestStartDateRefusalListsForms(t *testing.T) {
	t.Parallel()
	_, err := Parse(source(map[string]string{"start-date": "01/02/2024"}, nil))
	if err == nil {
		t.Fatal("01/02/2024 accepted: day and month cannot be told apart")
	}
	for _, form := range []string{"2024-01-02", "2024-01-02T15:04:05Z", "2024-01-02 15:04:05", "Tue, 02 Jan 2024 15:04:05 +0000",
		"January 2, 2024", "Jan 2, 2024 15:04", "2024/01/02", "without a zone", "UTC"} {
		if !strings.Contains(err.Error(), form) {
			t.Errorf("error %q does not name the form %q", err, form)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		inputs map[string]string
		env    map[string]string
		want   string
	}{
		{map[string]string{"days-before-stale": "3.5"}, nil,
			`input "days-before-stale": want a whole number of days (or -1 for never), got "3.5"`},
		{map[string]string{"days-before-pr-close": "-2"}, nil,
			`input "days-before-pr-close": want a whole number of days (or -1 for never), got "-2"`},
		{map[string]string{"days-before-close": "99999999999999999999"}, nil,
			`input "days-before-close": want at most 36500 days (or -1 for never), got "99999999999999999999"`},
		{map[string]string{"debug-only": "yes"}, nil,
			`input "debug-only": want true or false, got "yes"`},
		{map[string]string{"remove-pr-stale-when-updated": "1"}, nil,
			`input "remove-pr-stale-when-updated": want true or false, got "1"`},
		{map[string]string{"operations-per-run": "0"}, nil,
			`input "operations-per-run": want a whole number, 1 or more, got "0"`},
		{map[string]string{"rate-limit-reserve": "-1"}, nil,
			`input "rate-limit-reserve": want a whole number, 0 or more, got "-1"`},
		{map[string]string{"write-interval": "2m"}, nil,
			`input "write-interval": want a duration from 0s to 1m such as 1s or 500ms, got "2m"`},
		{map[string]string{"write-interval": "-1s"}, nil,
			`input "write-interval": want a duration from 0s to 1m such as 1s or 500ms, got "-1s"`},
		{map[string]string{"write-interval": "1"}, nil,
			`input "write-interval": want a duration from 0s to 1m such as 1s or 500ms, got "1"`},
		{map[string]string{"dashboard-issue": "Queue\nof PRs"}, nil,
			`input "dashboard-issue": want an issue title on one line, got "Queue\nof PRs"`},
		{map[string]string{"dashboard-issue": strings.Repeat("q", 257)}, nil,
			`input "dashboard-issue": want an issue title of at most 256 characters (GitHub's limit), got 257`},
		{map[string]string{"run-timeout": "30s"}, nil,
			`input "run-timeout": want a duration from 1m to 6h such as 30m or 1h, got "30s"`},
		{map[string]string{"run-timeout": "7h"}, nil,
			`input "run-timeout": want a duration from 1m to 6h such as 30m or 1h, got "7h"`},
		{map[string]string{"activity-from": "bots"}, nil,
			`input "activity-from": want anyone or people, got "bots"`},
		{map[string]string{"sort-by": "age"}, nil,
			`input "sort-by": want created, updated or comments, got "age"`},
		{map[string]string{"ascending": "yes"}, nil,
			`input "ascending": want true or false, got "yes"`},
		{map[string]string{"enable-statistics": "no"}, nil,
			`input "enable-statistics": want true or false, got "no"`},
		{map[string]string{"start-date": "01/02/2024"}, nil,
			`input "start-date": want ` + dateForms + `, got "01/02/2024"`},
		{map[string]string{"stale-pr-message": "hi {{user}}"}, nil,
			`input "stale-pr-message": unknown placeholder {{user}}; known: ` + strings.Join(notice.Placeholders(), " ")},
		{map[string]string{"labels-to-add-when-unstale": "Stale"}, nil,
			`input "labels-to-add-when-unstale": holds "Stale", the stale-pr-label, which would undo marking or unmarking`},
		{map[string]string{"only-draft-pr": "true", "exempt-draft-pr": "TRUE"}, nil,
			`input "only-draft-pr": only-draft-pr and exempt-draft-pr are both true: only drafts would be considered and every draft is exempt, so nothing would ever be processed; set one of them to false`},
		{map[string]string{"close-action": "delete"}, nil,
			`input "close-action": want close or draft, got "delete"`},
		{map[string]string{"close-action": "draft", "only-draft-pr": "true"}, nil,
			`input "close-action": close-action draft with only-draft-pr true would "close" drafts by converting them to drafts; use close-action close, or set only-draft-pr to false`},
		{map[string]string{"close-action": "draft", "delete-branch": "true", "exempt-draft-pr": "true"}, nil,
			`input "delete-branch": delete-branch true with close-action draft would close the converted pull request by deleting its branch; set delete-branch to false, or use close-action close`},
		{map[string]string{"repository": "just-a-name"}, nil,
			`input "repository": want owner/name, got "just-a-name"`},
		{map[string]string{"repository": "o/../x"}, nil,
			`input "repository": want owner/name, got "o/../x"`},
		{nil, map[string]string{EnvToken: "t"},
			`input "repository": not set: set the repository input or the GITHUB_REPOSITORY environment variable to owner/name`},
		{nil, map[string]string{EnvRepository: "o/r"},
			`input "repo-token": no token: set the repo-token input or the GITHUB_TOKEN environment variable`},
		{map[string]string{"repo-token": "abc def"}, nil,
			`input "repo-token": the token holds spaces, control characters or invalid UTF-8; check the secret`},
		{nil, map[string]string{EnvRepository: "o/r", EnvToken: "t", EnvAPIURL: "ghe.example.com/api/v3"},
			`environment variable GITHUB_API_URL: want an absolute http or https URL without credentials, such as https://github.example.com/api/v3, got "ghe.example.com/api/v3"`},
		{nil, map[string]string{EnvRepository: "o/r", EnvToken: "t", EnvAPIURL: "ftp://ghe.example.com/"},
			`environment variable GITHUB_API_URL: want an absolute http or https URL without credentials, such as https://github.example.com/api/v3, got "ftp://ghe.example.com/"`},
		{map[string]string{"days-before-stale": strings.Repeat("9", 100) + "x"}, nil,
			`input "days-before-stale": want a whole number of days (or -1 for never), got "` + strings.Repeat("9", 80) + `"…`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			c, err := Parse(source(tt.inputs, tt.env))
			if err == nil {
				t.Fatalf("no error; config %v", c)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Errorf("want Errors of one, got %T %v", err, err)
			}
			if !reflect.DeepEqual(c, Config{Warnings: c.Warnings}) {
				t.Errorf("config not zero on error: %v", c)
			}
		})
	}
}

func TestParseReportsAllErrorsInTableOrder(t *testing.T) {
	t.Parallel()
	_, err := Parse(source(map[string]string{
		"write-interval":       "forever",
		"debug-only":           "yes",
		"days-before-stale":    "3.5",
		"repository":           "nope",
		"days-before-pr-stale": "x", // an override is checked too
	}, map[string]string{EnvToken: "t", EnvAPIURL: "not a url"}))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("want Errors, got %T %v", err, err)
	}
	var names []string
	for _, e := range errs {
		names = append(names, e.Name)
	}
	want := []string{"repository", "days-before-stale", "days-before-pr-stale", "debug-only", "write-interval", EnvAPIURL}
	if !slices.Equal(names, want) {
		t.Errorf("errors for %v, want %v", names, want)
	}
	if got := strings.Count(err.Error(), "\n") + 1; got != len(want) {
		t.Errorf("Error() has %d lines, want %d:\n%s", got, len(want), err)
	}
	var one *InputError
	if !errors.As(err, &one) || one.Name != "repository" {
		t.Errorf("errors.As(*InputError) = %v", one)
	}
	if !errs[len(errs)-1].Env {
		t.Errorf("GITHUB_API_URL error not marked Env")
	}
}

func ignoredWarning(name string) string {
	return `input "` + name + `" is ignored: stalepr handles pull requests only (keep actions/stale for issues); remove it to silence this warning`
}

func orderWarning(name string) string {
	return `input "` + name + `" has no effect: stalepr always works on the pull requests with the oldest activity first, ` +
		`which lets a capped run continue on the next one; remove it to silence this warning`
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		inputs map[string]string
		want   []string
	}{
		{"none by default", actionDefaults(), nil},
		{"ignored issue inputs, one warning each", map[string]string{
			"stale-issue-message": "old", "days-before-issue-stale": "5", "only-issue-types": "bug",
			"stale-issue-label": "Stale", "close-issue-reason": "not_planned", // actions/stale's defaults: silent
			"close-issue-label": " ",
		}, []string{ignoredWarning("stale-issue-message"), ignoredWarning("days-before-issue-stale"), ignoredWarning("only-issue-types")}},
		{"ignored inputs are not validated", map[string]string{"days-before-issue-stale": "soon"},
			[]string{ignoredWarning("days-before-issue-stale")}},
		{"ascending and sort-by have no effect (choices fold case)", map[string]string{"ascending": "TRUE", "sort-by": "UPDATED"},
			[]string{orderWarning("ascending"), orderWarning("sort-by")}},
		{"ascending and sort-by at their defaults: silent", map[string]string{"ascending": "false", "sort-by": "created"}, nil},
		{"statistics off has no effect", map[string]string{"enable-statistics": "False"},
			[]string{`input "enable-statistics" has no effect: the log and the job summary always end with the counts; remove it to silence this warning`}},
		{"fast writes", map[string]string{"write-interval": "0s"},
			[]string{"write-interval 0s is shorter than the second GitHub asks for between writes; secondary rate limits may stop the run"}},
		{"close-action draft without exempt-draft-pr", map[string]string{"close-action": "draft"},
			[]string{"close-action draft without exempt-draft-pr: a converted draft is marked and converted again after another " +
				"days-before-stale days without activity; set exempt-draft-pr: true to leave converted drafts alone"}},
		{"close-action draft with exempt-draft-pr: silent", map[string]string{"close-action": "Draft", "exempt-draft-pr": "true"}, nil},
		{"does nothing", map[string]string{"days-before-stale": "-1", "days-before-pr-close": "-1"},
			[]string{"days before stale and before close are both -1 (never): the run will neither mark nor close pull requests"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustParse(t, tt.inputs)
			if !slices.Equal(c.Warnings, tt.want) {
				t.Errorf("got  %q\nwant %q", c.Warnings, tt.want)
			}
		})
	}
	// Warnings survive an error, so main can print both.
	c, err := Parse(source(map[string]string{"stale-issue-message": "x", "debug-only": "y"}, nil))
	if err == nil || len(c.Warnings) != 1 {
		t.Errorf("err %v, warnings %q", err, c.Warnings)
	}
}

// TestTokenNeverPrinted: a Config printed whole, under every verb, in slog
// or as JSON shows *** where the token is (JSON leaves it out), and the
// Config itself still holds the token.
func TestTokenNeverPrinted(t *testing.T) {
	t.Parallel()
	c := mustParse(t, nil)
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("config", "cfg", c, "ptr", &c)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("config", "cfg", c, "ptr", &c)
	marshalled, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	wrapped := struct{ Cfg Config }{c}
	shown := map[string]string{ // outputs that must show ***
		"String":    c.Token.String(),
		"slog text": text.String(),
		"nested":    fmt.Sprintf("%v %+v %#v", wrapped, wrapped, wrapped),
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%10.3v"} {
		shown[verb] = fmt.Sprintf(verb, c)
		shown["pointer "+verb] = fmt.Sprintf(verb, &c)
	}
	hidden := map[string]string{ // outputs that leave the token out
		"slog json": js.String(),
		"json":      string(marshalled),
	}
	for name, out := range shown {
		if !strings.Contains(out, "***") && !strings.Contains(out, fmt.Sprintf("%x", "***")) {
			t.Errorf("%s does not show the redacted token: %s", name, out)
		}
		hidden[name] = out
	}
	for name, out := range hidden {
		if strings.Contains(out, testToken) || strings.Contains(out, fmt.Sprintf("%x", testToken)) ||
			strings.Contains(out, fmt.Sprintf("%X", testToken)) || strings.Contains(out, "s3cr3t") {
			t.Errorf("%s reveals the token: %s", name, out)
		}
	}
	if !strings.HasPrefix(fmt.Sprintf("%#v", c), `config.Config{Token:"***", Owner:"octo"`) {
		t.Errorf("%%#v: %#v", c)
	}
	if string(c.Token) != testToken {
		t.Errorf("printing changed the Config itself")
	}
}

func TestActionsSource(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"INPUT_DAYS-BEFORE-STALE": "7",
		"INPUT_STALE-PR-MESSAGE":  "",
		"INPUT_REPO-TOKEN":        "tok",
		"GITHUB_REPOSITORY":       "o/r",
	}
	c, err := Parse(ActionsSource(func(k string) (string, bool) { v, ok := env[k]; return v, ok }))
	if err != nil {
		t.Fatal(err)
	}
	if c.Policy.DaysBeforeStale != 7 || c.StaleMessage != "" || c.CloseMessage != lifecycle.DefaultClose || c.Token != "tok" || c.Repository() != "o/r" {
		t.Errorf("got %+v", c)
	}
}

// TestParseReadsEveryInput guards against an input in the table that Parse
// forgets.
func TestParseReadsEveryInput(t *testing.T) {
	t.Parallel()
	read := map[string]bool{}
	src := source(nil, nil)
	inner := src.Input
	src.Input = func(name string) (string, bool) {
		read[name] = true
		return inner(name)
	}
	if _, err := Parse(src); err != nil {
		t.Fatal(err)
	}
	for _, in := range Inputs {
		if !read[in.Name] {
			t.Errorf("Parse never reads input %s", in.Name)
		}
		delete(read, in.Name)
	}
	for name := range read {
		t.Errorf("Parse reads %s, which the table lacks", name)
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, in := range Inputs {
		if seen[in.Name] {
			t.Errorf("%s listed twice", in.Name)
		}
		seen[in.Name] = true
		if strings.TrimSpace(in.Description) == "" || strings.Contains(in.Description, "\n") {
			t.Errorf("%s: description must be one non-empty line", in.Name)
		}
		if (in.Kind == Ignored) != strings.HasPrefix(in.Description, ignoredNote) {
			t.Errorf("%s: kind %v, description %q", in.Name, in.Kind, in.Description)
		}
		switch {
		case in.Overrides != "":
			// Parse reads the table in order: the generic input's value is
			// in place before its override replaces it.
			g, ok := Lookup(in.Overrides)
			if !ok || !seen[g.Name] || g.Kind != in.Kind || g.Overrides != "" || g.to.parse == nil ||
				!slices.Equal(g.Choices, in.Choices) || in.Default != "" || in.to.parse != nil {
				t.Errorf("%s overrides %s: want an earlier input of the same kind with a target, and no default or target of its own", in.Name, in.Overrides)
			}
		case in.Kind == Ignored:
			if in.to.parse != nil || in.noEffect != "" {
				t.Errorf("%s: an ignored input has no target", in.Name)
			}
		case in.to.parse == nil || in.to.kind != in.Kind:
			t.Errorf("%s: kind %v, target of kind %v (nil: none)", in.Name, in.Kind, in.to.kind)
		}
		if in.Kind == Choice && !slices.Contains(in.Choices, in.Default) {
			t.Errorf("%s: default %q not among %v", in.Name, in.Default, in.Choices)
		}
		if in.Kind.String() == "unknown" {
			t.Errorf("%s: kind has no name", in.Name)
		}
	}
	// Every input of actions/stale, PR-specific, generic and issue-only.
	staleInputs := strings.Fields(`repo-token stale-pr-message close-pr-message days-before-stale days-before-pr-stale
		days-before-close days-before-pr-close stale-pr-label close-pr-label exempt-pr-labels exempt-milestones
		exempt-pr-milestones exempt-all-milestones exempt-all-pr-milestones only-labels only-pr-labels any-of-labels
		any-of-pr-labels operations-per-run remove-stale-when-updated remove-pr-stale-when-updated debug-only ascending
		sort-by delete-branch start-date exempt-assignees exempt-pr-assignees exempt-all-assignees exempt-all-pr-assignees
		exempt-draft-pr enable-statistics labels-to-add-when-unstale labels-to-remove-when-stale labels-to-remove-when-unstale
		ignore-updates ignore-pr-updates include-only-assigned
		activity-from exempt-awaiting-review rate-limit-reserve write-interval run-timeout repository
		only-draft-pr exempt-pr-authors exempt-approved close-action
		stale-clock days-before-review-nudge review-nudge-message review-nudge-label review-nudges-per-run dashboard-issue quiet-periods
		rerequest-reviewers-on-answer days-before-review-escalation escalation-reviewers escalations-per-run away-reviewers
		bot-accounts reviewers author-turn-when-labeled author-turn-when-checks-fail author-turn-label reviewers-turn-label conflict-label
		audit-closed-days reopen-wrongly-closed reopen-message reopen-command
		agent-accounts days-before-agent-pr-stale days-before-agent-pr-close
		days-before-intake-close intake-accepted-labels intake-message intake-close-message`)
	issueInputs := strings.Fields(`stale-issue-message close-issue-message days-before-issue-stale days-before-issue-close
		stale-issue-label close-issue-label exempt-issue-labels close-issue-reason exempt-issue-milestones
		exempt-all-issue-milestones only-issue-labels any-of-issue-labels remove-issue-stale-when-updated
		exempt-issue-assignees exempt-all-issue-assignees ignore-issue-updates only-issue-types`)
	for _, name := range staleInputs {
		if in, ok := Lookup(name); !ok || in.Kind == Ignored {
			t.Errorf("input %s: missing or ignored", name)
		}
	}
	for _, name := range issueInputs {
		if in, ok := Lookup(name); !ok || in.Kind != Ignored {
			t.Errorf("issue input %s: missing or not marked ignored", name)
		}
	}
	if got, want := len(Inputs), len(staleInputs)+len(issueInputs); got != want {
		t.Errorf("%d inputs, want %d", got, want)
	}
}

func TestMarkdownTable(t *testing.T) {
	t.Parallel()
	md := MarkdownTable()
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	if len(lines) != len(Inputs)+2 {
		t.Fatalf("%d lines, want %d", len(lines), len(Inputs)+2)
	}
	for i, in := range Inputs {
		line := lines[i+2]
		if !strings.HasPrefix(line, "| "+Anchor(in.Name)+"`"+in.Name+"` |") || strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 4 {
			t.Errorf("row for %s: %s", in.Name, line)
		}
	}
	if !strings.Contains(md, "`days-before-stale` | `90` |") || !strings.Contains(md, "`${{ github.token }}`") {
		t.Errorf("defaults missing:\n%s", md)
	}
}

// TestParseConnection: only the connection's inputs are read, in Parse's
// words; a bad value of any other input does not stop it.
func TestParseConnection(t *testing.T) {
	t.Parallel()
	c, err := ParseConnection(source(map[string]string{"days-before-stale": "soon", "run-timeout": "1h", "rate-limit-reserve": "7"},
		map[string]string{EnvRepository: "o/r", EnvToken: "t", EnvAPIURL: "https://ghe.example.com/api/v3"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Owner != "o" || c.Repo != "r" || c.Token != "t" || c.APIURL != "https://ghe.example.com/api/v3" || c.RunTimeout != time.Hour || c.RateLimitReserve != 7 {
		t.Errorf("ParseConnection = %+v", c)
	}
	src := source(map[string]string{"run-timeout": "soon"}, map[string]string{EnvToken: "t", EnvAPIURL: "ghe.example.com"})
	_, err = ParseConnection(src)
	_, full := Parse(src)
	for _, want := range []string{`input "repository"`, `input "run-timeout"`, "environment variable GITHUB_API_URL"} {
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(full.Error(), want) {
			t.Errorf("ParseConnection: %v; want %q, as Parse says it", err, want)
		}
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.Contains(full.Error(), line) {
			t.Errorf("ParseConnection says %q, which Parse does not", line)
		}
	}
}
