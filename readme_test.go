package main

// Checks of README.md and of the pages under docs/ it links to against the
// code: the inputs table (docs/inputs.md) is generated from config.Inputs
// (go test -run TestReadmeInputs -update . rewrites it) and the README's
// short list of inputs agrees with it, every input the prose names exists,
// the README lists every input actions/stale lacks, the migration example
// and the Flink recipe (docs/migrating.md) really are one-line changes that
// stalepr accepts, the recipes' step snippets lint, the pictures of what
// people see (docs/what-people-see.md) are what the code renders, the README
// keeps to its line budget and to actions/stale's README's word count, the
// migration table's cells stay short, and every link between the pages and
// the table of contents lead to real files and sections.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/testenv"
)

const readmePath = "README.md"

// The pages under docs/ that hold what the tests check beyond the README.
const (
	rulesPath        = "docs/rules.md"           // The rules, Fair to contributors, Whose turn it is
	closureAuditPath = "docs/closure-audit.md"   // Closure audit
	fleetPath        = "docs/fleet.md"           // Fleet
	migratingPath    = "docs/migrating.md"       // the worked example, the Flink recipe, the offline preview
	picturesPath     = "docs/what-people-see.md" // the notice, the closing comment, the job summary
	architecturePath = "docs/architecture.md"    // the imports block
	inputsPath       = "docs/inputs.md"          // the inputs table, generated
)

// The README's line budget: a newcomer reads the adoption part (from the
// top to the end of the Inputs section) in ten minutes; the depth lives in
// docs/.
const (
	readmeAdoptionLines = 400 // the adoption part has fewer lines than this
	readmeLines         = 900 // the whole README has fewer lines than this
)

func readReadme(t *testing.T) string {
	t.Helper()
	return readMarkdown(t, readmePath)
}

// readMarkdown reads a Markdown file of the repository, line ends as \n.
func readMarkdown(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// docPaths lists the README and the pages under docs/, the README first.
func docPaths(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("found %d pages under docs/, want the README's depth (at least 5): %q", len(pages), pages)
	}
	slices.Sort(pages)
	out := []string{readmePath}
	for _, p := range pages {
		out = append(out, filepath.ToSlash(p))
	}
	return out
}

// section returns the text of md (read from file) between
// <!-- name:start --> and <!-- name:end --> and the offsets of that text in md.
func section(t *testing.T, file, md, name string) (body string, start, end int) {
	t.Helper()
	open, closing := "<!-- "+name+":start -->", "<!-- "+name+":end -->"
	if strings.Count(md, open) != 1 || strings.Count(md, closing) != 1 {
		t.Fatalf("%s must hold %s and %s exactly once each", file, open, closing)
	}
	start = strings.Index(md, open) + len(open)
	end = strings.Index(md, closing)
	if end < start {
		t.Fatalf("%s: %s comes before %s", file, closing, open)
	}
	return md[start:end], start, end
}

// fileSection reads file and returns its section name.
func fileSection(t *testing.T, file, name string) string {
	t.Helper()
	body, _, _ := section(t, file, readMarkdown(t, file), name)
	return body
}

// headingSection returns the part of md from the line heading (such as
// "## Migrating from actions/stale") to the next heading of its level or
// above, or to the end.
func headingSection(t *testing.T, file, md, heading string) string {
	t.Helper()
	at := strings.Index("\n"+md, "\n"+heading+"\n")
	if at < 0 {
		t.Fatalf("%s has no heading %q", file, heading)
	}
	rest := md[at:]
	level := len(heading) - len(strings.TrimLeft(heading, "#"))
	lines := strings.Split(rest, "\n")
	fence := false
	for i, l := range lines[1:] {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if n := len(l) - len(strings.TrimLeft(l, "#")); !fence && n > 0 && n <= level && strings.HasPrefix(l[n:], " ") {
			return strings.Join(lines[:i+1], "\n")
		}
	}
	return rest
}

// TestReadmeInputs is serial: with -update it writes docs/inputs.md, which
// other tests read.
func TestReadmeInputs(t *testing.T) {
	md := readMarkdown(t, inputsPath)
	body, start, end := section(t, inputsPath, md, "inputs")
	want := config.MarkdownTable()
	if strings.TrimSpace(body) == strings.TrimSpace(want) {
		return
	}
	if !testenv.Update() {
		t.Fatalf("the inputs table of %s differs from config.MarkdownTable(); run\n"+
			"  go test -run TestReadmeInputs -update .\nwant:\n%s\ngot:\n%s", inputsPath, want, body)
	}
	out := md[:start] + "\n\n" + strings.TrimSpace(want) + "\n\n" + md[end:]
	if err := os.WriteFile(inputsPath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote the inputs table of %s", inputsPath)
}

// TestReadmeShortInputs: the README's list of the most used inputs names
// real inputs, each linked to its row of docs/inputs.md, with the default
// that row gives: a code span is the default itself, an empty cell an empty
// default, and words only stand for a default too long for the list (a
// message's).
func TestReadmeShortInputs(t *testing.T) {
	t.Parallel()
	body := fileSection(t, readmePath, "inputs-short")
	linkRE := regexp.MustCompile("^\\[`([a-z-]+)`\\]\\(" + regexp.QuoteMeta(inputsPath) + "#([a-z-]+)\\)$")
	rows := 0
	for _, l := range strings.Split(strings.TrimSpace(body), "\n")[2:] {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 3 {
			t.Errorf("row %q of the README's short inputs list has %d cells, want 3", l, len(cells))
			continue
		}
		rows++
		for _, link := range strings.Split(cells[0], ", ") {
			m := linkRE.FindStringSubmatch(link)
			if m == nil || m[1] != m[2] {
				t.Errorf("%q in the README's short inputs list is not [`name`](%s#name)", link, inputsPath)
				continue
			}
			in, ok := config.Lookup(m[1])
			if !ok {
				t.Errorf("the README's short inputs list names %s, which is not an input", m[1])
				continue
			}
			def := strings.TrimSpace(cells[1])
			switch {
			case strings.HasPrefix(def, "`") || def == "":
				if want := strings.Trim(def, "`"); in.YAMLDefault() != want {
					t.Errorf("the README's short inputs list gives %s the default %q; it is %q", in.Name, want, in.YAMLDefault())
				}
			case len(in.YAMLDefault()) < 40:
				t.Errorf("the README's short inputs list describes the default of %s in words (%q); write it: `%s`", in.Name, def, in.YAMLDefault())
			}
		}
	}
	if rows < 8 {
		t.Errorf("the README's short inputs list has %d rows: is the pattern broken?", rows)
	}
}

// notInputs are hyphenated names in the README's prose that are neither
// inputs nor outputs.
var notInputs = map[string]bool{
	"x-ratelimit-remaining": true, // response header
	"closed-stale":          true, // a label in the migration example
}

// inputNameRE matches code spans that name an input: `days-before-stale`,
// or `debug-only: true`.
var inputNameRE = regexp.MustCompile("`([a-z]+(?:-[a-z]+)+)(?::[^`]*)?`")

// TestReadmeNamesOnlyRealInputs: every input named in the rules (in full in
// docs/rules.md, in short in the README's More), in the fairness notes, the
// closure audit, the fleet and the migration guide (the README's table and
// lists, docs/migrating.md's worked example and its table of every
// difference) exists.
func TestReadmeNamesOnlyRealInputs(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	texts := []string{
		readMarkdown(t, rulesPath),
		readMarkdown(t, closureAuditPath),
		readMarkdown(t, fleetPath),
		stripFencedBlocks(headingSection(t, readmePath, md, "## Migrating from actions/stale")),
		stripFencedBlocks(headingSection(t, readmePath, md, "## More")),
		stripFencedBlocks(fileSection(t, migratingPath, "migration")),
		fileSection(t, migratingPath, "differences"),
	}

	seen := 0
	for _, text := range texts {
		for _, m := range inputNameRE.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if notInputs[name] || name == report.OutputStaled || name == report.OutputClosed || name == report.OutputUnstaled || name == report.OutputWrongly {
				continue
			}
			seen++
			if _, ok := config.Lookup(name); !ok {
				t.Errorf("the README or docs/ names %q, which is not an input", m[0])
			}
		}
	}
	if seen < 20 {
		t.Errorf("found only %d input names in the rules and the migration guide: is the pattern broken?", seen)
	}
}

