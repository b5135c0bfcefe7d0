package main

// Checks of the repository's GitHub Actions YAML: every input a step passes
// to this action, in .github/workflows and in the workflow examples of
// README.md and docs/*.md, must be declared in action.yml. actionlint lints
// the same YAML in .ci/run: the workflows as they are, the examples as
// TestReadmeWorkflows and TestReadmeStepSnippets write them out (see
// exportForLint).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/release"
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

// TestReadmeWorkflows checks the inputs every workflow example of README.md
// and of the pages under docs/ passes to the action, and writes it out for
// actionlint (exportForLint); README.md
// must have at least one such example using the action (the quick start),
// so the test cannot pass on nothing.
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
	lint := func(docs []yamlDoc) (uses int) {
		for _, d := range docs {
			exportForLint(t, d)
			n, problems := checkActionSteps(d, inputs)
			uses += n
			for _, p := range problems {
				t.Error(p)
			}
		}
		return uses
	}
	if lint(docs) == 0 {
		t.Errorf("none of the %d workflow examples in README.md has a step `uses: %s@<ref>`", len(docs), actionRepo)
	}
	pages := 0
	for _, p := range docPaths(t)[1:] {
		docs := markdownWorkflows(p, []byte(readMarkdown(t, p)))
		pages += len(docs)
		lint(docs)
	}
	if pages < 3 {
		t.Errorf("found %d workflow examples under docs/, want at least the migration guide's and the fleet's (3): is the pattern broken?", pages)
	}
}

// TestReadmeWorkflowExtraction checks the checkers themselves on a made-up
// README, so that a bug in them cannot make the tests above pass vacuously:
// nothing else would notice an input check that never reports.
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

// exportForLint writes a workflow example to the directory named by
// $STALEPR_WORKFLOW_EXAMPLES, if set, for .ci/run to lint with actionlint. The
// file starts with blank lines, so that actionlint's line numbers are those of
// the Markdown file (columns are off by a list's indentation); its name says
// which file that is, e.g. docs-fleet.md.L42.yml.
func exportForLint(t *testing.T, d yamlDoc) {
	t.Helper()
	dir := os.Getenv("STALEPR_WORKFLOW_EXAMPLES")
	if dir == "" {
		return
	}
	pad := max(d.line-1, 0)
	src := append(bytes.Repeat([]byte("\n"), pad), d.src...)
	name := fmt.Sprintf("%s.L%d.yml", strings.ReplaceAll(d.file, "/", "-"), d.line)
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
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

// workflowFile parses a workflow of .github/workflows into a YAML node tree.
func workflowFile(t *testing.T, name string) *yaml.Node {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(".github", "workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		t.Fatalf("%s: not a workflow", name)
	}
	return doc.Content[0]
}

// workflowJob is one job of a workflow, as the checks below see it.
type workflowJob struct {
	name  string
	perms map[string]string // scope → read/write; nil when the job sets none
	steps []*yaml.Node
}

func workflowJobs(t *testing.T, wf *yaml.Node) []workflowJob {
	t.Helper()
	jobs := mapValue(wf, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		t.Fatal("no jobs")
	}
	var out []workflowJob
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		j := workflowJob{name: jobs.Content[i].Value}
		if p := mapValue(jobs.Content[i+1], "permissions"); p != nil && p.Kind == yaml.MappingNode {
			j.perms = map[string]string{}
			for k := 0; k+1 < len(p.Content); k += 2 {
				j.perms[p.Content[k].Value] = p.Content[k+1].Value
			}
		}
		if s := mapValue(jobs.Content[i+1], "steps"); s != nil {
			j.steps = s.Content
		}
		out = append(out, j)
	}
	return out
}

var (
	shaPinRE     = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(?:/[^@]+)?@[0-9a-f]{40}$`)
	versionCmtRE = regexp.MustCompile(`^#\s*v\d+\.\d+\.\d+$`)
)

