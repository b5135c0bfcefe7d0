package config

import (
	"slices"
	"strings"
	"testing"
)

func TestParseOverrides(t *testing.T) {
	t.Parallel()
	got, enabled, err := ParseOverrides([]byte(`{"days-before-stale": 30, "exempt-draft-pr": true, "exempt-pr-labels": ["pinned", "security"], "close-pr-message": null}`), false)
	if err != nil || !enabled {
		t.Fatal(err)
	}
	want := map[string]string{"days-before-stale": "30", "exempt-draft-pr": "true", "exempt-pr-labels": "pinned,security", "close-pr-message": ""}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (%v), want %q", k, g, ok, v)
		}
	}
	if _, _, err := ParseOverrides([]byte("enabled: false\n"), false); err == nil {
		t.Error("enabled accepted in the organisation's inputs; it belongs in a repository's file")
	}
	if _, _, err := ParseOverrides([]byte("repo-token: x\n"), true); err == nil {
		t.Error("repo-token accepted in a repository's file")
	}
	if _, _, err := ParseOverrides([]byte("labels: {a: b}\n"), true); err == nil {
		t.Error("a nested map accepted")
	}
	if _, _, err := ParseOverrides([]byte("- a\n- b\n"), true); err == nil {
		t.Error("a list accepted as the file")
	}
	got, _, err = ParseOverrides([]byte("start-date: 2024-01-02\ndays-before-stale: 007\n"), true)
	if err != nil || got["start-date"] != "2024-01-02" || got["days-before-stale"] != "007" {
		t.Errorf("values not taken as written: %v, %v", got, err)
	}
	if _, _, err := ParseOverrides([]byte("days-before-stale: 1\n---\nenabled: false\n"), true); err == nil {
		t.Error("a second YAML document ignored")
	}
	if _, _, err := ParseOverrides([]byte("enabled: false\nenabled: true\n"), true); err == nil {
		t.Error("a key given twice accepted")
	}
	if got, on, err := ParseOverrides([]byte("# nothing yet\n"), true); err != nil || !on || len(got) != 0 {
		t.Errorf("a file of comments only: %v %v %v", got, on, err)
	}
}

// TestParseOverridesLists: a YAML sequence in a fleet's file reads as the
// same list, whatever its items hold (a comma, a lone bracketed label);
// a key that is no input is refused, with the input nearest to it.
func TestParseOverridesLists(t *testing.T) {
	t.Parallel()
	got, _, err := ParseOverrides([]byte("exempt-pr-labels: [\"[WIP]\"]\nonly-labels: [\"a,b\", c]\nany-of-labels: \"[x, y]\"\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"exempt-pr-labels": {"[WIP]"}, "only-labels": {"a,b", "c"}, "any-of-labels": {"x", "y"}} {
		if items, err := SplitList(got[name]); err != nil || !slices.Equal(items, want) {
			t.Errorf("%s: %q reads as %q, %v; want %q", name, got[name], items, err, want)
		}
	}
	for key, want := range map[string]string{"debug_only": "did you mean debug-only?", "dry-run": "whose dry run is debug-only", "zzzzzzzzzzzz": "is not an input of stalepr"} {
		if _, _, err := ParseOverrides([]byte(key+": true\n"), true); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", key, err, want)
		}
	}
}