// stripFencedBlocks drops ``` blocks from Markdown.
func stripFencedBlocks(md string) string {
	var out []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestReadmeMigrationExample: the guide's before and after workflows differ
// only in the uses: line and the rehearsal's debug-only: true, and stalepr
// accepts every with: key of it with no error and only one warning per
// input without effect, as the guide says.
func TestReadmeMigrationExample(t *testing.T) {
	t.Parallel()
	migration := fileSection(t, migratingPath, "migration")
	docs := markdownWorkflows(migratingPath, []byte(migration))
	if len(docs) != 2 {
		t.Fatalf("the migration guide has %d workflow blocks, want 2 (before and after)", len(docs))
	}
	before, after := string(docs[0].src), string(docs[1].src)
	usesRE := regexp.MustCompile(`(?m)^(\s*- uses: )(\S+)\s*$`)
	bu, au := usesRE.FindAllStringSubmatch(before, -1), usesRE.FindAllStringSubmatch(after, -1)
	if len(bu) != 1 || len(au) != 1 || !strings.HasPrefix(bu[0][2], "actions/stale@") || !strings.HasPrefix(au[0][2], actionRepo+"@") {
		t.Fatalf("want one step `uses: actions/stale@...` before and one `uses: %s@...` after; got %q and %q", actionRepo, bu, au)
	}
	if got := strings.Replace(before, bu[0][0], au[0][0], 1); got != strings.Replace(after, rehearsal, "", 1) {
		t.Errorf("the after block is not the before block with only the uses: line changed and %q added:\nbefore:\n%s\nafter:\n%s", rehearsal, before, after)
	}

	with := stepInputs(t, docs[1].src)
	if len(with) < 10 {
		t.Fatalf("the example passes only %d inputs; it should show a full actions/stale configuration", len(with))
	}
	var issueInputs []string
	for name := range with {
		in, ok := config.Lookup(name)
		if !ok {
			t.Errorf("the example's input %s is not an input of stalepr", name)
		}
		if in.Kind == config.Ignored {
			issueInputs = append(issueInputs, name)
		}
	}
	if len(issueInputs) == 0 {
		t.Error("the example sets no issue-only input: it does not show the warning")
	}

	cfg, err := parseAsRunner(with)
	if err != nil {
		t.Fatalf("stalepr refuses the example's inputs:\n%v", err)
	}
	// One warning per input set without effect: the issue inputs, and
	// ascending when true.
	wantWarned := slices.Clone(issueInputs)
	if strings.EqualFold(with["ascending"], "true") {
		wantWarned = append(wantWarned, "ascending")
	}
	warnedRE := regexp.MustCompile(`^input "([^"]+)" (is ignored|has no effect): `)
	var warned []string
	for _, w := range cfg.Warnings {
		m := warnedRE.FindStringSubmatch(w)
		if m == nil {
			t.Errorf("unexpected warning %q", w)
			continue
		}
		warned = append(warned, m[1])
	}
	slices.Sort(warned)
	slices.Sort(wantWarned)
	if !slices.Equal(warned, wantWarned) {
		t.Errorf("warnings name %v, want one each for %v", warned, wantWarned)
	}
	if n := len(wantWarned); !strings.Contains(migration, fmt.Sprintf("logs %s warnings", numberWord(n))) {
		t.Errorf("the guide does not say the example logs %s warnings", numberWord(n))
	}
	// The guide's prose names the same inputs as the warnings.
	for _, name := range wantWarned {
		if !strings.Contains(stripFencedBlocks(migration), "`"+name+"`") {
			t.Errorf("the guide does not mention %s among the ignored inputs", name)
		}
	}
	p := cfg.Policy
	if p.DaysBeforeStale != 90 || p.DaysBeforeClose != 30 || p.StaleLabel != "stale" || cfg.CloseLabel != "closed-stale" || cfg.OperationsPerRun != 500 {
		t.Errorf("parsed %+v, want 90/30 days, label stale, close label closed-stale, 500 operations", cfg)
	}
}

// stepInputs returns the with: map of the step of a workflow that uses this
// action, values as the runner passes them (the scalar's text).
func stepInputs(t *testing.T, src []byte) map[string]string {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		t.Fatal(err)
	}
	jobs := mapValue(root.Content[0], "jobs")
	if jobs == nil {
		t.Fatal("no jobs")
	}
	var out map[string]string
	for i := 1; i < len(jobs.Content); i += 2 {
		steps := mapValue(jobs.Content[i], "steps")
		if steps == nil {
			continue
		}
		for _, step := range steps.Content {
			uses := mapValue(step, "uses")
			if uses == nil || !usesThisAction(uses.Value) {
				continue
			}
			if out != nil {
				t.Fatal("more than one step uses the action")
			}
			out = map[string]string{}
			with := mapValue(step, "with")
			if with == nil {
				continue
			}
			for k := 0; k+1 < len(with.Content); k += 2 {
				key, val := with.Content[k], with.Content[k+1]
				if val.Kind != yaml.ScalarNode {
					t.Fatalf("input %s is not a scalar", key.Value)
				}
				out[key.Value] = val.Value
			}
		}
	}
	if out == nil {
		t.Fatalf("no step uses %s", actionRepo)
	}
	return out
}

