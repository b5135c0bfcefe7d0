package ghapi

import (
	"encoding/json"
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
		{"a quote after an even run of backslashes ends the string", `[{"body":"\\\\"},{}]`, 1, "more than the 1 items"},
		{"a quote after an odd run of backslashes does not", `[{"body":"\\\\\", {}, {}"}]`, 1, ""},
		{"a string item counts", `[{},"{},{}"]`, 1, "more than the 1 items"},
		{"an unclosed string hides what follows", `[{"body":"{},{}`, 1, ""},
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

// BenchmarkCheckShape scans a page shaped like a real pulls listing: 100
// pull requests with their users, labels, links and a body of prose with
// quotes, escapes and non-ASCII text. Strings are most of a real page's
// bytes, so this is what skipping their contents speeds up.
func BenchmarkCheckShape(b *testing.B) {
	page := []byte(realisticPage(100))
	if !json.Valid(page) {
		b.Fatal("the page is not JSON")
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if why := checkShape(page, 100); why != "" {
			b.Fatal(why)
		}
	}
}

// realisticPage is a listing of n objects like GitHub's pull requests.
func realisticPage(n int) string {
	user := `{"login":"octocat","id":1,"node_id":"MDQ6VXNlcjE=","avatar_url":"https://github.com/images/error/octocat_happy.gif","url":"https://api.github.com/users/octocat","html_url":"https://github.com/octocat","type":"User","site_admin":false}`
	body := strings.Repeat(`Fixes the \"stale\" label on [#12](https://github.com/o/r/pull/12): a line\nwith a tab\t, a backslash \\ and café. `, 20)
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		b.WriteString(`{"url":"https://api.github.com/repos/o/r/pulls/1","id":1,"number":1,"state":"open","locked":false,"title":"Amend the \"docs\" [draft]",`)
		b.WriteString(`"user":` + user + `,"body":"` + body + `",`)
		b.WriteString(`"labels":[{"id":208045946,"name":"bug","color":"f29513","default":true},{"id":208045947,"name":"stale","color":"ededed","default":false}],`)
		b.WriteString(`"milestone":null,"assignees":[` + user + `,` + user + `],"requested_reviewers":[],`)
		b.WriteString(`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-02-01T00:00:00Z","closed_at":null,"merged_at":null,"draft":false,`)
		b.WriteString(`"head":{"label":"o:feature","ref":"feature","sha":"6dcb09b5b57875f334f61aebed695e2e4193db5e","user":` + user + `},`)
		b.WriteString(`"base":{"label":"o:main","ref":"main","sha":"6dcb09b5b57875f334f61aebed695e2e4193db5e","user":` + user + `},`)
		b.WriteString(`"author_association":"CONTRIBUTOR","auto_merge":null}`)
	}
	b.WriteString("]")
	return b.String()
}
