package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stalepr/stalepr/internal/api"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

const delim = "_GitHubActionsFileCommandDelimeter_"

// hostile are PR titles (and error texts) written to break out of wherever
// they are printed.
var hostile = []string{
	"| x |",
	"a || b | c",
	"<script>alert(1)</script>",
	"<b>bold</b> <img src=x onerror=alert(1)>",
	"::error::x",
	"::add-mask::secret",
	"line1\nline2",
	"line1\r\n::error file=a::pwned",
	"cr only\r::warning::x",
	"next\u2028line\u2029para\u0085nel",
	delim,
	"x\n" + delim + "\ny",
	"@someone please look, cc @org/team",
	"[click](https://evil.example)",
	"![img](https://evil.example/x.png)",
	"`code` *bold* _em_ # heading ~~strike~~ $x^2$ \\*",
	"&lt;script&gt; &amp; &#124;",
	"##[error]old syntax ##[add-mask]s",
	"###[warning]three hashes",
	"\u202Eevil bidi\u202C",
	"\u200b::error::zero width first",
	"  ::notice::leading spaces",
	"\xff\xfe invalid utf8 \xc3",
	"",
	strings.Repeat("|<@_`\n", 2000),
}

func item(n int, title string) sweep.Item {
	return sweep.Item{
		Number:       n,
		Title:        title,
		URL:          fmt.Sprintf("https://github.com/o/r/pull/%d", n),
		Reason:       lifecycle.ReasonInactive,
		InactiveDays: 120,
		CloseAt:      time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

// as returns items with outcome o.
func as(o sweep.Outcome, items ...sweep.Item) []sweep.Item {
	out := make([]sweep.Item, len(items))
	for i, it := range items {
		it.Outcome = o
		out[i] = it
	}
	return out
}

// without returns items less those with outcome o.
func without(items []sweep.Item, o sweep.Outcome) []sweep.Item {
	var out []sweep.Item
	for _, it := range items {
		if it.Outcome != o {
			out = append(out, it)
		}
	}
	return out
}

// hostileResult puts every hostile text in every list, as title, reason and
// error.
func hostileResult(dry bool) sweep.Result {
	r := sweep.Result{
		DryRun:        dry,
		Now:           time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Considered:    100,
		Requests:      23,
		Writes:        5,
		RateLimit:     1000,
		RateRemaining: 977,
		ByRoute:       map[string]int{"GET /repos/{owner}/{repo}/issues": 3, "POST /repos/{owner}/{repo}/issues/{issue_number}/labels": 2},
		Stopped:       api.Budget,
		Left:          12,
	}
	for i, h := range hostile {
		it := item(i+1, h)
		it.Reason = lifecycle.Reason(h)
		it.Err = h
		m := it
		m.Action, m.Outcome = lifecycle.Mark, sweep.Marked
		if i%2 == 1 {
			m.Action, m.Outcome = lifecycle.Notify, sweep.Notified
		}
		m.Err = ""
		u := it
		u.Action, u.Outcome, u.Err = lifecycle.Unstale, sweep.Unstaled, ""
		c := it
		c.Action, c.Outcome, c.Err = lifecycle.Close, sweep.Closed, ""
		s := it
		s.Action, s.Outcome, s.Err = lifecycle.Keep, sweep.StillStale, ""
		k := it
		k.Action, k.Outcome, k.Err = lifecycle.Skip, sweep.Skipped, ""
		f := it
		f.Outcome = sweep.Failed
		cl := it
		cl.Outcome, cl.Err = sweep.LabelCleaned, ""
		r.Items = append(r.Items, m, u, c, s, k, f, cl)
	}
	return r
}

// checkMarkdown asserts the structure of a summary: every table row has as
// many cell separators as its header, no HTML but our <details>/<summary>,
// no live mention, no markdown link or image but our PR links.
func checkMarkdown(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("summary is not valid UTF-8")
	}
	lines := strings.Split(s, "\n")
	want := -1
	tables := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "|") {
			want = -1
			continue
		}
		n := strings.Count(l, "|") - strings.Count(l, `\|`)
		if want < 0 {
			want = n
			tables++
			if i+1 >= len(lines) || !regexp.MustCompile(`^\|( -{3,}:? \|)+$`).MatchString(lines[i+1]) {
				t.Errorf("line %d: table header not followed by a delimiter row: %q", i+1, l)
			}
			continue
		}
		if n != want {
			t.Errorf("line %d: %d cell separators, header has %d: %q", i+1, n, want, l)
		}
	}
	if tables == 0 {
		t.Errorf("no table in summary")
	}
	rest := regexp.MustCompile(`(?m)^> `).ReplaceAllString(s, "") // our blockquotes
	for _, tag := range []string{"<details>", "</details>", "<summary>", "</summary>"} {
		rest = strings.ReplaceAll(rest, tag, "")
	}
	if i := strings.IndexAny(rest, "<>"); i >= 0 {
		t.Errorf("raw HTML angle bracket left: %q", around(rest, i))
	}
	if strings.Count(s, "<details>") != strings.Count(s, "</details>") {
		t.Errorf("unbalanced <details>")
	}
	for _, bad := range []string{"<script", "<b>", "@someone", "@org", "](https://evil", "![", "\r", "`code`", "~~", "$x", "\u2028", "\u202E"} {
		if i := strings.Index(s, bad); i >= 0 {
			t.Errorf("summary holds %q: %q", bad, around(s, i))
		}
	}
	// The only link destinations are our PR links.
	for _, m := range regexp.MustCompile(`\]\(([^)]*)\)`).FindAllStringSubmatch(s, -1) {
		if !strings.HasPrefix(m[1], "https://github.com/") {
			t.Errorf("unexpected link destination %q", around(m[1], 0))
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			t.Errorf("line %d starts with '::': %q", i+1, l)
		}
	}
}