func numberWord(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

// TestReadmeContents: no two places of a page (README.md, docs/*.md) share
// an anchor (a heading's, or an input's row), the README's table of contents
// lists every section (##) of the README, in the README's order, so a
// section moved, renamed or added cannot leave it behind, and the README's
// More links to every page under docs/, so no page is left where nobody
// finds it. That every link leads somewhere is TestDocsLinks's.
func TestReadmeContents(t *testing.T) {
	t.Parallel()
	for _, file := range docPaths(t) {
		md := readMarkdown(t, file)
		heads := map[string]bool{}
		for _, h := range headings(md) {
			heads[h.anchor] = true
		}
		for _, m := range regexp.MustCompile(`<a name="([^"]+)"></a>`).FindAllStringSubmatch(md, -1) {
			if heads[m[1]] {
				t.Errorf("%s: the anchor #%s is a heading's and an input's", file, m[1])
			}
			heads[m[1]] = true
		}
	}

	md := readReadme(t)
	var sections []string
	for _, h := range headings(md) {
		if h.level == 2 {
			sections = append(sections, h.anchor)
		}
	}
	toc := headingSection(t, readmePath, md, "## Contents")
	at := 0
	for _, s := range sections {
		if s == "contents" {
			continue
		}
		i := strings.Index(toc, "](#"+s+")")
		switch {
		case i < 0:
			t.Errorf("the table of contents of %s does not list the section #%s", readmePath, s)
		case i < at:
			t.Errorf("the table of contents of %s lists #%s before the section above it", readmePath, s)
		default:
			at = i
		}
	}
	if len(sections) < 8 {
		t.Errorf("found only %d sections: is the heading pattern broken?", len(sections))
	}
	more := headingSection(t, readmePath, md, "## More")
	for _, page := range docPaths(t)[1:] {
		if !strings.Contains(more, "]("+page+")") {
			t.Errorf("the README's More does not link to %s", page)
		}
	}
}

// TestReadmeOrder: the README reads in the order a newcomer needs it:
// what it does, the quick start, trying it offline, the switch from
// actions/stale, the recipes, troubleshooting, then the reference (the
// inputs and the outputs) and the links to the depth.
func TestReadmeOrder(t *testing.T) {
	t.Parallel()
	var got []string
	for _, h := range headings(readReadme(t)) {
		if h.level == 2 && h.anchor != "contents" {
			got = append(got, h.anchor)
		}
	}
	want := []string{"quick-start", "try-it-offline-and-run-the-tests", "migrating-from-actionsstale",
		"recipes", "troubleshooting", "inputs", "outputs", "more"}
	if !slices.Equal(got, want) {
		t.Errorf("the sections of %s are %q, want %q", readmePath, got, want)
	}
}

// adoptionLines is the number of lines of the README's adoption part: from
// the top up to, not including, the line of the first heading after
// "## Inputs" (of level 2 or above: "## Outputs"). It is -1 when the README
// has no "## Inputs" or nothing after it.
func adoptionLines(md string) int {
	lines := strings.Split(md, "\n")
	fence, inputs := false, false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if l == "## Inputs" {
			inputs = true
			continue
		}
		if inputs && (strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "# ")) {
			return i
		}
	}
	return -1
}

// lineCount counts the lines of a text, the last one with or without its
// line end.
func lineCount(s string) int {
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// TestReadmeLineBudget: the adoption part of the README (see adoptionLines)
// has fewer than readmeAdoptionLines lines and the whole README fewer than
// readmeLines. Past the budget, move depth to a page under docs/.
func TestReadmeLineBudget(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	n := adoptionLines(md)
	if n < 0 {
		t.Fatalf("%s has no \"## Inputs\" followed by another section (## Outputs)", readmePath)
	}
	if n >= readmeAdoptionLines {
		t.Errorf("the adoption part of %s (from the top to the end of its Inputs) has %d lines, want fewer than %d: move depth to docs/",
			readmePath, n, readmeAdoptionLines)
	}
	if all := lineCount(md); all >= readmeLines {
		t.Errorf("%s has %d lines, want fewer than %d: move depth to docs/", readmePath, all, readmeLines)
	}
	t.Logf("%s: adoption part %d lines, whole %d", readmePath, n, lineCount(md))
}

// TestReadmeLineBudgetCounts checks adoptionLines on made-up READMEs, so a
// bug in it cannot make the budget pass on nothing.
func TestReadmeLineBudgetCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		md   string
		want int
	}{
		{"# x\n\n## Inputs\n\ntable\n\n## Outputs\n\nmore\n", 6},
		{"# x\n## Inputs\n### Sub\n```\n## not a heading\n```\n## Outputs\n", 6},
		{"# x\n## Inputs\ntable\n", -1},
		{"# x\n## Outputs\n", -1},
	} {
		if got := adoptionLines(tc.md); got != tc.want {
			t.Errorf("adoptionLines(%q) = %d, want %d", tc.md, got, tc.want)
		}
	}
	if lineCount("a\nb\n") != 2 || lineCount("a\nb") != 2 {
		t.Error("lineCount miscounts")
	}
}

// actionsStaleReadmeWords is the length of actions/stale's README, the
// bound issue #46 set for ours: README.md of github.com/actions/stale at
// commit 9461cb10066d1553762bac6a02599ab8c26b14dd (v10 and one commit,
// 2026-06-30; blob 00abc21a090562448369ea61d7ee2740fbcfb420) has 4,375 words
// as `wc -w` counts them, which is how the issue counted (its v10 tag: 4,369).
const actionsStaleReadmeWords = 4375

// readmeWords counts words as `wc -w` does: runs of characters between
// whitespace, over the whole file. Code blocks, tables and link targets count
// too: the bound was counted so (without its code blocks actions/stale's
// README has 3,776 words), and a reader scrolls past them all the same.
func readmeWords(md string) int { return len(strings.Fields(md)) }

