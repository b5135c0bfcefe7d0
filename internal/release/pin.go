package release

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// Image is the project's image, as the release workflow pushes it (its env
// IMAGE; repo_workflows_test.go checks the two agree).
const Image = "ghcr.io/stalepr/stalepr"

// CheckImage says whether v is a runs.image a commit of this repository may
// carry: Dockerfile on main (the action builds itself), or, on a release
// commit, the project's image pinned by digest as pinimage writes it,
// docker://ghcr.io/stalepr/stalepr@sha256:<64 lower-case hex digits>. A tag,
// another image or a malformed digest is refused.
func CheckImage(v string) error {
	if v == "Dockerfile" {
		return nil
	}
	ref, err := ImageRef(v)
	if err != nil {
		return fmt.Errorf("runs.image %q: want Dockerfile (main) or docker://%s@sha256:<digest> (a release commit): %w", v, Image, err)
	}
	if ref != v || !strings.HasPrefix(v, "docker://"+Image+"@") {
		return fmt.Errorf("runs.image %q: want Dockerfile (main) or docker://%s@sha256:<digest> (a release commit)", v, Image)
	}
	return nil
}

// DevImage is how a workflow step on main runs the project's image: by its
// name alone, the newest release the registry has. A release commit pins
// it by digest (PinWorkflow), as action.yml's runs.image.
const DevImage = "docker://" + Image

// CheckWorkflowImage says whether v, the uses: of a workflow step that runs
// the project's image, is one a commit may carry: DevImage on main, or on a
// release commit the image pinned by digest. A tag (which moves, :1 among
// them), another image or a malformed digest is refused.
func CheckWorkflowImage(v string) error {
	if v == DevImage {
		return nil
	}
	const want = "want " + DevImage + " (main) or " + DevImage + "@sha256:<digest> (a release commit)"
	ref, err := ImageRef(v)
	if err != nil {
		return fmt.Errorf("uses: %q: %s: %w", v, want, err)
	}
	if ref != v || !strings.HasPrefix(v, DevImage+"@") {
		return fmt.Errorf("uses: %q: %s", v, want)
	}
	return nil
}

// runsProjectImage reports whether v, a step's uses:, runs the project's image, in either
// form CheckWorkflowImage accepts or with a tag (docker://IMAGE:1).
func runsProjectImage(v string) bool {
	return v == DevImage || strings.HasPrefix(v, DevImage+"@") || strings.HasPrefix(v, DevImage+":")
}

var (
	// A repository name as Docker's reference grammar has it: an optional
	// registry host[:port], then lower-case path components.
	nameRE   = regexp.MustCompile(`^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?/)?[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$`)
	sha256RE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// ImageRef checks an image reference pinned by digest, NAME@sha256:<64 lower-case
// hex digits> with or without docker://, and returns it as runs.image wants it:
// docker://NAME@sha256:....
func ImageRef(image string) (string, error) {
	name, digest, ok := strings.Cut(strings.TrimPrefix(image, "docker://"), "@")
	const want = "want NAME@sha256:<64 lower-case hex digits>, such as ghcr.io/stalepr/stalepr@sha256:" + "0123456789abcdef…"
	switch {
	case !ok:
		return "", fmt.Errorf("image %q is not pinned by digest: %s (a tag can move; the digest of the pushed image is the output `digest` of docker/build-push-action)", image, want)
	case !sha256RE.MatchString(digest):
		return "", fmt.Errorf("image %q: digest %q is not sha256: followed by 64 lower-case hex digits: %s", image, digest, want)
	case !nameRE.MatchString(name):
		return "", fmt.Errorf("image %q: %q is not an image name (lower-case path components, optionally after a registry host; no tag): %s", image, name, want)
	}
	return "docker://" + name + "@" + digest, nil
}

// Pin returns src with the value of runs.image replaced by ref, every other
// byte unchanged, and the value it replaced. ref must come from ImageRef.
func Pin(src []byte, ref string) (out []byte, old string, err error) {
	if _, err := ImageRef(ref); err != nil {
		return nil, "", err
	}
	node, err := runsImage(src)
	if err != nil {
		return nil, "", err
	}
	start, end, err := scalarSpan(src, node, "runs.image")
	if err != nil {
		return nil, "", err
	}
	out = make([]byte, 0, len(src)-(end-start)+len(ref))
	out = append(out, src[:start]...)
	out = append(out, ref...)
	out = append(out, src[end:]...)

	// The splice is checked by reading the result back.
	check, err := runsImage(out)
	if err != nil {
		return nil, "", fmt.Errorf("the rewritten file does not parse: %w", err)
	}
	if check.Value != ref {
		return nil, "", fmt.Errorf("the rewritten file's runs.image reads %q, want %q", check.Value, ref)
	}
	return out, node.Value, nil
}

// runsImage returns the scalar node of runs.image in an action.yml, checking
// that the action is a Docker action.
func runsImage(src []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not an action metadata file: want a YAML mapping with name, description and runs")
	}
	runs, err := mapValue(doc.Content[0], "runs")
	if err != nil {
		return nil, err
	}
	if runs.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: runs is not a mapping", runs.Line)
	}
	using, err := mapValue(runs, "using")
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	if using.Value != "docker" {
		return nil, fmt.Errorf("line %d: runs.using is %q: only a Docker action (using: docker) runs an image", using.Line, using.Value)
	}
	image, err := mapValue(runs, "image")
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	if image.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("line %d: runs.image is not a string", image.Line)
	}
	return image, nil
}