// TestWorkflowActionsPinnedBySHA: every action a workflow runs is pinned by
// the full commit SHA, with the release it is in a `# vX.Y.Z` comment
// (Dependabot updates both). A tag can be moved to other code; a job with
// packages: write or contents: write would run it with that power.
func TestWorkflowActionsPinnedBySHA(t *testing.T) {
	t.Parallel()
	count := 0
	for _, d := range repoWorkflows(t) {
		var root yaml.Node
		if err := yaml.Unmarshal(d.src, &root); err != nil {
			t.Fatalf("%s: %v", d.file, err)
		}
		for _, j := range workflowJobs(t, root.Content[0]) {
			for _, step := range j.steps {
				uses := mapValue(step, "uses")
				if uses != nil && strings.HasPrefix(uses.Value, release.DevImage) {
					// The project's image: by name on main, by digest on a
					// release commit (pinimage), never by a tag that moves.
					count++
					if err := release.CheckWorkflowImage(uses.Value); err != nil {
						t.Errorf("%s: %v", d.pos(uses.Line), err)
					}
					continue
				}
				if uses == nil || strings.HasPrefix(uses.Value, "./") || strings.HasPrefix(uses.Value, "docker://") {
					continue
				}
				if strings.HasPrefix(uses.Value, "stalepr/stalepr@") {
					// The fleet workflow runs this repository's own action:
					// its release tag is ours and moves with the workflow.
					continue
				}
				count++
				if !shaPinRE.MatchString(uses.Value) {
					t.Errorf("%s: uses: %s: pin the action by its full commit SHA (owner/repo@<40 hex> # vX.Y.Z)", d.pos(uses.Line), uses.Value)
				} else if !versionCmtRE.MatchString(strings.TrimSpace(uses.LineComment)) {
					t.Errorf("%s: uses: %s: say which release the SHA is in a comment after it, # vX.Y.Z (got %q)",
						d.pos(uses.Line), uses.Value, uses.LineComment)
				}
			}
		}
	}
	if count == 0 {
		t.Fatal("no step uses an action: is the check broken?")
	}
}

// ghFilterRE turns a GitHub Actions branch/tag filter pattern into a regexp:
// * matches within a path element, ** across, ? and + repeat the character
// or [class] before them, \ escapes, anything else is literal.
func ghFilterRE(pattern string) (*regexp.Regexp, error) {
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*':
			if i+1 < len(pattern) && pattern[i+1] == '*' {
				re.WriteString(".*")
				i++
			} else {
				re.WriteString("[^/]*")
			}
		case '?', '+':
			re.WriteByte(c)
		case '[':
			j := strings.IndexByte(pattern[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", pattern)
			}
			re.WriteString(pattern[i : i+j+1])
			i += j
		case '\\':
			if i+1 < len(pattern) {
				i++
				re.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
			}
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	return regexp.Compile(re.String())
}

// TestReleaseTrigger: the release workflow runs on a push of a full version
// tag and on nothing else, so that moving the major tag v1 cannot start it.
func TestReleaseTrigger(t *testing.T) {
	t.Parallel()
	// The matcher, on GitHub's documented examples.
	for pat, cases := range map[string]map[string]bool{
		"v2*":                 {"v2": true, "v2.0": true, "v2.9": true, "v1": false},
		"v[12].[0-9]+.[0-9]+": {"v1.10.1": true, "v2.0.0": true, "v3.0.0": false, "v1.0": false},
		"feature/*":           {"feature/my-branch": true, "feature/a/b": false},
		"feature/**":          {"feature/a/b": true},
		"*.ya?ml":             {"x.yml": true, "x.yaml": true, "x.yaaml": false},
	} {
		re, err := ghFilterRE(pat)
		if err != nil {
			t.Fatal(err)
		}
		for ref, want := range cases {
			if got := re.MatchString(ref); got != want {
				t.Errorf("filter %q on %q: match %v, want %v", pat, ref, got, want)
			}
		}
	}

	on := mapValue(workflowFile(t, "release.yml"), "on")
	if on == nil || on.Kind != yaml.MappingNode || len(on.Content) != 2 || on.Content[0].Value != "push" {
		t.Fatal("release.yml: want `on: push: tags: [...]` and no other trigger")
	}
	push := on.Content[1]
	tags := mapValue(push, "tags")
	if tags == nil || tags.Kind != yaml.SequenceNode || len(push.Content) != 2 {
		t.Fatal("release.yml: want `on: push:` with tags only (no branches, no paths)")
	}
	var res []*regexp.Regexp
	for _, p := range tags.Content {
		if strings.HasPrefix(p.Value, "!") {
			t.Fatalf("release.yml: tag filter %q: negations are not handled by this test", p.Value)
		}
		re, err := ghFilterRE(p.Value)
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, re)
	}
	matches := func(tag string) bool {
		return slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(tag) })
	}
	for _, tag := range []string{"v1.0.0", "v1.2.3", "v10.20.30"} {
		if !matches(tag) {
			t.Errorf("release.yml does not run on tag %s", tag)
		}
	}
	for _, tag := range []string{"v1", "v12", "v1.2", "v1.2.3-rc.1", "v1.2.3.4", "1.2.3", "v1.2.x", "latest"} {
		if matches(tag) {
			t.Errorf("release.yml runs on tag %s: only full vX.Y.Z tags start a release (v1 is moved by the release itself)", tag)
		}
	}
}