// TestReadmeWordCount: the README is no longer than actions/stale's, in
// words; the depth (every input, every difference from actions/stale, the
// job summary part by part) lives under docs/.
func TestReadmeWordCount(t *testing.T) {
	t.Parallel()
	n := readmeWords(readReadme(t))
	if n > actionsStaleReadmeWords {
		t.Errorf("%s has %d words, more than actions/stale's README (%d): move depth to docs/", readmePath, n, actionsStaleReadmeWords)
	}
	if n < 1000 {
		t.Errorf("%s has %d words: is the count broken?", readmePath, n)
	}
	t.Logf("%s: %d words, actions/stale's %d", readmePath, n, actionsStaleReadmeWords)
}

// TestReadmeWordsCounts checks readmeWords on made-up text, wc -w's answers.
func TestReadmeWordsCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		md   string
		want int
	}{
		{"", 0},
		{"# Title\n\nTwo  words.\n", 4},
		{"| `a` | b |\n|---|---|\n", 6},
		{"```yaml\nkey: value\n```\n", 4},
		{"[text](docs/x.md#y)\tand\r\nmore", 3},
	} {
		if got := readmeWords(tc.md); got != tc.want {
			t.Errorf("readmeWords(%q) = %d, want %d", tc.md, got, tc.want)
		}
	}
}

// readmeCellChars bounds a cell of the README's migration table, in the
// characters GitHub shows (backticks, bold markers and link targets left
// out): one or two lines of a four-column table. A row's detail lives in
// docs/migrating.md, Every difference.
const readmeCellChars = 60

// shownText is a Markdown cell's text as GitHub shows it: without
// backticks, bold markers and link targets.
func shownText(cell string) string {
	cell = regexp.MustCompile(`\]\([^)]*\)`).ReplaceAllString(cell, "]")
	cell = strings.NewReplacer("`", "", "**", "", "[", "", "]", "").Replace(cell)
	return strings.TrimSpace(cell)
}

// TestReadmeMigrationTableCells: every cell of the README's table of what
// changes from actions/stale holds at most readmeCellChars characters, and
// the full table in docs/migrating.md has a row for at least as many
// changes.
func TestReadmeMigrationTableCells(t *testing.T) {
	t.Parallel()
	tableRows := func(md string) [][]string {
		var rows [][]string
		for _, l := range strings.Split(md, "\n") {
			if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| What changes |") {
				continue
			}
			rows = append(rows, strings.Split(strings.Trim(l, "| "), " | "))
		}
		return rows
	}
	short := tableRows(stripFencedBlocks(headingSection(t, readmePath, readReadme(t), "## Migrating from actions/stale")))
	for _, row := range short {
		if len(row) != 4 {
			t.Errorf("the README's migration row %q has %d cells, want 4", row, len(row))
		}
		for _, c := range row {
			if n := utf8.RuneCountInString(shownText(c)); n > readmeCellChars {
				t.Errorf("a cell of the README's migration table shows %d characters, want at most %d (move the detail to %s, Every difference): %s",
					n, readmeCellChars, migratingPath, c)
			}
		}
	}
	full := tableRows(fileSection(t, migratingPath, "differences"))
	if len(short) < 15 || len(full) < len(short) {
		t.Errorf("the README's migration table has %d rows, the full one in %s %d: want at least 15, and the full one no shorter",
			len(short), migratingPath, len(full))
	}
	if got := utf8.RuneCountInString(shownText("[`rule 7`](docs/rules.md) and **500**")); got != 14 {
		t.Errorf("shownText counts %d characters of \"rule 7 and 500\", want 14", got)
	}
}

