package main

// Checks of README.md against the code: the inputs table is generated from
// config.Inputs (go test -run TestReadmeInputs -update . rewrites it), every
// input the prose names exists, the migration example and the Flink recipe
// really are one-line changes that stalepr accepts, the recipes' step
// snippets lint, the pictures of what people see are what the code renders,
// and every in-page link and the table of contents lead to real sections.

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/testenv"
)

const readmePath = "README.md"

func readReadme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// section returns the text between <!-- name:start --> and <!-- name:end -->
// and the offsets of that text in md.
func section(t *testing.T, md, name string) (body string, start, end int) {
	t.Helper()
	open, closing := "<!-- "+name+":start -->", "<!-- "+name+":end -->"
	if strings.Count(md, open) != 1 || strings.Count(md, closing) != 1 {
		t.Fatalf("%s must hold %s and %s exactly once each", readmePath, open, closing)
	}
	start = strings.Index(md, open) + len(open)
	end = strings.Index(md, closing)
	if end < start {
		t.Fatalf("%s: %s comes before %s", readmePath, closing, open)
	}
	return md[start:end], start, end
}

// TestReadmeInputs is serial: with -update it writes README.md, which other
// tests read.
func TestReadmeInputs(t *testing.T) {
	md := readReadme(t)
	body, start, end := section(t, md, "inputs")
	want := config.MarkdownTable()
	if strings.TrimSpace(body) == strings.TrimSpace(want) {
		return
	}
	if !testenv.Update() {
		t.Fatalf("the inputs table of %s differs from config.MarkdownTable(); run\n"+
			"  go test -run TestReadmeInputs -update .\nwant:\n%s\ngot:\n%s", readmePath, want, body)
	}
	out := md[:start] + "\n\n" + strings.TrimSpace(want) + "\n\n" + md[end:]
	if err := os.WriteFile(readmePath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote the inputs table of %s", readmePath)
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

// TestReadmeNamesOnlyRealInputs: every input named in the rules, in the
// fairness notes and in the migration guide exists.
func TestReadmeNamesOnlyRealInputs(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	var texts []string
	rulesStart := strings.Index(md, "\n## The rules\n")
	rulesEnd := strings.Index(md, "\n## Inputs\n")
	if rulesStart < 0 || rulesEnd < rulesStart {
		t.Fatalf("%s: cannot find the sections from \"## The rules\" to \"## Inputs\"", readmePath)
	}
	texts = append(texts, md[rulesStart:rulesEnd])
	migration, _, _ := section(t, md, "migration")
	texts = append(texts, stripFencedBlocks(migration))

	seen := 0
	for _, text := range texts {
		for _, m := range inputNameRE.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if notInputs[name] || name == report.OutputStaled || name == report.OutputClosed || name == report.OutputUnstaled || name == report.OutputWrongly {
				continue
			}
			seen++
			if _, ok := config.Lookup(name); !ok {
				t.Errorf("%s names %q, which is not an input", readmePath, m[0])
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
	md := readReadme(t)
	migration, _, _ := section(t, md, "migration")
	docs := markdownWorkflows(readmePath, []byte(migration))
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

// TestReadmeContents: every link to a place in the README (`](#anchor)`)
// leads to a heading or an input's row, no two of them share an anchor, and the table of contents lists every section (##),
// so a section moved, renamed or added cannot leave it behind.
func TestReadmeContents(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	anchors := map[string]bool{}
	var sections []string
	for _, h := range headings(md) {
		anchors[h.anchor] = true
		if h.level == 2 {
			sections = append(sections, h.anchor)
		}
	}
	// The inputs table's rows are anchors too, one per input.
	for _, m := range regexp.MustCompile(`<a name="([^"]+)"></a>`).FindAllStringSubmatch(md, -1) {
		if anchors[m[1]] {
			t.Errorf("%s: the anchor #%s is a heading's and an input's", readmePath, m[1])
		}
		anchors[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`\]\(#([^)\s]+)\)`).FindAllStringSubmatch(md, -1) {
		if !anchors[m[1]] {
			t.Errorf("%s links to #%s, which no heading makes", readmePath, m[1])
		}
	}
	toc := md[strings.Index(md, "\n## Contents\n"):]
	if i := strings.Index(toc[1:], "\n## "); i >= 0 {
		toc = toc[:i+1]
	}
	for _, s := range sections {
		if s != "contents" && !strings.Contains(toc, "](#"+s+")") {
			t.Errorf("the table of contents of %s does not list the section #%s", readmePath, s)
		}
	}
	if len(sections) < 10 {
		t.Errorf("found only %d sections: is the heading pattern broken?", len(sections))
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

// TestReadmePictures: the README's pictures of what people see are what the
// code renders, so they cannot go stale: the stale notice and the closing
// comment are, to the byte, the ones the sandbox posts (the hidden marker
// included: a blockquote hides it as GitHub hides it in a comment), and each
// excerpt of the job summary (parts separated by a line "…") is a part of
// the sandbox run's summary, in order. After a change of wording, copy the
// new text from the failure message.
func TestReadmePictures(t *testing.T) {
	t.Parallel()
	md := readReadme(t)
	posted := sandboxComments(t)
	for _, p := range []struct{ section, marker string }{
		{"notice-picture", "<!-- stalepr:stale "},
		{"close-picture", "<!-- stalepr:close -->"},
	} {
		body, _, _ := section(t, md, p.section)
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
			t.Errorf("the README's %s is not a comment the sandbox posts:\n%s\nit posts, for example:\n%s",
				p.section, got, quote(want[0]))
		}
	}

	summary := goldenRun(t, true, []string{"-sandbox", "testdata/sandbox"})["summary.md"]
	body, _, _ := section(t, md, "summary-picture")
	rest := summary
	parts := strings.Split(unquote(t, "summary-picture", body), "\n…\n")
	for i, part := range parts {
		part = strings.Trim(part, "\n")
		if strings.Count(part, "\n") < 3 {
			t.Errorf("part %d of the summary-picture has fewer than four lines: %q", i+1, part)
		}
		at := strings.Index(rest, part+"\n")
		if at < 0 || i == 0 && at != 0 {
			t.Errorf("part %d of the README's summary-picture is not in the sandbox's job summary after part %d "+
				"(the first part is its start):\n%s\nthe summary:\n%s", i+1, i, part, quote(summary))
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
			t.Fatalf("line %q of the README's %s is not in its blockquote: every line starts with \"> \"", l, name)
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

// TestReadmeStepSnippets lints the README's step snippets (a ```yaml block
// that starts with `- uses: stalepr/stalepr@...`, as the recipes show them)
// as the steps of a workflow: valid YAML and expressions, and only
// inputs the action declares.
func TestReadmeStepSnippets(t *testing.T) {
	t.Parallel()
	lines := strings.Split(readReadme(t), "\n")
	inputs := actionInputs(t, "action.yml")
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
		d := yamlDoc{file: readmePath, line: i + 2 - strings.Count(head, "\n"), src: []byte(b.String())}
		for _, msg := range lintDoc(t, d) {
			t.Error(msg)
		}
		n, problems := checkActionSteps(d, inputs)
		for _, p := range problems {
			t.Error(p)
		}
		if n == 0 {
			t.Errorf("%s: the snippet has no step using %s", d.pos(6), actionRepo)
		}
		i = j
	}
	if snippets < 3 {
		t.Errorf("found %d step snippets, want the recipes' (at least 3): is the pattern broken?", snippets)
	}
}

// TestReadmeMarksPerRun: rule 10 quotes the same number of PRs a default
// run marks as the description of operations-per-run, which
// internal/sweep's TestMarksPerRunAsDocumented measures.
func TestReadmeMarksPerRun(t *testing.T) {
	t.Parallel()
	in, _ := config.Lookup(config.InputOperationsPerRun)
	m := regexp.MustCompile(`mark about (\d+) pull requests`).FindStringSubmatch(in.Description)
	if m == nil {
		t.Fatalf("the description of operations-per-run says no \"mark about N pull requests\": %s", in.Description)
	}
	md := readReadme(t)
	rules := md[strings.Index(md, "\n## The rules\n"):]
	rules = strings.Join(strings.Fields(rules[:strings.Index(rules[1:], "\n## ")+1]), " ")
	if want := "a run marks up to about " + m[1] + " PRs"; !strings.Contains(rules, want) {
		t.Errorf("rule 10 of %s does not say %q, as the description of operations-per-run does", readmePath, want)
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
	md := readReadme(t)
	recipe, _, _ := section(t, md, "flink")
	docs := markdownWorkflows(readmePath, []byte(recipe))
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
	if len(cfg.Warnings) != 1 || !strings.HasPrefix(cfg.Warnings[0], `input "ascending" `) {
		t.Errorf("warnings %q, want the one the recipe names, for ascending", cfg.Warnings)
	}
	if cfg.OperationsPerRun != 500 || cfg.CloseLabel != "closed-stale" {
		t.Errorf("parsed operations-per-run %d, close-pr-label %q; want 500 and closed-stale", cfg.OperationsPerRun, cfg.CloseLabel)
	}
}