// TestReleasePermissions: the workflow grants nothing by default, and each
// write scope a job asks for is used by one of its steps. A job whose token
// stays in .git/config (checkout's persist-credentials) runs no third-party
// action.
func TestReleasePermissions(t *testing.T) {
	t.Parallel()
	wf := workflowFile(t, "release.yml")
	if p := mapValue(wf, "permissions"); p == nil || p.Kind != yaml.MappingNode || len(p.Content) != 0 {
		t.Error("release.yml: set `permissions: {}` at the top; each job asks for what it needs")
	}
	// What uses each write scope: an action (prefix of uses:) or a command.
	users := map[string][]string{
		"contents":     {"goreleaser/goreleaser-action@", "git push"},
		"packages":     {"docker/build-push-action@", "actions/attest-build-provenance@"},
		"id-token":     {"actions/attest-build-provenance@"},
		"attestations": {"actions/attest-build-provenance@"},
		// Its storage record of an image pushed with the attestation.
		"artifact-metadata": {"actions/attest-build-provenance@"},
	}
	jobs := workflowJobs(t, wf)
	if len(jobs) == 0 {
		t.Fatal("release.yml has no jobs")
	}
	for _, j := range jobs {
		if j.perms == nil {
			t.Errorf("release.yml: job %s: no permissions: (it would get none, or the defaults if the top changes)", j.name)
			continue
		}
		var uses, runs []string
		persisted := false
		for _, step := range j.steps {
			if u := mapValue(step, "uses"); u != nil {
				uses = append(uses, u.Value)
				if strings.HasPrefix(u.Value, "actions/checkout@") {
					pc := mapValue(mapValue(step, "with"), "persist-credentials")
					persisted = persisted || pc == nil || pc.Value != "false"
				}
			}
			if r := mapValue(step, "run"); r != nil {
				runs = append(runs, r.Value)
			}
		}
		for scope, level := range j.perms {
			if level != "write" {
				continue
			}
			want, known := users[scope]
			if !known {
				t.Errorf("release.yml: job %s asks for %s: write, which nothing in this workflow needs", j.name, scope)
				continue
			}
			used := slices.ContainsFunc(want, func(w string) bool {
				return slices.ContainsFunc(uses, func(u string) bool { return strings.HasPrefix(u, w) }) ||
					slices.ContainsFunc(runs, func(r string) bool { return strings.Contains(r, w) })
			})
			if !used {
				t.Errorf("release.yml: job %s asks for %s: write but runs none of %q", j.name, scope, want)
			}
		}
		if persisted {
			for _, u := range uses {
				if !strings.HasPrefix(u, "actions/") {
					t.Errorf("release.yml: job %s keeps the token in .git/config (persist-credentials) and runs %s: "+
						"set persist-credentials: false or move the git push to a job without third-party actions", j.name, u)
				}
			}
		}
	}
}