// mdLinkRE matches an inline Markdown link's target: [text](target).
var mdLinkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// linkProblems checks every relative link of the Markdown files (path to
// text, paths relative to the repository root, slash-separated): it must
// lead to a file or directory that exists (exists says whether one does)
// and, with an anchor, to a heading or an input's row of that Markdown
// file. A link with a scheme (https:, mailto:) is not relative.
func linkProblems(files map[string]string, exists func(string) bool) []string {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := map[string]bool{}
		if md, ok := files[file]; ok {
			for _, h := range headings(md) {
				a[h.anchor] = true
			}
			for _, m := range regexp.MustCompile(`<a name="([^"]+)"></a>`).FindAllStringSubmatch(md, -1) {
				a[m[1]] = true
			}
		}
		anchors[file] = a
		return a
	}
	var problems []string
	names := slices.Sorted(maps.Keys(files))
	for _, file := range names {
		for _, m := range mdLinkRE.FindAllStringSubmatch(stripFencedBlocks(files[file]), -1) {
			target := m[1]
			if regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`).MatchString(target) {
				continue
			}
			p, anchor, _ := strings.Cut(target, "#")
			dest := file
			if p != "" {
				dest = path.Clean(path.Join(path.Dir(file), p))
				if strings.HasPrefix(dest, "../") || dest == ".." {
					problems = append(problems, fmt.Sprintf("%s: the link %s leads out of the repository", file, target))
					continue
				}
				if !exists(dest) {
					problems = append(problems, fmt.Sprintf("%s: the link %s leads to %s, which does not exist", file, target, dest))
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if _, ok := files[dest]; !ok {
				problems = append(problems, fmt.Sprintf("%s: the link %s has an anchor into %s, which is not one of the Markdown pages checked", file, target, dest))
				continue
			}
			if !anchorsOf(dest)[anchor] {
				problems = append(problems, fmt.Sprintf("%s: the link %s leads to #%s, which no heading or input of %s makes", file, target, anchor, dest))
			}
		}
	}
	return problems
}

// TestDocsLinks: every relative link of README.md and docs/*.md leads to a
// file that exists and, with an anchor, to a heading (GitHub's anchor: see
// headings) or an input's row of it.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, p := range docPaths(t) {
		files[p] = readMarkdown(t, p)
	}
	exists := func(p string) bool {
		_, err := os.Stat(filepath.FromSlash(p))
		return err == nil
	}
	links := 0
	for _, md := range files {
		links += len(mdLinkRE.FindAllString(stripFencedBlocks(md), -1))
	}
	if links < 50 {
		t.Errorf("found only %d links in %d pages: is the link pattern broken?", links, len(files))
	}
	for _, p := range linkProblems(files, exists) {
		t.Error(p)
	}
}

// TestLinkProblems checks the link checker on made-up pages, so that a bug
// in it cannot make TestDocsLinks pass on nothing.
func TestLinkProblems(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"README.md": "# stalepr\n\n## Quick start\n\n| <a name=\"days-before-stale\"></a>`days-before-stale` |\n\n" +
			"[ok](#quick-start) [ok](#days-before-stale) [ok](docs/rules.md) [ok](docs/rules.md#whose-turn-it-is)\n" +
			"[ok](https://example.com/#x) [ok](LICENSE) [ok](internal/)\n" +
			"[bad](#quick_start) [bad](docs/rules.md#the-rule) [bad](docs/nope.md) [bad](LICENSE#x)\n" +
			"```\n[fenced, not checked](#nowhere)\n```\n",
		"docs/rules.md": "# The rules\n\n## Whose turn it is?\n\n## Whose turn it is?\n\n" +
			"[ok](../README.md#quick-start) [ok](#whose-turn-it-is-1) [ok](../README.md#days-before-stale)\n" +
			"[bad](README.md) [bad](../README.md#rules) [bad](../../x.md) [bad](#whose-turn-it-is-2)\n",
	}
	exists := func(p string) bool {
		_, ok := files[p]
		return ok || p == "LICENSE" || p == "internal"
	}
	got := linkProblems(files, exists)
	want := []string{
		"README.md: the link #quick_start leads to #quick_start, which no heading or input of README.md makes",
		"README.md: the link docs/rules.md#the-rule leads to #the-rule, which no heading or input of docs/rules.md makes",
		"README.md: the link docs/nope.md leads to docs/nope.md, which does not exist",
		"README.md: the link LICENSE#x has an anchor into LICENSE, which is not one of the Markdown pages checked",
		"docs/rules.md: the link README.md leads to docs/README.md, which does not exist",
		"docs/rules.md: the link ../README.md#rules leads to #rules, which no heading or input of README.md makes",
		"docs/rules.md: the link ../../x.md leads out of the repository",
		"docs/rules.md: the link #whose-turn-it-is-2 leads to #whose-turn-it-is-2, which no heading or input of docs/rules.md makes",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type heading struct {
	level  int
	anchor string
}

// headings lists the Markdown headings outside fenced blocks, each with the
// anchor GitHub gives it: lower case, punctuation dropped but for hyphens
// and underscores, spaces as hyphens, a repeated anchor numbered -1, -2.
func headings(md string) []heading {
	var out []heading
	seen := map[string]int{}
	for _, l := range strings.Split(stripFencedBlocks(md), "\n") {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(l[level:], " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(l[level:])) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		out = append(out, heading{level: level, anchor: a})
	}
	return out
}

// TestReadmePictures: the pictures of what people see
// (docs/what-people-see.md) are what the code renders, so they cannot go stale: the stale notice and the closing
// comment are, to the byte, the ones the sandbox posts (the hidden marker
// included: a blockquote hides it as GitHub hides it in a comment), and each
// excerpt of the job summary (parts separated by a line "…") is a part of
// the sandbox run's summary, in order. After a change of wording, copy the
// new text from the failure message.
func TestReadmePictures(t *testing.T) {
	t.Parallel()
	md := readMarkdown(t, picturesPath)
	posted := sandboxComments(t)
	for _, p := range []struct{ section, marker string }{
		{"notice-picture", "<!-- stalepr:stale "},
		{"close-picture", "<!-- stalepr:close"},
	} {
		body, _, _ := section(t, picturesPath, md, p.section)
		got := unquote(t, p.section, body)
		var want []string
		for _, c := range posted {
			if strings.Contains(c, p.marker) {
				want = append(want, c)
			}
		}
		if len(want) == 0 {
			t.Fatalf("the sandbox posted no comment with %q", p.marker)
		}
		if !slices.Contains(want, got) {
			t.Errorf("the %s of %s is not a comment the sandbox posts:\n%s\nit posts, for example:\n%s",
				p.section, picturesPath, got, quote(want[0]))
		}
	}

	summary := goldenRun(t, true, []string{"-sandbox", "testdata/sandbox"})["summary.md"]
	body, _, _ := section(t, picturesPath, md, "summary-picture")
	rest := summary
	parts := strings.Split(unquote(t, "summary-picture", body), "\n…\n")
	for i, part := range parts {
		part = strings.Trim(part, "\n")
		if strings.Count(part, "\n") < 3 {
			t.Errorf("part %d of the summary-picture has fewer than four lines: %q", i+1, part)
		}
		at := strings.Index(rest, part+"\n")
		if at < 0 || i == 0 && at != 0 {
			t.Errorf("part %d of the summary-picture of %s is not in the sandbox's job summary after part %d "+
				"(the first part is its start):\n%s\nthe summary:\n%s", i+1, picturesPath, i, part, quote(summary))
			return
		}
		rest = rest[at+len(part):]
	}
}

// sandboxComments runs the sandbox's sample (testdata/sandbox) as a workflow
// does and returns the comments the run posted.
func sandboxComments(t *testing.T) []string {
	t.Helper()
	fake, e := sandboxWorkflow(t)
	before := map[int64]bool{}
	for _, is := range fake.Issues() {
		for _, c := range fake.Comments(is.Number) {
			before[c.ID] = true
		}
	}
	if o := runWith(t, e); o.code != 0 {
		t.Fatalf("the sandbox run failed:\n%s", o)
	}
	var out []string
	for _, is := range fake.Issues() {
		for _, c := range fake.Comments(is.Number) {
			if !before[c.ID] {
				out = append(out, c.Body)
			}
		}
	}
	return out
}

// unquote returns the text of the one blockquote that makes up a picture.
func unquote(t *testing.T, name, body string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.Trim(body, "\n"), "\n") {
		if l != ">" && !strings.HasPrefix(l, "> ") {
			t.Fatalf("line %q of the %s of %s is not in its blockquote: every line starts with \"> \"", l, name, picturesPath)
		}
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(l, ">"), " "))
	}
	return strings.Join(out, "\n")
}

// quote is unquote's inverse, for the failure messages.
func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestReadmeStepSnippets checks the step snippets of the README and of
// docs/ (a ```yaml block that starts with `- uses: stalepr/stalepr@...`, as
// the README's recipes show them) as the steps of a workflow: valid YAML and
// only inputs the action declares; .ci/run lints them with actionlint
// (exportForLint).
func TestReadmeStepSnippets(t *testing.T) {
	t.Parallel()
	inputs := actionInputs(t, "action.yml")
	for _, file := range docPaths(t) {
		n := stepSnippets(t, file, inputs)
		if file == readmePath && n < 3 {
			t.Errorf("found %d step snippets in %s, want the recipes' (at least 3): is the pattern broken?", n, file)
		}
	}
}

// stepSnippets checks the step snippets of file (see TestReadmeStepSnippets)
// and returns how many there are.
func stepSnippets(t *testing.T, file string, inputs map[string]bool) int {
	t.Helper()
	lines := strings.Split(readMarkdown(t, file), "\n")
	const head = "on: workflow_dispatch\njobs:\n  stale:\n    runs-on: ubuntu-latest\n    steps:\n"
	snippets := 0
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```yaml" || i+1 >= len(lines) {
			continue
		}
		first := strings.TrimLeft(lines[i+1], " ")
		if !strings.HasPrefix(first, "- uses: "+actionRepo+"@") {
			continue
		}
		indent := len(lines[i+1]) - len(first)
		var b strings.Builder
		b.WriteString(head)
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			l := lines[j]
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			b.WriteString(strings.TrimRight("      "+l, " ") + "\n")
		}
		snippets++
		// The block's first line is line i+2 of the file; head adds 5.
		d := yamlDoc{file: file, line: i + 2 - strings.Count(head, "\n"), src: []byte(b.String())}
		exportForLint(t, d)
		n, problems := checkActionSteps(d, inputs)
		for _, p := range problems {
			t.Error(p)
		}
		if n == 0 {
			t.Errorf("%s: the snippet has no step using %s", d.pos(6), actionRepo)
		}
		i = j
	}
	return snippets
}

// TestReadmeMarksPerRun: rule 10 (docs/rules.md) quotes the same number of
// PRs a default run marks as the description of operations-per-run, which
// internal/sweep's TestMarksPerRunAsDocumented measures.
func TestReadmeMarksPerRun(t *testing.T) {
	t.Parallel()
	in, _ := config.Lookup(config.InputOperationsPerRun)
	m := regexp.MustCompile(`mark about (\d+) pull requests`).FindStringSubmatch(in.Description)
	if m == nil {
		t.Fatalf("the description of operations-per-run says no \"mark about N pull requests\": %s", in.Description)
	}
	// The rules are the page's first part, before its first ## section.
	rules, _, _ := strings.Cut(headingSection(t, rulesPath, readMarkdown(t, rulesPath), "# The rules"), "\n## ")
	rules = strings.Join(strings.Fields(rules), " ")
	if want := "a run marks up to about " + m[1] + " PRs"; !strings.Contains(rules, want) {
		t.Errorf("rule 10 of %s does not say %q, as the description of operations-per-run does", rulesPath, want)
	}
}

// parseAsRunner parses a step's with: values as the runner passes them:
// every input of action.yml, with: values over the defaults.
func parseAsRunner(with map[string]string) (config.Config, error) {
	inputs := map[string]string{}
	for _, in := range config.Inputs {
		inputs[in.Name] = in.YAMLDefault()
	}
	inputs[config.InputRepoToken] = testToken
	inputs[config.InputRepository] = testRepo
	for k, v := range with {
		inputs[k] = v
	}
	return config.Parse(config.Source{
		Input: func(name string) (string, bool) { v, ok := inputs[name]; return v, ok },
		Env:   func(string) string { return "" },
	})
}

// TestReadmeFlinkRecipe: the recipe's workflow is actions/stale's with its
// uses: line switched, stalepr accepts its inputs as a scheduled run passes
// them (an expression `${{ inputs.X || N }}` is N then), and the only warning
// is the one the recipe names, for ascending.
func TestReadmeFlinkRecipe(t *testing.T) {
	t.Parallel()
	_, cfg := flinkRecipe(t)
	if len(cfg.Warnings) != 1 || !strings.HasPrefix(cfg.Warnings[0], `input "ascending" `) {
		t.Errorf("warnings %q, want the one the recipe names, for ascending", cfg.Warnings)
	}
	if cfg.OperationsPerRun != 500 || cfg.CloseLabel != "closed-stale" {
		t.Errorf("parsed operations-per-run %d, close-pr-label %q; want 500 and closed-stale", cfg.OperationsPerRun, cfg.CloseLabel)
	}
}

// TestReadmeFlinkFigures: what the Flink recipe says its first run would
// do on the sandbox with 2,000 generated PRs (a switch day: actions/stale's
// marks among them) is what a rehearsal with its inputs does there.
func TestReadmeFlinkFigures(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	with, _ := flinkRecipe(t)
	said := regexp.MustCompile(`would mark (\d+), un-stale (\d+) and close (\d+),\s+and leave (\d+) to the next`).FindStringSubmatch(fileSection(t, migratingPath, "flink"))
	if said == nil {
		t.Fatal("the Flink recipe does not say what its first run would do")
	}
	dir := t.TempDir()
	repo, err := os.ReadFile(filepath.Join("testdata", "sandbox", "repo.json"))
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := json.Marshal(with)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"repo.json": repo, "inputs.json": inputs} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := runWith(t, env{}, "-sandbox", dir, "-sandbox-synthetic", "2000")
	got := []string{said[0]}
	for _, re := range []string{`would mark stale (\d+)`, `would un-stale (\d+)`, `would close (\d+)`, `(\d+) pull requests? that needs? work(?: \([^)]*\))? (?:were|was) left for the next run`} {
		m := regexp.MustCompile(re).FindStringSubmatch(o.stdout)
		if m == nil {
			t.Fatalf("the run's counts lack %s:\n%s", re, o.stdout)
		}
		got = append(got, m[1])
	}
	if !slices.Equal(said[1:], got[1:]) {
		t.Errorf("the recipe says mark, un-stale, close, leave = %v; the rehearsal did %v", said[1:], got[1:])
	}
}

// TestReadmeFlinkPinnedBySHA: the Flink recipe, an ASF project's, shows its
// uses: line pinned as the ASF requires, by a full commit SHA with the
// release's version in a comment (a step snippet, so actionlint reads it
// too), starting as the switch does, with the rehearsal; and says how to
// find a release's SHA.
func TestReadmeFlinkPinnedBySHA(t *testing.T) {
	t.Parallel()
	recipe := fileSection(t, migratingPath, "flink")
	pinned := regexp.MustCompile("(?m)^```yaml\n(\\s*- uses: " + regexp.QuoteMeta(actionRepo) + `@[0-9a-f]{40} # v\d+\.\d+\.\d+\n\s*with:\n)(.*\n)`).FindStringSubmatch(recipe)
	if pinned == nil {
		t.Fatalf("the Flink recipe of %s shows no step `- uses: %s@<40-hex SHA> # vX.Y.Z`", migratingPath, actionRepo)
	}
	if strings.TrimLeft(pinned[2], " ") != strings.TrimLeft(rehearsal, " ") {
		t.Errorf("the pinned step does not start its with: with the rehearsal %q: %q", strings.TrimSpace(rehearsal), pinned[2])
	}
	if !strings.Contains(recipe, "git ls-remote https://github.com/"+actionRepo+" 'refs/tags/v1.2.3^{}'") {
		t.Errorf("the Flink recipe does not say how to find a release's commit SHA")
	}
}

// flinkRecipe is the Flink recipe's with: inputs, its expressions' fallbacks
// taken, and stalepr's configuration of them.
func flinkRecipe(t *testing.T) (map[string]string, config.Config) {
	t.Helper()
	recipe := fileSection(t, migratingPath, "flink")
	docs := markdownWorkflows(migratingPath, []byte(recipe))
	if len(docs) != 1 {
		t.Fatalf("the Flink recipe has %d workflow blocks, want 1", len(docs))
	}
	before := regexp.MustCompile("`uses: (actions/stale@[^`]+)` became `uses: (" + regexp.QuoteMeta(actionRepo) + "@[^`]+)`").FindStringSubmatch(recipe)
	if before == nil || !strings.Contains(string(docs[0].src), "- uses: "+before[2]+"\n") {
		t.Fatalf("the recipe does not say which uses: line it changed, or its workflow does not use %s", actionRepo)
	}
	with := stepInputs(t, docs[0].src)
	fallback := regexp.MustCompile(`^\$\{\{ inputs\.\w+ \|\| (\d+) \}\}$`)
	for k, v := range with {
		if m := fallback.FindStringSubmatch(v); m != nil {
			with[k] = m[1]
		} else if strings.Contains(v, "${{") {
			t.Fatalf("input %s holds an expression the test cannot evaluate: %s", k, v)
		}
	}
	cfg, err := parseAsRunner(with)
	if err != nil {
		t.Fatalf("stalepr refuses the recipe's inputs:\n%v", err)
	}
	return with, cfg
}

// actionsStaleInputs are the inputs of actions/stale (its action.yml, v9 and
// v10), pull-request, generic and issue-only ones alike.
var actionsStaleInputs = strings.Fields(`repo-token stale-issue-message stale-pr-message close-issue-message
	close-pr-message days-before-stale days-before-issue-stale days-before-pr-stale days-before-close
	days-before-issue-close days-before-pr-close stale-issue-label close-issue-label exempt-issue-labels
	close-issue-reason stale-pr-label close-pr-label exempt-pr-labels exempt-milestones exempt-issue-milestones
	exempt-pr-milestones exempt-all-milestones exempt-all-issue-milestones exempt-all-pr-milestones only-labels
	any-of-labels any-of-issue-labels any-of-pr-labels only-issue-labels only-pr-labels only-issue-types
	operations-per-run remove-stale-when-updated remove-issue-stale-when-updated remove-pr-stale-when-updated
	debug-only ascending sort-by delete-branch start-date exempt-assignees exempt-issue-assignees
	exempt-pr-assignees exempt-all-assignees exempt-all-issue-assignees exempt-all-pr-assignees exempt-draft-pr
	enable-statistics labels-to-add-when-unstale labels-to-remove-when-stale labels-to-remove-when-unstale
	ignore-updates ignore-issue-updates ignore-pr-updates include-only-assigned`)

// actionsStaleOutputs are the outputs of actions/stale.
var actionsStaleOutputs = []string{"staled-issues-prs", "closed-issues-prs"}

// TestReadmeNewInStalepr: the migration guide's "New in stalepr" names
// exactly the inputs and outputs of action.yml that actions/stale does not
// have, so a new input cannot be left out of it; and stalepr accepts every
// input actions/stale has.
func TestReadmeNewInStalepr(t *testing.T) {
	t.Parallel()
	meta := readActionMeta(t)
	for _, name := range actionsStaleInputs {
		if !slices.Contains(meta.inputs, name) {
			t.Errorf("action.yml does not declare %s, an input of actions/stale", name)
		}
	}
	var wantIn, wantOut []string
	for _, name := range meta.inputs {
		if !slices.Contains(actionsStaleInputs, name) {
			wantIn = append(wantIn, name)
		}
	}
	for _, name := range meta.outputs {
		if !slices.Contains(actionsStaleOutputs, name) {
			wantOut = append(wantOut, name)
		}
	}
	migration := headingSection(t, readmePath, readReadme(t), "## Migrating from actions/stale")
	m := regexp.MustCompile(`(?s)New in stalepr: the inputs (.*?),? and the outputs? (.*?)\.\n`).FindStringSubmatch(migration)
	if m == nil {
		t.Fatalf("the README's Migrating from actions/stale has no \"New in stalepr: the inputs ..., and the outputs ... .\"")
	}
	names := func(s string) []string {
		var out []string
		for _, n := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
			out = append(out, n[1])
		}
		slices.Sort(out)
		return out
	}
	slices.Sort(wantIn)
	slices.Sort(wantOut)
	if got := names(m[1]); !slices.Equal(got, wantIn) {
		t.Errorf("New in stalepr lists the inputs\n  %q\nwant those of action.yml that actions/stale lacks:\n  %q", got, wantIn)
	}
	if got := names(m[2]); !slices.Equal(got, wantOut) {
		t.Errorf("New in stalepr lists the outputs %q, want those of action.yml that actions/stale lacks: %q", got, wantOut)
	}
	if len(wantIn) < 10 {
		t.Errorf("only %d inputs of action.yml are not actions/stale's: is the list broken?", len(wantIn))
	}
}

