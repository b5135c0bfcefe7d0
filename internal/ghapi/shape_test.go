package ghapi

import (
	"strings"
	"testing"
)

func TestCheckShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		perPage    int
		bad        string // "" when the body passes
	}{
		{"empty page", `[]`, 100, ""},
		{"exactly per_page", `[{},{},{}]`, 3, ""},
		{"one more", `[{},{},{},{}]`, 3, "more than the 3 items"},
		{"commas and brackets inside strings are not items", `[{"body":"[{},{},{}], \"[,,,]\" \\"}]`, 1, ""},
		{"nested arrays are not items", `[{"labels":[{},{},{}]}]`, 1, ""},
		{"null item", `[{}, null]`, 100, "item 2 is null"},
		{"null field is fine", `[{"milestone":null}]`, 100, ""},
		{"wrapped listing", `{"total_count":3,"repositories":[{},{},{}]}`, 2, "more than the 2 items"},
		{"wrapped null", `{"total_count":1,"repositories":[null]}`, 100, "item 1 is null"},
		{"no listing: items not counted", `[{},{},{}]`, 0, ""},
		{"no listing: null not refused", `[null]`, 0, ""},
		{"too many objects", "[" + strings.Repeat(`[`, maxContainers+1), 0, "JSON objects and arrays"},
		{"too many values", "[" + strings.Repeat(`1,`, maxValues+1) + "1]", 0, "JSON values"},
	} {
		got := checkShape([]byte(tc.body), tc.perPage)
		if (tc.bad == "") != (got == "") || !strings.Contains(got, tc.bad) {
			t.Errorf("%s: checkShape = %q, want %q", tc.name, got, tc.bad)
		}
	}
}