// mapValue returns the value of key in a mapping; the key must be there once.
func mapValue(m *yaml.Node, key string) (*yaml.Node, error) {
	var found *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			if found != nil {
				return nil, fmt.Errorf("line %d: %s is there twice", m.Content[i].Line, key)
			}
			found = m.Content[i+1]
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no %s key", key)
	}
	return found, nil
}

// PinWorkflow returns src, a workflow, with the uses: of every step that
// runs the project's image replaced by ref, every other byte unchanged; n
// is how many it replaced (none is an error: the file would ship a tag).
// ref must come from ImageRef.
func PinWorkflow(src []byte, ref string) (out []byte, n int, err error) {
	if _, err := ImageRef(ref); err != nil {
		return nil, 0, err
	}
	nodes, err := imageSteps(src)
	if err != nil {
		return nil, 0, err
	}
	if len(nodes) == 0 {
		return nil, 0, fmt.Errorf("no step uses %s", DevImage)
	}
	out = src
	// From the last to the first, so that each span's offsets still hold.
	for i := len(nodes) - 1; i >= 0; i-- {
		start, end, err := scalarSpan(out, nodes[i], "uses:")
		if err != nil {
			return nil, 0, err
		}
		out = append(append(append([]byte{}, out[:start]...), ref...), out[end:]...)
	}
	check, err := imageSteps(out)
	if err != nil {
		return nil, 0, fmt.Errorf("the rewritten file does not parse: %w", err)
	}
	for _, c := range check {
		if c.Value != ref {
			return nil, 0, fmt.Errorf("line %d: the rewritten file's uses: reads %q, want %q", c.Line, c.Value, ref)
		}
	}
	if len(check) != len(nodes) {
		return nil, 0, fmt.Errorf("the rewritten file has %d steps running the image, want %d", len(check), len(nodes))
	}
	return out, len(nodes), nil
}

// imageSteps returns the uses: scalars of a workflow's steps that run the
// project's image, in the file's order.
func imageSteps(src []byte) ([]*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not a workflow: want a YAML mapping with on and jobs")
	}
	jobs, err := mapValue(doc.Content[0], "jobs")
	if err != nil {
		return nil, err
	}
	var out []*yaml.Node
	for i := 1; i < len(jobs.Content); i += 2 {
		steps, err := mapValue(jobs.Content[i], "steps")
		if err != nil {
			continue // a job that calls a workflow has no steps
		}
		for _, step := range steps.Content {
			if uses, err := mapValue(step, "uses"); err == nil && uses.Kind == yaml.ScalarNode && runsProjectImage(uses.Value) {
				out = append(out, uses)
			}
		}
	}
	return out, nil
}

// scalarSpan returns the byte offsets of a one-line scalar's text in src,
// quotes included; what names it for an error.
func scalarSpan(src []byte, n *yaml.Node, what string) (start, end int, err error) {
	oneLine := fmt.Errorf("line %d: %s must be a plain or quoted string on one line", n.Line, what)
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) != 0 || n.Anchor != "" {
		return 0, 0, oneLine
	}
	// The node's position: line and column, 1-based, the column in characters.
	lineStart := 0
	for l := 1; l < n.Line; l++ {
		i := bytes.IndexByte(src[lineStart:], '\n')
		if i < 0 {
			return 0, 0, fmt.Errorf("line %d: %s is past the end of the file", n.Line, what)
		}
		lineStart += i + 1
	}
	lineEnd := len(src)
	if i := bytes.IndexAny(src[lineStart:], "\r\n"); i >= 0 {
		lineEnd = lineStart + i
	}
	line := src[lineStart:lineEnd]
	col := 0
	for c := 1; c < n.Column; c++ {
		_, size := utf8.DecodeRune(line[col:])
		if size == 0 {
			return 0, 0, fmt.Errorf("line %d: %s is past the end of its line", n.Line, what)
		}
		col += size
	}
	text := line[col:]
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		end = closingQuote(text, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		end = closingQuote(text, '\'')
	case bytes.HasPrefix(text, []byte(n.Value)):
		// A plain scalar on one line is its own text; where it ends depends
		// on the context (a comment, a flow mapping's comma or brace).
		end = len(n.Value)
	}
	if end <= 0 {
		return 0, 0, oneLine
	}
	// What the span holds must read as the node's value: this catches a
	// multi-line plain scalar and any column mismatch.
	var value string
	if err := yaml.Unmarshal(text[:end], &value); err != nil || value != n.Value {
		return 0, 0, oneLine
	}
	return lineStart + col, lineStart + col + end, nil
}

// closingQuote returns the offset just past the quote that closes the quoted
// scalar starting at text[0], or -1 when it does not close on this line.
func closingQuote(text []byte, q byte) int {
	for i := 1; i < len(text); i++ {
		switch {
		case q == '"' && text[i] == '\\':
			i++
		case text[i] == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++ // '' is a quote inside a single-quoted scalar
		case text[i] == q:
			return i + 1
		}
	}
	return -1
}
