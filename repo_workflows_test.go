package main

// Checks of the repository's GitHub Actions YAML: the workflows in
// .github/workflows and the workflow examples in README.md are linted with
// actionlint (as a library, offline: shellcheck and pyflakes are off), and
// every input a step passes to this action must be declared in action.yml.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v4"
)

// actionRepo is how workflows outside this repository refer to the action.
const actionRepo = "stalepr/stalepr"

// yamlDoc is a workflow to check: a file, or a fenced block of a Markdown file.
type yamlDoc struct {
	file string // path shown in messages, relative to the repository root
	line int    // line of file holding the first line of src (1 for a whole file)
	src  []byte
}

func (d yamlDoc) pos(line int) string { return fmt.Sprintf("%s:%d", d.file, d.line+line-1) }

func TestWorkflowsLint(t *testing.T) {
	t.Parallel()
	docs := repoWorkflows(t)
	for _, d := range docs {
		for _, msg := range lintDoc(t, d) {
			t.Error(msg)
		}
	}
}

func TestWorkflowsUseDeclaredInputs(t *testing.T) {
	t.Parallel()
	inputs := actionInputs(t, "action.yml")
	for _, d := range repoWorkflows(t) {
		_, problems := checkActionSteps(d, inputs)
		for _, p := range problems {
			t.Error(p)
		}
	}
}

// TestReadmeWorkflows lints every workflow example of README.md and checks the
// inputs it passes to the action; README.md must have at least one such
// example using the action, so the test cannot pass on nothing.
func TestReadmeWorkflows(t *testing.T) {
	t.Parallel()
	md, err := os.ReadFile("README.md")
	if os.IsNotExist(err) {
		t.Fatal("README.md does not exist: it must document the action with at least one ```yaml workflow example " +
			"(a block with jobs: and a step `uses: " + actionRepo + "@<ref>`), which this test lints")
	}
	if err != nil {
		t.Fatal(err)
	}
	docs := markdownWorkflows("README.md", md)
	if len(docs) == 0 {
		t.Fatal("README.md has no ```yaml block holding a workflow (a line starting with jobs:): " +
			"the usage example must be a complete workflow so it can be linted")
	}
	inputs := actionInputs(t, "action.yml")
	uses := 0
	for _, d := range docs {
		for _, msg := range lintDoc(t, d) {
			t.Error(msg)
		}
		n, problems := checkActionSteps(d, inputs)
		uses += n
		for _, p := range problems {
			t.Error(p)
		}
	}
	if uses == 0 {
		t.Errorf("none of the %d workflow examples in README.md has a step `uses: %s@<ref>`", len(docs), actionRepo)
	}
}

// TestReadmeWorkflowExtraction checks the checkers themselves on a made-up
// README, so that a bug in them cannot make the tests above pass vacuously.
func TestReadmeWorkflowExtraction(t *testing.T) {
	t.Parallel()
	md := strings.Join([]string{
		"# Title", // 1
		"",        // 2
		"```yaml", // 3
		"name: not a workflow",
		"```",
		"",
		"1. In a list:",
		"",
		"   ```yml", // 9
		"   on: push",
		"   jobs:",
		"     a:",
		"       runs-on: ubuntu-latest",
		"       steps:",
		"         - uses: stalepr/stalepr@v1",
		"           with:",
		"             days-before-stale: 30",
		"             no-such-input: x", // 18
		"   ```",
		"",
		"~~~~ YAML title=x", // 21
		"on: push",
		"jobs:",
		"  a:",
		"    runs-on: ubuntu-latest",
		"    steps:",
		"      - run: echo ${{ github.nope }}", // 27
		"      - uses: ./",
		"        with:",
		"          Days-Before-Stale: 1",
		"          other: 2", // 31
		"      - uses: actions/checkout@v6",
		"        with:",
		"          foo: bar",
		"      - run: |",
		"          ```", // not a closing fence for ~~~~
		"~~~~",
		"```go",
		"jobs:",
		"```",
	}, "\n")
	docs := markdownWorkflows("README.md", []byte(md))
	if len(docs) != 2 {
		t.Fatalf("found %d workflow blocks, want 2: %+v", len(docs), docs)
	}
	if docs[0].line != 10 || docs[1].line != 22 {
		t.Errorf("blocks start at lines %d and %d, want 10 and 22", docs[0].line, docs[1].line)
	}
	if !bytes.HasPrefix(docs[0].src, []byte("on: push\njobs:\n  a:\n")) {
		t.Errorf("list indentation not removed:\n%s", docs[0].src)
	}

	inputs := map[string]bool{"days-before-stale": true}
	var all []string
	count := 0
	for _, d := range docs {
		n, problems := checkActionSteps(d, inputs)
		count += n
		all = append(all, problems...)
	}
	if count != 2 {
		t.Errorf("counted %d steps using the action, want 2", count)
	}
	want := []string{
		`README.md:18: input "no-such-input" of stalepr/stalepr@v1 is not declared in action.yml`,
		`README.md:31: input "other" of ./ is not declared in action.yml`,
	}
	if !slices.Equal(all, want) {
		t.Errorf("input problems:\n%s\nwant:\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}

	msgs := lintDoc(t, docs[1])
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0], "README.md:27:") {
		t.Errorf("actionlint messages for the bad expression: %q, want one at README.md:27", msgs)
	}
}