func around(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+40)
	return s[lo:hi]
}

func TestSummaryHostileText(t *testing.T) {
	t.Parallel()
	for _, dry := range []bool{false, true} {
		t.Run(fmt.Sprintf("dry=%v", dry), func(t *testing.T) {
			s := Summary(hostileResult(dry), "o/r|<b>x</b>@someone")
			checkMarkdown(t, s)
			if !strings.Contains(s, "&#124; x &#124;") {
				t.Errorf("pipe in a title not escaped as &#124;")
			}
			if !strings.Contains(s, "&lt;script&gt;") {
				t.Errorf("<script> not entity-encoded")
			}
			if !strings.Contains(s, "@\u200bsomeone") {
				t.Errorf("mention not neutralised with a zero-width space")
			}
			if !strings.Contains(s, "line1 line2") {
				t.Errorf("newline in title not collapsed to a space")
			}
			if !strings.Contains(s, "&amp;lt;script&amp;gt;") {
				t.Errorf("pre-encoded entities must show literally")
			}
		})
	}
}

func TestMD(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"plain title", "plain title"},
		{"| x |", "&#124; x &#124;"},
		{"<script>", "&lt;script&gt;"},
		{"a & b", "a &amp; b"},
		{"[x](y)", "&#91;x&#93;&#40;y&#41;"},
		{"`*_#~!$\\", "&#96;&#42;&#95;&#35;&#126;&#33;&#36;&#92;"},
		{"@someone", "@\u200bsomeone"},
		{"a\n\r\tb   c", "a b c"},
		{"  trim  ", "trim"},
		{"\u202Ertl\u200b", "rtl"},
		{"\xff", "\uFFFD"},
		{"fix: x-y", "fix: x-y"},
	}
	for _, tt := range tests {
		if got := md(tt.in, 100); got != tt.want {
			t.Errorf("md(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOneLineTruncates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{strings.Repeat("é", 150), 100, strings.Repeat("é", 100) + "…"},
		{strings.Repeat("a", 100), 100, strings.Repeat("a", 100)},
		{strings.Repeat("a", 99) + " b", 100, strings.Repeat("a", 99) + "…"},
		{"a   \n\n  ", 100, "a"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in, tt.max); got != tt.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestPRLink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, want string
	}{
		{"https://github.com/o/r/pull/12", "[#12](https://github.com/o/r/pull/12)"},
		{"https://ghe.example/o/r/pull/12", "[#12](https://ghe.example/o/r/pull/12)"},
		{"javascript:alert(1)", "#12"},
		{"", "#12"},
		{"https://x/a) [y](z", "[#12](https://x/a%29%20%5By%5D%28z)"},
		{"https://x/a|b<c>\n", "[#12](https://x/a%7Cb%3Cc%3E%0A)"},
		{"https://x/" + strings.Repeat("a", 1000), "#12"},
	}
	for _, tt := range tests {
		if got := prLink(12, tt.url); got != tt.want {
			t.Errorf("prLink(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestSummaryGolden compares the job summary of typical runs with
// testdata/golden/summary/*.md; run the test with -update after a change of
// wording or layout and review the diff.
func TestSummaryGolden(t *testing.T) {
	t.Parallel()
	acted := sweep.Result{
		Now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Items: []sweep.Item{
			func() sweep.Item {
				i := as(sweep.Marked, item(12, "Add thing"))[0]
				i.Action = lifecycle.Mark
				return i
			}(),
			func() sweep.Item { i := as(sweep.Unstaled, item(13, "Fix"))[0]; i.Action = lifecycle.Unstale; return i }(),
			func() sweep.Item { i := as(sweep.Closed, item(14, "Old"))[0]; i.Action = lifecycle.Close; return i }(),
			func() sweep.Item {
				i := as(sweep.StillStale, item(15, "Waiting"))[0]
				i.CloseAt = time.Time{}
				return i
			}(),
		},
		RateRemaining: -1,
	}
	dry := acted
	dry.DryRun = true
	tests := []struct {
		name string
		r    sweep.Result
	}{
		{"acted", acted},
		{"dry-run", dry},
		{"stopped", sweep.Result{Stopped: api.Budget, Left: 12, RateRemaining: 0, RateLimit: 5000}},
		{"stopped-one", sweep.Result{Stopped: api.RateReserve, Left: 1, RateRemaining: 7}},
		{"listing-failed", sweep.Result{Stopped: &sweep.ListingError{Err: errors.New("GET /x: 502")}, RateRemaining: -1}},
		{"listing-failed-after-changes", sweep.Result{Stopped: &sweep.ListingError{Err: errors.New("GET /x: 502")}, RateRemaining: -1, Items: append(as(sweep.Marked, item(1, "a")), as(sweep.Closed, item(2, "b"))...)}},
		{"completed", sweep.Result{RateRemaining: 10, RateLimit: 60}},
		{"quiet-period", quietRun(false)},
		{"quiet-period-dry-run", quietRun(true)},
		{"failed", sweep.Result{Items: []sweep.Item{{Outcome: sweep.Failed, Number: 7, Title: "T", URL: "https://github.com/o/r/pull/7", Err: "PUT labels: 500 Internal Server Error"}}}},
		{"skipped", sweep.Result{Items: []sweep.Item{{Outcome: sweep.Skipped, Number: 8, Title: "Draft", Reason: lifecycle.ReasonDraft}}}},
		{"cleaned", sweep.Result{Items: []sweep.Item{{Outcome: sweep.LabelCleaned, Number: 9, Title: "Merged", Reason: sweep.ReasonMerged}}}},
		{"routes", sweep.Result{Requests: 9, Writes: 2, ByRoute: map[string]int{
			"GET /repos/{owner}/{repo}/issues":                         5,
			"POST /repos/{owner}/{repo}/issues/{issue_number}/labels":  2,
			"GET /repos/{owner}/{repo}/issues/{issue_number}/timeline": 2,
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Runs that listed every open PR, as the sweep's Result of a
			// small repository says: the listing is not their subject.
			tt.r.ListedAll = !tt.r.ListingFailed()
			s := Summary(tt.r, "o/r")
			checkMarkdown(t, s)
			testenv.Golden(t, filepath.Join("testdata", "golden", "summary", tt.name+".md"), s)
		})
	}
}

func TestSummaryFailedFirst(t *testing.T) {
	t.Parallel()
	s := Summary(hostileResult(false), "o/r")
	f, a := strings.Index(s, "### ❌ Failed"), strings.Index(s, "### Acted on")
	if f < 0 || a < 0 || f > a {
		t.Errorf("failed PRs must come before the acted-on table (failed at %d, acted at %d)", f, a)
	}
}

func TestSummarySizeCap(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("|<script>@x_`[y](z)\n::error::", 40) // ~1,100 bytes, all hostile
	tests := []struct {
		name  string
		build func(i int, it *sweep.Item)
	}{
		{"long titles", func(i int, it *sweep.Item) { it.Title = long }},
		{"worst case rows", func(i int, it *sweep.Item) {
			it.Title = strings.Repeat("|", 500)
			it.Reason = lifecycle.Reason(strings.Repeat("|", 500))
			it.Err = strings.Repeat("|", 500)
			it.URL = "https://github.com/" + strings.Repeat("(", maxURLBytes-19)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Each row is over a kilobyte once escaped: 3,500 rows are
			// several times the cap, which is all the cap needs.
			const n = 3500
			r := sweep.Result{RateRemaining: -1, Stopped: api.Budget, Left: 99, ByRoute: map[string]int{}}
			lists := []sweep.Outcome{sweep.Marked, sweep.Unstaled, sweep.Closed, sweep.StillStale, sweep.Skipped, sweep.Failed, sweep.LabelCleaned}
			raw := 0
			for i := range n {
				it := item(i, "")
				tt.build(i, &it)
				raw += len(it.Title) + len(it.Reason) + len(it.Err) + len(it.URL)
				it.Outcome = lists[i%len(lists)]
				r.Items = append(r.Items, it)
			}
			if raw < 2*maxSummaryBytes {
				t.Fatalf("the items hold %d bytes: too few to test the cap of %d", raw, maxSummaryBytes)
			}
			for i := range 5000 {
				r.ByRoute[fmt.Sprintf("GET /repos/{owner}/{repo}/x%d/%s", i, long)] = i
			}
			s := Summary(r, "o/r")
			if len(s) > maxSummaryBytes {
				t.Fatalf("summary is %d bytes, over %d", len(s), maxSummaryBytes)
			}
			checkMarkdown(t, s)
			for _, w := range []string{"… and ", "more", "stopped early", "API usage", "<details><summary>Skipped"} {
				if !strings.Contains(s, w) {
					t.Errorf("capped summary lacks %q", w)
				}
			}
			t.Logf("%d items: %d bytes", n, len(s))
		})
	}
}

func TestCapSize(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("0123456789\n", 1000)
	got := capSize(s, 5000)
	if len(got) > 5000 || !strings.HasSuffix(got, "1 MiB limit.\n") {
		t.Errorf("capSize: %d bytes, ends %q", len(got), got[len(got)-30:])
	}
	if capSize("short", 5000) != "short" {
		t.Errorf("capSize changed a short text")
	}
}

func TestOutputs(t *testing.T) {
	t.Parallel()
	r := hostileResult(false)
	r.Items = without(r.Items, sweep.Unstaled)
	outs := Outputs(r)
	out := byName(outs)
	if len(out) != 4 {
		t.Fatalf("Outputs has %d keys, want 4: %v", len(out), out)
	}
	if out[OutputUnstaled] != "[]" || out[OutputWrongly] != "[]" {
		t.Errorf("empty list = %q, want []", out[OutputUnstaled])
	}
	for _, tt := range []struct {
		key   string
		items []sweep.Item
	}{{OutputStaled, r.Marked()}, {OutputClosed, r.Closed()}, {OutputUnstaled, nil}} {
		t.Run(tt.key, func(t *testing.T) {
			v := out[tt.key]
			if strings.ContainsAny(v, "\n\r<>&_") || strings.Contains(v, "\u2028") || strings.Contains(v, "\u2029") {
				t.Errorf("value holds a raw newline, <, >, & or _: %q", v)
			}
			if strings.Contains(v, delim) {
				t.Errorf("value holds the heredoc delimiter")
			}
			var got []map[string]any
			if err := json.Unmarshal([]byte(v), &got); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if len(got) != len(tt.items) {
				t.Fatalf("%d entries, want %d", len(got), len(tt.items))
			}
			for i, g := range got {
				if len(g) != 3 {
					t.Errorf("entry %d has keys %v, want number, title, url", i, g)
				}
				it := tt.items[i]
				wantTitle := string([]rune(it.Title)) // encoding/json: each invalid byte becomes U+FFFD
				if g["number"] != float64(it.Number) || g["title"] != wantTitle || g["url"] != it.URL {
					t.Errorf("entry %d = %v, want %d %q %q", i, g, it.Number, wantTitle, it.URL)
				}
			}
			// What go-githubactions' SetOutput would write, read back the way
			// the runner reads a heredoc: up to the first line equal to the
			// delimiter.
			file := fmt.Sprintf("%s<<%s\n%s\n%s\n", tt.key, delim, v, delim)
			if got := readHeredocs(t, file)[tt.key]; got != v {
				t.Errorf("heredoc read back %q, want %q", got, v)
			}
		})
	}
	// What we write, read back the same way.
	got := readHeredocs(t, OutputFile(outs))
	if len(got) != len(out) {
		t.Errorf("OutputFile holds %d outputs, want %d", len(got), len(out))
	}
	for k, v := range out {
		if got[k] != v {
			t.Errorf("OutputFile: %s read back %q, want %q", k, got[k], v)
		}
	}
}

func byName(outs []Output) map[string]string {
	m := map[string]string{}
	for _, o := range outs {
		m[o.Name] = o.Value
	}
	return m
}

// readHeredocs parses a GITHUB_OUTPUT file of "name<<DELIM" entries as the
// runner does: each value runs up to the first line equal to its delimiter.
func readHeredocs(t *testing.T, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		name, d, ok := strings.Cut(lines[i], "<<")
		if !ok || name == "" || d == "" {
			t.Fatalf("bad heredoc head %q", lines[i])
		}
		j := i + 1
		for j < len(lines) && lines[j] != d {
			j++
		}
		if j == len(lines) {
			t.Fatalf("heredoc %s never closed", name)
		}
		out[name] = strings.Join(lines[i+1:j], "\n")
		i = j
	}
	return out
}

// TestOutputFileDelimiterIsFresh: the delimiter is random, so a value cannot
// be written to end the heredoc early.
func TestOutputFileDelimiterIsFresh(t *testing.T) {
	t.Parallel()
	outs := []Output{{Name: "a", Value: "[]"}, {Name: "b", Value: "[]"}}
	heads := map[string]bool{}
	for _, f := range []string{OutputFile(outs), OutputFile(outs)} {
		for _, l := range strings.Split(f, "\n") {
			if strings.Contains(l, "<<") {
				heads[l] = true
			}
		}
	}
	if len(heads) != 4 {
		t.Errorf("want 4 different heredoc heads in two files of two outputs, got %v", heads)
	}
}

// TestOutputsSizeCap: thousands of PRs with long titles fill each output up
// to MaxOutputBytes with whole items, still valid JSON, and say what was cut.
func TestOutputsSizeCap(t *testing.T) {
	t.Parallel()
	const n = 5000
	var r sweep.Result
	for i := range n {
		it := item(i+1, strings.Repeat("<_>", 40)) // each '<', '_', '>' grows to six bytes
		r.Items = append(r.Items, as(sweep.Marked, it)...)
		if i < 3 {
			r.Items = append(r.Items, as(sweep.Closed, it)...)
		}
	}
	outs := Outputs(r)
	for _, o := range outs {
		if len(o.Value) > MaxOutputBytes {
			t.Errorf("%s is %d bytes, over %d", o.Name, len(o.Value), MaxOutputBytes)
		}
		var got []outputPR
		if err := json.Unmarshal([]byte(o.Value), &got); err != nil {
			t.Fatalf("%s is not valid JSON after the cut: %v", o.Name, err)
		}
		if len(got) != o.Kept {
			t.Errorf("%s holds %d items, Kept says %d", o.Name, len(got), o.Kept)
		}
		for i, pr := range got {
			if pr.Number != i+1 || pr.Title != strings.Repeat("<_>", 40) {
				t.Errorf("%s item %d = %+v: not the run's item %d, whole", o.Name, i, pr, i+1)
				break
			}
		}
	}
	staled, closed := outs[0], outs[1]
	if !staled.Truncated() || staled.Total != n || staled.Kept == 0 {
		t.Errorf("%s: kept %d of %d, want a cut list", staled.Name, staled.Kept, staled.Total)
	}
	// Whole items up to the cap: one more would not have fit.
	if next := len(jsonItem(outputPR{Number: n, Title: strings.Repeat("<_>", 40), URL: r.Marked()[0].URL})); len(staled.Value)+1+next <= MaxOutputBytes-10 {
		t.Errorf("%s stopped at %d bytes, with room for another item of %d", staled.Name, len(staled.Value), next)
	}
	if closed.Truncated() || closed.Kept != 3 {
		t.Errorf("%s: kept %d of %d, want all 3", closed.Name, closed.Kept, closed.Total)
	}
	note := TruncationNote(outs)
	if want := fmt.Sprintf("%s lists the first %d of %d pull requests", OutputStaled, staled.Kept, n); !strings.Contains(note, want) {
		t.Errorf("note %q lacks %q", note, want)
	}
	if strings.Contains(note, OutputClosed) {
		t.Errorf("note names %s, which was not cut: %q", OutputClosed, note)
	}
	if TruncationNote(Outputs(sweep.Result{Items: r.Marked()[:3]})) != "" {
		t.Error("a note for outputs that were not cut")
	}
}

func TestOutputsMarkedIncludesNotify(t *testing.T) {
	t.Parallel()
	a, b := item(1, "a_b"), item(2, "c")
	a.Action, b.Action = lifecycle.Mark, lifecycle.Notify
	a.Outcome, b.Outcome = sweep.Marked, sweep.Notified
	got := byName(Outputs(sweep.Result{Items: []sweep.Item{a, b}}))[OutputStaled]
	want := `[{"number":1,"title":"a\u005fb","url":"https://github.com/o/r/pull/1"},{"number":2,"title":"c","url":"https://github.com/o/r/pull/2"}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestPRLine(t *testing.T) {
	t.Parallel()
	close := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		it   sweep.Item
		dry  bool
		want string
	}{
		{"mark", sweep.Item{Number: 12, Title: "title", Action: lifecycle.Mark, Outcome: sweep.Marked, InactiveDays: 120, CloseAt: close}, false,
			`#12 marked stale: inactive 120 days, closes 2027-01-01 — "title"`},
		{"mark dry", sweep.Item{Number: 12, Title: "title", Action: lifecycle.Mark, Outcome: sweep.Marked, InactiveDays: 120}, true,
			`#12 would mark stale: inactive 120 days, never closes — "title"`},
		{"notify", sweep.Item{Number: 3, Title: "t", Action: lifecycle.Notify, Outcome: sweep.Notified, InactiveDays: 9, CloseAt: close}, false,
			`#3 stale notice posted: inactive 9 days, closes 2027-01-01 — "t"`},
		{"unstale", sweep.Item{Number: 4, Title: "t", Action: lifecycle.Unstale, Outcome: sweep.Unstaled, Reason: lifecycle.ReasonPersonActivity}, false,
			`#4 un-staled: activity by a person after the mark — "t"`},
		{"close dry", sweep.Item{Number: 5, Title: "t", Action: lifecycle.Close, Outcome: sweep.Closed, Reason: lifecycle.ReasonCloseDue, InactiveDays: 200}, true,
			`#5 would close: no activity by a person since the mark, inactive 200 days — "t"`},
		{"mark under author-turn", sweep.Item{Number: 12, Title: "t", Action: lifecycle.Mark, Outcome: sweep.Marked, InactiveDays: 40, CloseAt: close, OnAuthorsTurn: true}, false,
			`#12 marked stale: 40 days on the author's turn, closes 2027-01-01 — "t"`},
		{"close under author-turn", sweep.Item{Number: 5, Title: "t", Action: lifecycle.Close, Outcome: sweep.Closed, Reason: lifecycle.ReasonCloseDueAuthorTurn, InactiveDays: 30, OnAuthorsTurn: true}, false,
			`#5 closed: no answer by the author since the mark, 30 days on the author's turn — "t"`},
		{"skip", sweep.Item{Number: 6, Title: "t", Action: lifecycle.Skip, Outcome: sweep.Skipped, Reason: lifecycle.ReasonDraft}, false,
			`#6 skipped: draft — "t"`},
		{"stale", sweep.Item{Number: 7, Title: "t", Action: lifecycle.Keep, Outcome: sweep.StillStale, Reason: lifecycle.ReasonStaleWaiting, InactiveDays: 3, CloseAt: close}, false,
			`#7 still stale: inactive 3 days, closes 2027-01-01 — "t"`},
		{"failed, its comment's outcome unknown", sweep.Item{Number: 8, Title: "t", Action: lifecycle.Close, Outcome: sweep.Failed, Err: "comment on #8: outcome unknown", MaybeWritten: true}, false,
			`#8 failed: perhaps half done: comment on #8: outcome unknown — "t"`},
		{"closed unmarked", sweep.Item{Number: 5, Title: "t", Action: lifecycle.Close, Outcome: sweep.Closed, Reason: lifecycle.ReasonInactive, InactiveDays: 380, Unmarked: true}, false,
			`#5 closed: inactive 380 days — "t"`},
		{"failed", sweep.Item{Number: 8, Title: "t", Action: lifecycle.Mark, Outcome: sweep.Failed, Err: "boom\n::error::x"}, false,
			`#8 failed: boom ::error::x — "t"`},
		{"newline title", sweep.Item{Number: 9, Title: "a\r\n::error::x\"q\"", Action: lifecycle.Skip, Outcome: sweep.Skipped, Reason: lifecycle.ReasonDraft}, false,
			`#9 skipped: draft — "a ::error::x\"q\""`},
		{"old syntax", sweep.Item{Number: 10, Title: "##[add-mask]x ###[error]y", Action: lifecycle.Skip, Outcome: sweep.Skipped, Reason: lifecycle.ReasonDraft}, false,
			`#10 skipped: draft — "# #[add-mask]x ## #[error]y"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PRLine(tt.it, tt.dry); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPRLineHostile(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		for _, o := range []sweep.Outcome{sweep.Marked, sweep.Unstaled, sweep.Closed, sweep.Skipped, sweep.StillStale, sweep.LabelCleaned, sweep.BranchFinished} {
			it := item(42, h)
			it.Outcome, it.Reason = o, lifecycle.Reason(h)
			line := PRLine(it, false)
			if strings.ContainsAny(line, "\r\n\u0085\u2028\u2029") {
				t.Errorf("line break in %q", line)
			}
			if !strings.HasPrefix(line, "#42 ") {
				t.Errorf("line does not start with the PR number: %q", line)
			}
			if cmds := runnerCommands(line + "\n"); len(cmds) > 0 {
				t.Errorf("runner would run %v from %q", cmds, line)
			}
			if n := utf8.RuneCountInString(line); n > 700 {
				t.Errorf("line is %d runes", n)
			}
		}
	}
}

// runnerCommands mimics how the Actions runner reads a step's log
// (src/Runner.Worker/ActionCommandManager.cs): lines end at LF, CR or CRLF; a
// line is a command when it starts with "::" after leading white space, or
// holds "##[" anywhere; while stopped by ::stop-commands::TOKEN only
// "::TOKEN::" (or "##[TOKEN]") is acted on. Zero-width characters are dropped
// first, as .NET's culture-aware string search may ignore them. It returns the
// commands that would run, stop-commands and its resumption excluded.
func runnerCommands(log string) []string {
	log = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(log)
	var cmds []string
	stop := ""
	for _, line := range strings.Split(log, "\n") {
		line = strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, line)
		name, data, ok := parseCommand(line)
		if !ok {
			continue
		}
		switch {
		case stop != "":
			if strings.EqualFold(name, stop) {
				stop = ""
			}
		case name == "stop-commands":
			stop = data
		default:
			cmds = append(cmds, name)
		}
	}
	return cmds
}

func parseCommand(line string) (name, data string, ok bool) {
	if l := strings.TrimLeft(line, " \t"); strings.HasPrefix(l, "::") {
		if end := strings.Index(l[2:], "::"); end >= 0 {
			info := l[2 : 2+end]
			name, _, _ = strings.Cut(info, " ")
			return name, l[2+end+2:], name != ""
		}
	}
	if i := strings.Index(line, "##["); i >= 0 {
		if j := strings.IndexByte(line[i:], ']'); j >= 0 {
			info := line[i+3 : i+j]
			name, _, _ = strings.Cut(info, " ")
			return name, line[i+j+1:], name != ""
		}
	}
	return "", "", false
}

func TestRunnerSimulator(t *testing.T) {
	t.Parallel()
	got := runnerCommands("x\n::error::a\n  ::warning file=x::b\r::stop-commands::T\n::error::c\n::t::\nfoo ##[add-mask]d\n")
	want := []string{"error", "warning", "add-mask"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("simulator: got %v, want %v", got, want)
	}
}

func TestUntrusted(t *testing.T) {
	t.Run("fixed token", func(t *testing.T) {
		defer func(f func() string) { newToken = f }(newToken)
		newToken = func() string { return "abc123" }
		var b strings.Builder
		if err := Untrusted(&b, "::error::x\nline2"); err != nil {
			t.Fatal(err)
		}
		want := "::stop-commands::abc123\n::error::x\nline2\n::abc123::\n"
		if b.String() != want {
			t.Errorf("got %q, want %q", b.String(), want)
		}
	})
	t.Run("random token", func(t *testing.T) {
		tokens := map[string]bool{}
		for range 3 {
			var b strings.Builder
			if err := Untrusted(&b, "a\n"); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			m := regexp.MustCompile(`^::stop-commands::([0-9a-f]{32})$`).FindStringSubmatch(lines[0])
			if m == nil || len(lines) != 3 || lines[1] != "a" || lines[2] != "::"+m[1]+"::" {
				t.Fatalf("bad fence: %q", b.String())
			}
			tokens[m[1]] = true
		}
		if len(tokens) != 3 {
			t.Errorf("tokens repeat: %v", tokens)
		}
	})
	t.Run("hostile", func(t *testing.T) {
		for _, h := range hostile {
			var b strings.Builder
			if err := Untrusted(&b, h); err != nil {
				t.Fatal(err)
			}
			if cmds := runnerCommands(b.String() + "::error::after the fence\n"); fmt.Sprint(cmds) != "[error]" {
				t.Errorf("%q: runner would run %v, want only the command after the fence", h, cmds)
			}
		}
	})
}

func TestCounts(t *testing.T) {
	t.Parallel()
	n := func(o sweep.Outcome, k int) []sweep.Item { return as(o, make([]sweep.Item, k)...) }
	items := func(lists ...[]sweep.Item) []sweep.Item {
		var all []sweep.Item
		for _, l := range lists {
			all = append(all, l...)
		}
		return all
	}
	tests := []struct {
		name string
		r    sweep.Result
		want string
	}{
		{"full", sweep.Result{Items: items(n(sweep.Marked, 3), n(sweep.Unstaled, 1), n(sweep.Closed, 2), n(sweep.StillStale, 4), n(sweep.Skipped, 7)), Requests: 23, Writes: 5, RateLimit: 1000, RateRemaining: 977},
			"marked stale 3, un-staled 1, closed 2, still stale 4, skipped 7, failed 0, labels cleaned 0; 23 requests (5 writes); rate limit 977 of 1000 left"},
		{"unknown rate", sweep.Result{Items: items(n(sweep.Failed, 1), n(sweep.LabelCleaned, 2)), RateRemaining: -1},
			"marked stale 0, un-staled 0, closed 0, still stale 0, skipped 0, failed 1, labels cleaned 2; 0 requests (0 writes); rate limit unknown"},
		{"one request", sweep.Result{Requests: 1, Writes: 1, RateRemaining: -1},
			"marked stale 0, un-staled 0, closed 0, still stale 0, skipped 0, failed 0, labels cleaned 0; 1 request (1 write); rate limit unknown"},
		{"unknown limit", sweep.Result{RateRemaining: 0},
			"marked stale 0, un-staled 0, closed 0, still stale 0, skipped 0, failed 0, labels cleaned 0; 0 requests (0 writes); rate limit 0 left"},
		{"dry stopped", sweep.Result{DryRun: true, Stopped: api.RateLimit, Left: 4, RateLimit: 60, RateRemaining: 0},
			"dry run (nothing was changed): would mark stale 0, would un-stale 0, would close 0, still stale 0, skipped 0, failed 0, labels to clean 0; 0 requests (0 writes); rate limit 0 of 60 left; stopped early (rate limit exceeded), 4 left for the next run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Counts(tt.r); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestFence(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	f := OpenFence(&b)
	for _, h := range hostile {
		it := item(1, h)
		it.Action = lifecycle.Mark
		fmt.Fprintln(&b, PRLine(it, false))
		fmt.Fprintln(&b, h) // even raw untrusted text, as long as it ends its line
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, "::warning::after the fence")
	log := b.String()
	if cmds := runnerCommands(log); fmt.Sprint(cmds) != "[warning]" {
		t.Errorf("runner would run %v, want only the warning after the fence", cmds)
	}
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	m := regexp.MustCompile(`^::stop-commands::([0-9a-f]{32})$`).FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("bad fence opening %q", lines[0])
	}
	if n := strings.Count(log, "::"+m[1]+"::"); n != 1 {
		t.Errorf("fence closed %d times, want once", n)
	}
	var nilFence *Fence
	if err := nilFence.Close(); err != nil {
		t.Errorf("nil Fence Close: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestFenceWriteError(t *testing.T) {
	t.Parallel()
	if err := OpenFence(failWriter{}).Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close = %v, want the write error", err)
	}
	if err := Untrusted(failWriter{}, "x"); err == nil {
		t.Errorf("Untrusted: no error from a failing writer")
	}
}

// quietRun is a run inside a quiet period that held a mark and a close:
// the summary says so, and its next 14 days show them on the period's end.
func quietRun(dry bool) sweep.Result {
	now := time.Date(2026, 12, 28, 12, 0, 0, 0, time.UTC)
	end := time.Date(2027, 1, 7, 0, 0, 0, 0, time.UTC)
	return sweep.Result{Now: now, DryRun: dry, QuietUntil: end, QuietHeld: 2, Considered: 3, ListedAll: true, RateRemaining: -1,
		Items: []sweep.Item{{Outcome: sweep.StillStale, Number: 5, Title: "Waiting", Action: lifecycle.Keep, Reason: lifecycle.ReasonQuiet, CloseAt: end}},
		Queue: []sweep.QueueItem{
			{Number: 5, Title: "Waiting", State: sweep.QueueStale, Since: now.AddDate(0, 0, -20), LastActivity: now.AddDate(0, 0, -50), Due: end},
			{Number: 6, Title: "Old", State: sweep.QueueFresh, Since: now.AddDate(0, 0, -40), LastActivity: now.AddDate(0, 0, -40), Due: end},
			{Number: 7, Title: "Newer", State: sweep.QueueFresh, Since: now.AddDate(0, 0, -20), LastActivity: now.AddDate(0, 0, -20), Due: end.Add(3 * 24 * time.Hour)},
		}}
}

// TestDashboardQuietPeriod: in a quiet period the dashboard says so first,
// under either clock, and its dates are the queue's (the period's end for
// what it holds); outside one it says nothing of it.
func TestDashboardQuietPeriod(t *testing.T) {
	t.Parallel()
	const line = "**Quiet period** (`quiet-periods`) until 2027‑01‑07: nothing is marked, closed or nudged"
	for _, clock := range []lifecycle.StaleClock{lifecycle.ClockInactivity, lifecycle.ClockAuthorTurn} {
		r := quietRun(false)
		r.StaleClock = clock
		d := Dashboard(r)
		if !strings.HasPrefix(d, line) {
			t.Errorf("%s: dashboard does not begin with the quiet period:\n%s", clock, d)
		}
		r.QuietUntil = time.Time{}
		if d := Dashboard(r); strings.Contains(d, "Quiet period") {
			t.Errorf("%s: dashboard outside a quiet period mentions one:\n%s", clock, d)
		}
	}
	if d := Dashboard(quietRun(false)); !strings.Contains(d, "| #6 | Old | 40 days | 2027‑01‑07 |") {
		t.Errorf("the held mark is not on the period's end:\n%s", d)
	}
}

// TestTextQuietPeriod: the terminal's summary says what the job summary
// says of a quiet period, in plain words.
func TestTextQuietPeriod(t *testing.T) {
	t.Parallel()
	want := "Quiet period (quiet-periods) until 2027-01-07: this run marked, closed and nudged nothing, and the clocks do not count its days. " +
		"Marks and closes already due that wait for its end: 2. Un-stales and label clean-ups go on.\n"
	if s := Text(quietRun(false), "o/r"); !strings.Contains(s, want) {
		t.Errorf("text summary lacks %q:\n%s", want, s)
	}
	r := quietRun(false)
	r.QuietUntil = time.Time{}
	if s := Text(r, "o/r"); strings.Contains(s, "Quiet period") {
		t.Errorf("text summary outside a quiet period mentions one:\n%s", s)
	}
}

// PRs GitHub's answer gave in error without their numbers are said on the
// first screen of both summaries.
func TestUnreadPRsAreSaid(t *testing.T) {
	r := sweep.Result{Now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), Unread: 2, RateRemaining: -1, PointsRemaining: -1}
	for name, got := range map[string]string{"markdown": Summary(r, "o/r"), "text": Text(r, "o/r")} {
		if !strings.Contains(got, "left out 2 pull requests or gave them in error") {
			t.Errorf("%s summary does not say 2 PRs were left unread:\n%s", name, got)
		}
	}
	if r.OK() {
		t.Error("OK() = true with PRs left unread")
	}
}