// TestReleaseAttestationStorageRecord: an attestation pushed to the
// registry also writes an artifact storage record, which needs
// artifact-metadata: write; without it the step warns and the record is
// missing. Each such step turns the record off or its job grants the scope.
func TestReleaseAttestationStorageRecord(t *testing.T) {
	t.Parallel()
	found := 0
	for _, j := range workflowJobs(t, workflowFile(t, "release.yml")) {
		for _, step := range j.steps {
			u := mapValue(step, "uses")
			if u == nil || !strings.HasPrefix(u.Value, "actions/attest-build-provenance@") {
				continue
			}
			with := mapValue(step, "with")
			if push := mapValue(with, "push-to-registry"); push == nil || push.Value != "true" {
				continue // no registry, no record
			}
			found++
			record := mapValue(with, "create-storage-record")
			if (record == nil || record.Value != "false") && j.perms["artifact-metadata"] != "write" {
				t.Errorf("release.yml: job %s attests to the registry, which writes a storage record: "+
					"grant artifact-metadata: write or set create-storage-record: false", j.name)
			}
		}
	}
	if found == 0 {
		t.Error("release.yml: no attestation of the image pushed to the registry")
	}
}

// releaseStep returns the step of job with the given id or uses: prefix.
func releaseStep(t *testing.T, job, key, value string) (*yaml.Node, int) {
	t.Helper()
	for _, j := range workflowJobs(t, workflowFile(t, "release.yml")) {
		if j.name != job {
			continue
		}
		for i, step := range j.steps {
			if v := mapValue(step, key); v != nil && strings.HasPrefix(v.Value, value) {
				return step, i
			}
		}
	}
	t.Fatalf("release.yml: job %s has no step with %s %s", job, key, value)
	return nil, 0
}