// repoWorkflows returns the files of .github/workflows; there must be some.
func repoWorkflows(t *testing.T) []yamlDoc {
	t.Helper()
	var files []string
	for _, pat := range []string{"*.yml", "*.yaml"} {
		m, err := filepath.Glob(filepath.Join(".github", "workflows", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no workflow in .github/workflows")
	}
	slices.Sort(files)
	docs := make([]yamlDoc, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, yamlDoc{file: filepath.ToSlash(f), line: 1, src: b})
	}
	return docs
}

var (
	fenceRE = regexp.MustCompile("^(`{3,}|~{3,})[ \t]*([^ \t`]*)")
	jobsRE  = regexp.MustCompile(`(?m)^jobs:`)
)

// markdownWorkflows returns the fenced ```yaml (or yml) blocks of a Markdown
// document that hold a workflow, i.e. a line starting with "jobs:". Fences
// indented by a list are handled: their indentation is removed from the block.
func markdownWorkflows(file string, md []byte) []yamlDoc {
	lines := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	var docs []yamlDoc
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		indent := len(lines[i]) - len(trimmed)
		m := fenceRE.FindStringSubmatch(trimmed)
		if m == nil {
			continue
		}
		fence, lang := m[1], strings.ToLower(m[2])
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if isClosingFence(lines[j], fence) {
				break
			}
			// Remove up to the opening fence's indentation.
			l := lines[j]
			k := 0
			for k < indent && k < len(l) && l[k] == ' ' {
				k++
			}
			body = append(body, l[k:])
		}
		if lang == "yaml" || lang == "yml" {
			src := strings.Join(body, "\n") + "\n"
			if jobsRE.MatchString(src) {
				docs = append(docs, yamlDoc{file: file, line: i + 2, src: []byte(src)})
			}
		}
		i = j
	}
	return docs
}

// isClosingFence reports whether line closes a block opened by fence: the
// same character, at least as many times, and nothing else.
func isClosingFence(line, fence string) bool {
	l := strings.Trim(line, " \t")
	return len(l) >= len(fence) && strings.Count(l, fence[:1]) == len(l)
}

var actionlintMu sync.Mutex

// lintDoc runs actionlint on one workflow and returns its errors as
// "file:line:col: message [rule]". It runs offline: no shellcheck or pyflakes,
// and actions are only looked up in actionlint's built-in data and, for
// `uses: ./`, in this repository's action.yml.
func lintDoc(t *testing.T, d yamlDoc) []string {
	t.Helper()
	// actionlint.NewLinter sets a package variable (its colour mode): two
	// linters at once are a data race, so parallel tests lint one at a time.
	actionlintMu.Lock()
	defer actionlintMu.Unlock()
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	linter, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{
		Shellcheck: "", // empty: the shellcheck rule is skipped
		Pyflakes:   "", // empty: the pyflakes rule is skipped
		Color:      actionlint.ColorOptionKindNever,
		WorkingDir: root,
	})
	if err != nil {
		t.Fatal(err)
	}
	project, err := actionlint.NewProject(root)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := linter.Lint(d.file, d.src, project)
	if err != nil {
		t.Fatalf("%s: actionlint: %v", d.pos(1), err)
	}
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, fmt.Sprintf("%s:%d: %s [%s]", d.pos(e.Line), e.Column, e.Message, e.Kind))
	}
	return msgs
}

// actionInputs returns the input names declared in an action.yml, lower-cased
// (GitHub compares input names case-insensitively).
func actionInputs(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the action metadata: %v", err)
	}
	var meta struct {
		Inputs map[string]yaml.Node `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &meta); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(meta.Inputs) == 0 {
		t.Fatalf("%s declares no inputs", path)
	}
	inputs := make(map[string]bool, len(meta.Inputs))
	for name := range meta.Inputs {
		inputs[strings.ToLower(name)] = true
	}
	return inputs
}

// checkActionSteps finds the steps of a workflow that use this action
// (stalepr/stalepr@ref or ./) and reports each with: key that is not in
// inputs. It returns how many such steps there are.
func checkActionSteps(d yamlDoc, inputs map[string]bool) (int, []string) {
	var root yaml.Node
	if err := yaml.Unmarshal(d.src, &root); err != nil {
		return 0, []string{fmt.Sprintf("%s: not valid YAML: %v", d.pos(1), err)}
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return 0, []string{d.pos(1) + ": empty YAML document"}
	}
	var problems []string
	count := 0
	jobs := mapValue(root.Content[0], "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return 0, []string{d.pos(1) + ": no jobs mapping"}
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		steps := mapValue(jobs.Content[i], "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			continue
		}
		for _, step := range steps.Content {
			uses := mapValue(step, "uses")
			if uses == nil || !usesThisAction(uses.Value) {
				continue
			}
			count++
			with := mapValue(step, "with")
			if with == nil || with.Kind != yaml.MappingNode {
				continue
			}
			for k := 0; k < len(with.Content); k += 2 {
				key := with.Content[k]
				if !inputs[strings.ToLower(key.Value)] {
					problems = append(problems, fmt.Sprintf("%s: input %q of %s is not declared in action.yml",
						d.pos(key.Line), key.Value, uses.Value))
				}
			}
		}
	}
	return count, problems
}

func usesThisAction(uses string) bool {
	return strings.HasPrefix(strings.ToLower(uses), actionRepo+"@") || uses == "./" || uses == "."
}

// mapValue returns the value of key in a mapping node, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