// actionMeta is what action.yml declares: its inputs and outputs, in order.
type actionMeta struct{ inputs, outputs []string }

func readActionMeta(t *testing.T) actionMeta {
	t.Helper()
	b, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	keys := func(name string) []string {
		m := mapValue(root.Content[0], name)
		if m == nil {
			t.Fatalf("action.yml has no %s", name)
		}
		var out []string
		for i := 0; i < len(m.Content); i += 2 {
			out = append(out, m.Content[i].Value)
		}
		return out
	}
	return actionMeta{inputs: keys("inputs"), outputs: keys("outputs")}
}

// TestReadmeFirstWeekFigures: what the migration guide and the fair-mode
// recipe say of the first week is what rehearsals on the sandbox with 2,000
// generated PRs on a switch day do: the Flink recipe's comments on the
// switch day and in the week after it (the job summary's next 14 days), its
// manual run at the form's default of 20 requests and at a smaller first
// batch of 200, and the review nudges the fair-mode recipe leaves due with
// a budget that reaches every PR.
func TestReadmeFirstWeekFigures(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	flink := fileSection(t, migratingPath, "flink")
	with, _ := flinkRecipe(t)
	delete(with, "debug-only") // what the first real run does: the rehearsal's counts as a real run words them
	rehearse := func(inputs map[string]string) string {
		t.Helper()
		dir := t.TempDir()
		repo, err := os.ReadFile(filepath.Join("testdata", "sandbox", "repo.json"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(inputs)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"repo.json": repo, "inputs.json": b} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return runWith(t, env{}, "-sandbox", dir, "-sandbox-synthetic", "2000", "-summary=markdown").stdout
	}
	count := func(summary, outcome string) string {
		t.Helper()
		m := regexp.MustCompile(`\| ` + outcome + ` \| (\d+) \|`).FindStringSubmatch(summary)
		if m == nil {
			t.Fatalf("the rehearsal's counts lack %s:\n%s", outcome, summary)
		}
		return m[1]
	}
	says := func(text, re string) []string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("the docs do not say %s", re)
		}
		return m[1:]
	}
	check := func(what string, said, did []string) {
		t.Helper()
		if !slices.Equal(said, did) {
			t.Errorf("%s: the docs say %v, the rehearsal did %v", what, said, did)
		}
	}

	day := rehearse(with)
	marks, closes := count(day, "Marked stale"), count(day, "Closed")
	m, _ := strconv.Atoi(marks)
	c, _ := strconv.Atoi(closes)
	week := weekAhead(t, day)
	check("the switch day and its week", says(flink, `writes (\d+) comments \((\d+) stale notices\s+and (\d+) closing\s+comments\)[^.]*?has (\d+) more falling due[^:]*: (\d+) in the first week`),
		[]string{strconv.Itoa(m + c), marks, closes, strconv.Itoa(week), strconv.Itoa(m + c + week)})

	small := maps.Clone(with)
	small["operations-per-run"] = "20"
	r := rehearse(small)
	check("the manual run's default", says(flink, `un-stales (\d+) and shows (\d+) marks`), []string{count(r, "Un-staled"), count(r, "Marked stale")})
	small["operations-per-run"] = "200"
	r = rehearse(small)
	check("a smaller first batch", says(flink, `first run un-stales (\d+), closes (\d+) and marks (\d+)`),
		[]string{count(r, "Un-staled"), count(r, "Closed"), count(r, "Marked stale")})

	block := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(headingSection(t, readmePath, readMarkdown(t, readmePath), "### Fair mode: contributors answer only for their own turn"))
	var steps []struct{ With map[string]string }
	if block == nil || yaml.Unmarshal([]byte(block[1]), &steps) != nil || len(steps) != 1 {
		t.Fatal("the fair-mode recipe is not one step's yaml block")
	}
	fair := steps[0].With
	fair["operations-per-run"] = "5000"
	r = rehearse(fair)
	paced := says(r, `(\d+) review nudges due wait for the next runs`)[0]
	n, _ := strconv.Atoi(paced)
	check("the fair-mode recipe's nudges", says(readMarkdown(t, readmePath), `rehearsal, (\d+) more due, (\d+) days of reminders`),
		[]string{paced, strconv.Itoa((n + 19) / 20)})
}