// TestReleaseImageTagsNeverMoveBack: the image tags 1 and latest follow the
// rule the git tag v1 follows: a patch of an older line does not move them
// back. The image job computes, before tagging, whether this release is the
// newest of its major version and of all; the rule's script runs here
// against a repository holding the tags, and the tag v1 moves by the same
// answer.
func TestReleaseImageTagsNeverMoveBack(t *testing.T) {
	t.Parallel()
	newest, at := releaseStep(t, "image", "id", "newest")
	meta, metaAt := releaseStep(t, "image", "uses", "docker/metadata-action@")
	if at > metaAt {
		t.Error("release.yml: the step newest must come before the image's tags are computed")
	}
	with := mapValue(meta, "with")
	tags, flavor := mapValue(with, "tags"), mapValue(with, "flavor")
	if tags == nil || !strings.Contains(tags.Value, "type=semver,pattern={{major}},enable=${{ steps.newest.outputs.major }}") {
		t.Errorf("release.yml: the image tag {{major}} must be enabled only by steps.newest.outputs.major; tags:\n%v", tags.Value)
	}
	if regexp.MustCompile(`(?m)^type=semver,pattern=\{\{major\}\}\s*$`).MatchString(tags.Value) {
		t.Error("release.yml: an unconditional {{major}} image tag moves back on a patch of an older line")
	}
	if flavor == nil || !strings.Contains(flavor.Value, "latest=${{ steps.newest.outputs.latest }}") {
		t.Error("release.yml: metadata-action's flavor must set latest=${{ steps.newest.outputs.latest }} (its default, auto, tags every release latest)")
	}
	checkout, _ := releaseStep(t, "image", "uses", "actions/checkout@")
	if d := mapValue(mapValue(checkout, "with"), "fetch-depth"); d == nil || d.Value != "0" {
		t.Error("release.yml: the image job's checkout needs fetch-depth: 0 to see every tag")
	}
	b, err := os.ReadFile(filepath.Join(".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wf := string(b)
	for _, want := range []string{"newest-of-major: ${{ steps.newest.outputs.major }}", "NEWEST: ${{ needs.image.outputs.newest-of-major }}"} {
		if !strings.Contains(wf, want) {
			t.Errorf("release.yml lacks %q: v1 must move by the answer that tagged the image", want)
		}
	}

	// The script, on a repository with releases v1.2.0, v1.3.0 and v2.0.0:
	// a dozen git processes, without -short (CI).
	testenv.Long(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: ", err)
	}
	script := mapValue(newest, "run").Value
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "x")
	for _, tag := range []string{"v1.2.0", "v1.3.0", "v2.0.0", "v1", "v1.9.0-rc.1"} {
		git("tag", tag)
	}
	for tag, want := range map[string]string{
		"v1.2.1":  "major=false\nlatest=false\n", // a patch of an older minor line
		"v1.3.1":  "major=true\nlatest=false\n",  // the newest 1.x, not the newest
		"v2.0.1":  "major=true\nlatest=true\n",
		"v1.10.0": "major=true\nlatest=false\n", // 1.10 is after 1.3, as versions
		"v3.0.0":  "major=true\nlatest=true\n",
	} {
		git("tag", tag) // the workflow runs on the pushed tag
		outFile := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TAG="+tag, "GITHUB_OUTPUT="+outFile, "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: the step fails: %v\n%s", tag, err, out)
		}
		got, _ := os.ReadFile(outFile)
		if string(got) != want {
			t.Errorf("release %s among v1.2.0, v1.3.0, v2.0.0: outputs %q, want %q", tag, got, want)
		}
		git("tag", "-d", tag)
	}
}

// TestReleasePrereleaseReachable: GoReleaser's prerelease: auto marks a
// release with a -rc.N version as a pre-release; with a trigger that takes
// only full vX.Y.Z tags it can never apply, and says what the workflow does
// not do.
func TestReleasePrereleaseReachable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Release struct {
			Prerelease string `yaml:"prerelease"`
		} `yaml:"release"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	tags := mapValue(mapValue(mapValue(workflowFile(t, "release.yml"), "on"), "push"), "tags")
	if tags == nil {
		t.Fatal("release.yml: no on.push.tags")
	}
	takesRC := false
	for _, p := range tags.Content {
		re, err := ghFilterRE(p.Value)
		if err != nil {
			t.Fatal(err)
		}
		takesRC = takesRC || re.MatchString("v1.2.3-rc.1")
	}
	if cfg.Release.Prerelease == "auto" && !takesRC {
		t.Error(".goreleaser.yaml: prerelease: auto can never apply: release.yml runs only on full vX.Y.Z tags; remove it")
	}
}

// TestReleasePinsImage: the release commit's action.yml is written by the
// tested tool (internal/release/pinimage), from the digest the image job
// pushed, and the tag is moved to that commit.
func TestReleasePinsImage(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wf := string(b)
	for _, want := range []string{
		`go run ./internal/release/pinimage -image "$PINNED" action.yml .github/workflows/fleet.yml`,
		"-- action.yml .github/workflows/fleet.yml",
		"steps.build.outputs.digest",
		"needs.image.outputs.digest",
		`git push --force origin "refs/tags/$TAG"`,
	} {
		if !strings.Contains(wf, want) {
			t.Errorf("release.yml lacks %q", want)
		}
	}
	if regexp.MustCompile(`(?m)\bsed\b.*action\.ya?ml`).MatchString(wf) {
		t.Error("release.yml edits action.yml with sed: use go run ./internal/release/pinimage, which refuses a bad digest")
	}
	// The image pushed is the one package release checks a release
	// commit's runs.image against.
	if !regexp.MustCompile(`(?m)^  IMAGE: ` + regexp.QuoteMeta(release.Image) + `\s*$`).MatchString(wf) {
		t.Errorf("release.yml: want env IMAGE: %s, the image a release commit's action.yml names", release.Image)
	}
	// main keeps image: Dockerfile for @main users; a release commit runs
	// the pinned image (internal/config's TestActionYML checks either).
	meta, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^  image: (\S+)\s*$`).FindSubmatch(meta)
	if m == nil {
		t.Fatal("action.yml: no runs.image line")
	}
	if err := release.CheckImage(string(m[1])); err != nil {
		t.Errorf("action.yml: %v", err)
	}
}