// weekAhead sums the closes and marks of a job summary's next 14 days that
// fall due before the runs of the next 6 days are done: the first row (due
// now) and the rows of the run's day and the 6 after it.
func weekAhead(t *testing.T, summary string) int {
	t.Helper()
	run := regexp.MustCompile(`Run at (\d{4})‑(\d\d)‑(\d\d)`).FindStringSubmatch(summary)
	if run == nil {
		t.Fatalf("the summary has no run date:\n%s", summary)
	}
	start, err := time.Parse("2006-01-02", run[1]+"-"+run[2]+"-"+run[3])
	if err != nil {
		t.Fatal(err)
	}
	cell := func(s string) int {
		n, _ := strconv.Atoi(strings.SplitN(s, ":", 2)[0])
		return n // "—" is 0
	}
	sum := 0
	for _, row := range regexp.MustCompile(`(?m)^\| (due now|\d{4}‑\d\d‑\d\d) \| ([^|]+) \| ([^|]+) \|`).FindAllStringSubmatch(summary, -1) {
		if row[1] != "due now" {
			d, err := time.Parse("2006-01-02", strings.ReplaceAll(row[1], "‑", "-"))
			if err != nil || !d.Before(start.AddDate(0, 0, 7)) {
				continue
			}
		}
		sum += cell(strings.TrimSpace(row[2])) + cell(strings.TrimSpace(row[3]))
	}
	return sum
}

// TestReadmeCommandPictures: the answers to /reopen in
// docs/what-people-see.md are, to the byte, those an issue_comment run
// posts (the fake's address read as github.com's): the reopening's, and
// the one on a PR whose branch is gone.
func TestReadmeCommandPictures(t *testing.T) {
	t.Parallel()
	md := readMarkdown(t, picturesPath)
	w, _ := newWorld(t, false)
	gone := commandedPR(w)
	w.fake.DeleteBranch(w.fake.MustIssue(gone).HeadRef)
	reopened := commandedPR(w)
	for _, k := range []int{gone, reopened} {
		if o := runWith(t, eventEnv(t, w, "issue_comment", commandPayload(k))); o.code != ExitOK {
			t.Fatalf("#%d: exit %d:\n%s", k, o.code, o)
		}
	}
	last := func(k int) string {
		c := w.fake.Comments(k)
		body := strings.ReplaceAll(c[len(c)-1].Body, w.url, "https://github.com")
		// The picture's PR is #1: the number is the only thing that differs.
		return strings.ReplaceAll(body, fmt.Sprintf("pull/%d/head:pr-%d", k, k), "pull/1/head:pr-1")
	}
	for name, want := range map[string]string{"reopened-picture": last(reopened), "gone-picture": last(gone)} {
		body, _, _ := section(t, picturesPath, md, name)
		if got := unquote(t, name, body); got != want {
			t.Errorf("the %s of %s is not the answer a run posts:\n%s\nit posts:\n%s", name, picturesPath, got, quote(want))
		}
	}
}