// TestGoReleaserConfig: the release's binaries are built like the image's
// (static, -trimpath, stripped, version stamped) for Linux, macOS and
// Windows on amd64 and arm64, and the checksums file is the one the
// workflow attests.
func TestGoReleaserConfig(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Env     []string `yaml:"env"`
			Flags   []string `yaml:"flags"`
			Ldflags []string `yaml:"ldflags"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
		} `yaml:"builds"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 {
		t.Errorf(".goreleaser.yaml: version %d, want 2 (the workflow runs GoReleaser v2)", cfg.Version)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %d builds, want 1", len(cfg.Builds))
	}
	bld := cfg.Builds[0]
	if bld.Main != "." {
		t.Errorf(".goreleaser.yaml: main %q, want .", bld.Main)
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(bld.Goos, goos) {
			t.Errorf(".goreleaser.yaml: no %s build", goos)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		if !slices.Contains(bld.Goarch, arch) {
			t.Errorf(".goreleaser.yaml: no %s build", arch)
		}
	}
	if !slices.Contains(bld.Env, "CGO_ENABLED=0") {
		t.Error(".goreleaser.yaml: builds without CGO_ENABLED=0 are not static")
	}
	if !slices.Contains(bld.Flags, "-trimpath") {
		t.Error(".goreleaser.yaml: builds without -trimpath")
	}
	if !slices.Contains(bld.Flags, "-tags=release") {
		t.Error(".goreleaser.yaml: builds without -tags=release (the image's build leaves the sandbox out)")
	}
	ld := strings.Join(bld.Ldflags, " ")
	if !strings.Contains(ld, "-s -w") || !strings.Contains(ld, "-X main.version={{ .Tag }}") {
		t.Errorf(".goreleaser.yaml: ldflags %q, want -s -w and -X main.version={{ .Tag }} (the tag, v included, as the image's VERSION)", ld)
	}

	wf, err := os.ReadFile(filepath.Join(".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Checksum.NameTemplate == "" || !strings.Contains(string(wf), "subject-checksums: dist/"+cfg.Checksum.NameTemplate) {
		t.Errorf("release.yml does not attest dist/%s, the checksums file of .goreleaser.yaml", cfg.Checksum.NameTemplate)
	}
}

// TestGoVersionAgrees: the Go version README.md (and any page under docs/)
// asks for is go.mod's go directive (a trailing .0 may be left out), and the
// release builds with that minor version's latest patch.
func TestGoVersionAgrees(t *testing.T) {
	t.Parallel()
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)\s*$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	goVersion := strings.TrimSuffix(string(m[1]), ".0")
	minor := goModMinor(t)

	goRE := regexp.MustCompile(`\bGo \((\d+\.\d+(?:\.\d+)?) or later\)`)
	if !goRE.MatchString(readReadme(t)) {
		t.Fatal(`README.md does not say which Go it needs, as "Go (1.N or later)"`)
	}
	for _, file := range docPaths(t) {
		for _, s := range goRE.FindAllStringSubmatch(readMarkdown(t, file), -1) {
			if s[1] != goVersion {
				t.Errorf("%s says %q, go.mod says go %s: make them agree", file, s[0], m[1])
			}
		}
	}

	wf, err := os.ReadFile(filepath.Join(".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range regexp.MustCompile(`go-version:\s*'?([0-9.x]+)'?`).FindAllStringSubmatch(string(wf), -1) {
		if v[1] != minor+".x" {
			t.Errorf("release.yml: go-version %s, want %s.x (go.mod's minor version, newest patch)", v[1], minor)
		}
	}
}

// TestFleetWorkflowTokens: every App token of the fleet workflow is made
// with client-id (app-id is deprecated); each sweep job's token is scoped
// to the one repository it sweeps, with only the permissions stalepr needs;
// the matrix carries that repository's name.
func TestFleetWorkflowTokens(t *testing.T) {
	t.Parallel()
	wf := workflowFile(t, "fleet.yml")
	tokens := 0
	for _, j := range workflowJobs(t, wf) {
		for _, step := range j.steps {
			uses := mapValue(step, "uses")
			if uses == nil || !strings.HasPrefix(uses.Value, "actions/create-github-app-token@") {
				continue
			}
			tokens++
			with := mapValue(step, "with")
			if mapValue(with, "app-id") != nil || mapValue(with, "client-id") == nil {
				t.Errorf("job %s: create-github-app-token with app-id (deprecated) or without client-id", j.name)
			}
			if j.name != "sweep" {
				continue
			}
			if r := mapValue(with, "repositories"); r == nil || r.Value != "${{ matrix.name }}" {
				t.Errorf("job sweep: the token is not scoped to the repository swept (repositories: ${{ matrix.name }})")
			}
			for _, p := range []string{"permission-pull-requests", "permission-issues", "permission-contents"} {
				if mapValue(with, p) == nil {
					t.Errorf("job sweep: the token's %s is not set: it would get every permission of the App", p)
				}
			}
		}
	}
	if tokens != 2 {
		t.Errorf("%d create-github-app-token steps, want 2 (list, sweep)", tokens)
	}
}

// TestWorkflowJobsOutlastRunTimeout: a job of this repository's workflows
// that runs the action gives it more time than run-timeout's default plus a
// margin (the image pull, the App token, the fleet's file read, a write in
// flight at the deadline): run-timeout is the clean stop that writes the
// summary and outputs, and a job cancelled at timeout-minutes first loses
// them (README: "Keep it below the job's timeout-minutes").
func TestWorkflowJobsOutlastRunTimeout(t *testing.T) {
	t.Parallel()
	in, ok := config.Lookup("run-timeout")
	if !ok {
		t.Fatal("no input run-timeout")
	}
	def, err := time.ParseDuration(in.Default)
	if err != nil {
		t.Fatal(err)
	}
	const margin = 5 * time.Minute
	for _, name := range []string{"ci.yml", "fleet.yml", "release.yml"} {
		wf := workflowFile(t, name)
		jobs := mapValue(wf, "jobs")
		for i := 0; i+1 < len(jobs.Content); i += 2 {
			job := jobs.Content[i+1]
			runs := false
			steps := mapValue(job, "steps")
			if steps == nil {
				continue
			}
			for _, step := range steps.Content {
				if uses := mapValue(step, "uses"); uses != nil && usesThisAction(uses.Value) {
					runs = true
				}
			}
			tm := mapValue(job, "timeout-minutes")
			if !runs || tm == nil {
				continue
			}
			n, err := strconv.Atoi(tm.Value)
			if err != nil {
				t.Errorf("%s job %s: timeout-minutes %q is not a number", name, jobs.Content[i].Value, tm.Value)
				continue
			}
			if got := time.Duration(n) * time.Minute; got < def+margin {
				t.Errorf("%s job %s: timeout-minutes %d, want at least %s: run-timeout's default %s plus %s, so that the run stops cleanly before the job is cancelled",
					name, jobs.Content[i].Value, n, def+margin, def, margin)
			}
		}
	}
}
