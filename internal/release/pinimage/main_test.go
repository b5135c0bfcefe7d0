package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/release"
	"go.yaml.in/yaml/v4"
)

const (
	digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	image  = "ghcr.io/stalepr/stalepr@" + digest
	ref    = "docker://" + image
)

// TestPinRepositoryActionYML rewrites the repository's own action.yml as the
// release workflow does: only runs.image changes, every other byte stays.
func TestPinRepositoryActionYML(t *testing.T) {
	src := mainActionYML(t)
	out, old, err := release.Pin(src, ref)
	if err != nil {
		t.Fatalf("Pin: %v", err)
	}
	if old != "Dockerfile" {
		t.Errorf("replaced %q, want Dockerfile (main keeps image: Dockerfile for @main users)", old)
	}
	assertOnlyImageChanged(t, src, out, old, ref)

	// Every key but runs.image reads the same.
	var before, after map[string]any
	if err := yaml.Unmarshal(src, &before); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(out, &after); err != nil {
		t.Fatalf("the rewritten action.yml does not parse: %v", err)
	}
	if got := after["runs"].(map[string]any)["image"]; got != ref {
		t.Errorf("runs.image = %v, want %s", got, ref)
	}
	after["runs"].(map[string]any)["image"] = old
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Error("keys other than runs.image changed")
	}
}

// mainActionYML is the repository's action.yml as main has it (runs.image:
// Dockerfile), also on a release commit, whose pinned image it puts back:
// a release passes its own tests.
func mainActionYML(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^  image: (\S+)$`)
	m := line.FindSubmatch(src)
	if m == nil {
		t.Fatal("action.yml: no runs.image line")
	}
	if err := release.CheckImage(string(m[1])); err != nil {
		t.Fatal(err)
	}
	return line.ReplaceAll(src, []byte("  image: Dockerfile"))
}

// assertOnlyImageChanged checks that out is src with the value old of
// runs.image replaced by ref: the bytes before and after it are identical.
func assertOnlyImageChanged(t *testing.T, src, out []byte, old, ref string) {
	t.Helper()
	p := 0 // common prefix
	for p < len(src) && p < len(out) && src[p] == out[p] {
		p++
	}
	s := 0 // common suffix, not overlapping the prefix
	for s < len(src)-p && s < len(out)-p && src[len(src)-1-s] == out[len(out)-1-s] {
		s++
	}
	removed, added := string(src[p:len(src)-s]), string(out[p:len(out)-s])
	if !strings.Contains(old, removed) || !strings.Contains(ref, added) {
		t.Errorf("the rewrite replaced %q with %q: want only the image %q replaced with %q", removed, added, old, ref)
	}
	line := bytes.Count(src[:p], []byte("\n")) + 1
	if !bytes.HasPrefix(bytes.TrimLeft(src[bytes.LastIndexByte(src[:p], '\n')+1:], " "), []byte("image: "+old)) {
		t.Errorf("the rewrite changed line %d, which is not runs.image", line)
	}
	if strings.Count(string(out), ref) != 1 {
		t.Errorf("the output holds %s %d times, want once", ref, strings.Count(string(out), ref))
	}
}

// TestPinStyles: the value is replaced whatever its quoting, with a comment
// after it, CRLF line endings or non-ASCII text before it on the line.
func TestPinStyles(t *testing.T) {
	head := "name: x\ndescription: 'Dockerfile here too: image: Dockerfile'\n"
	for _, tc := range []struct{ name, in, want string }{
		{"plain", head + "runs:\n  using: docker\n  image: Dockerfile\n",
			head + "runs:\n  using: docker\n  image: " + ref + "\n"},
		{"no final newline", head + "runs:\n  using: docker\n  image: Dockerfile",
			head + "runs:\n  using: docker\n  image: " + ref},
		{"single quotes", head + "runs:\n  image: 'Docker''file'\n  using: docker\n",
			head + "runs:\n  image: " + ref + "\n  using: docker\n"},
		{"double quotes", head + "runs:\n  using: \"docker\"\n  image: \"Docker\\x66ile\"  # built on every run\n",
			head + "runs:\n  using: \"docker\"\n  image: " + ref + "  # built on every run\n"},
		{"comment", head + "runs:\n  using: docker\n  image: Dockerfile # built on every run\n  args: [a]\n",
			head + "runs:\n  using: docker\n  image: " + ref + " # built on every run\n  args: [a]\n"},
		{"CRLF", strings.ReplaceAll(head+"runs:\n  using: docker\n  image: Dockerfile\n", "\n", "\r\n"),
			strings.ReplaceAll(head+"runs:\n  using: docker\n  image: "+ref+"\n", "\n", "\r\n")},
		{"flow mapping", head + "runs: {using: docker, image: Dockerfile}\n",
			head + "runs: {using: docker, image: " + ref + "}\n"},
		{"non-ASCII before", "name: x\ndescription: d\nruns: {using: docker, é: 1, image: Dockerfile}\n",
			"name: x\ndescription: d\nruns: {using: docker, é: 1, image: " + ref + "}\n"},
		{"already pinned", head + "runs:\n  using: docker\n  image: docker://ghcr.io/stalepr/stalepr@sha256:" + strings.Repeat("f", 64) + "\n",
			head + "runs:\n  using: docker\n  image: " + ref + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := release.Pin([]byte(tc.in), ref)
			if err != nil {
				t.Fatalf("Pin: %v", err)
			}
			if string(out) != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", out, tc.want)
			}
		})
	}
}

func TestPinRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not a docker action", "name: x\nruns:\n  using: node20\n  main: index.js\n", `runs.using is "node20"`},
		{"no runs", "name: x\n", "no runs key"},
		{"no image", "name: x\nruns:\n  using: docker\n", "no image key"},
		{"image twice", "name: x\nruns:\n  using: docker\n  image: a\n  image: b\n", "image"},
		{"multi-line plain", "name: x\nruns:\n  using: docker\n  image: Docker\n    file\n", "on one line"},
		{"block scalar", "name: x\nruns:\n  using: docker\n  image: |\n    Dockerfile\n", "on one line"},
		{"tagged", "name: x\nruns:\n  using: docker\n  image: !!str Dockerfile\n", "on one line"},
		{"image is a list", "name: x\nruns:\n  using: docker\n  image: [a]\n", "not a string"},
		{"not YAML", "name: [\n", "not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := release.Pin([]byte(tc.in), ref)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Pin = %q, %v; want an error saying %q", out, err, tc.want)
			}
		})
	}
}

func TestImageRef(t *testing.T) {
	hex := strings.Repeat("0123456789abcdef", 4)
	for in, want := range map[string]string{
		"ghcr.io/stalepr/stalepr@sha256:" + hex:          "docker://ghcr.io/stalepr/stalepr@sha256:" + hex,
		"docker://ghcr.io/stalepr/stalepr@sha256:" + hex: "docker://ghcr.io/stalepr/stalepr@sha256:" + hex,
		"localhost:5000/a/b_c@sha256:" + hex:             "docker://localhost:5000/a/b_c@sha256:" + hex,
		"alpine@sha256:" + hex:                           "docker://alpine@sha256:" + hex,
	} {
		got, err := release.ImageRef(in)
		if err != nil || got != want {
			t.Errorf("ImageRef(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"ghcr.io/stalepr/stalepr@sha256:" + hex[:63]:                    "64",
		"ghcr.io/stalepr/stalepr@sha256:" + hex + "0":                   "64",
		"ghcr.io/stalepr/stalepr@sha256:" + strings.ToUpper(hex):        "lower-case",
		"ghcr.io/stalepr/stalepr@sha256:" + hex[:63] + "g":              "hex",
		"ghcr.io/stalepr/stalepr@sha512:" + hex + hex:                   "sha256",
		"ghcr.io/stalepr/stalepr@" + hex:                                "sha256",
		"ghcr.io/stalepr/stalepr@sha256:":                               "64",
		"ghcr.io/stalepr/stalepr:v1":                                    "not pinned by digest",
		"ghcr.io/stalepr/stalepr":                                       "not pinned by digest",
		"ghcr.io/stalepr/stalepr:v1@sha256:" + hex:                      "no tag",
		"ghcr.io/StalePR/stalepr@sha256:" + hex:                         "lower-case path",
		"ghcr.io/stalepr/stalepr@sha256:" + hex + "\nimage: Dockerfile": "64",
		"":           "not pinned by digest",
		"Dockerfile": "not pinned by digest",
	} {
		got, err := release.ImageRef(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ImageRef(%q) = %q, %v; want an error saying %q", in, got, err, why)
		}
		if _, _, err := release.Pin([]byte("name: x\nruns:\n  using: docker\n  image: Dockerfile\n"), in); err == nil {
			t.Errorf("Pin accepted the image %q", in)
		}
	}
}

// TestRun: the command rewrites the file in place, keeping its mode, and
// leaves it untouched when it refuses.
func TestRun(t *testing.T) {
	const in = "name: x\ndescription: d\nruns:\n  using: docker\n  image: Dockerfile\n"
	path := filepath.Join(t.TempDir(), "action.yml")
	if err := os.WriteFile(path, []byte(in), 0o640); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	bad := "ghcr.io/stalepr/stalepr@sha256:" + strings.Repeat("a", 63)
	if code := run([]string{"-image", bad, path}, &stdout, &stderr); code != 2 {
		t.Errorf("a bad digest: exit %d, want 2; stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "64 lower-case hex digits") {
		t.Errorf("a bad digest: stderr %q does not say what to give", stderr.String())
	}
	if b, _ := os.ReadFile(path); string(b) != in {
		t.Errorf("a refused run changed the file:\n%s", b)
	}
	stderr.Reset()
	other := "ghcr.io/someone/else@" + digest
	if code := run([]string{"-image", other, path}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), release.Image) {
		t.Errorf("another image: exit %d, stderr %q; want 2 and the project's image named", code, stderr.String())
	}
	if code := run([]string{path}, &stdout, &stderr); code != 2 {
		t.Errorf("no -image: exit %d, want 2", code)
	}
	if code := run([]string{"-image", image, filepath.Join(t.TempDir(), "missing.yml")}, &stdout, &stderr); code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}

	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"-image", image, path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(in, "image: Dockerfile", "image: "+ref, 1); string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want 0640", info.Mode().Perm(), err)
	}
	if !strings.Contains(stdout.String(), "was Dockerfile") {
		t.Errorf("stdout %q does not say what it replaced", stdout.String())
	}
}

// mainFleetWorkflow is the repository's fleet workflow as main has it (its
// listing step runs release.DevImage), also on a release commit, whose
// pinned image it puts back.
func mainFleetWorkflow(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", ".github", "workflows", "fleet.yml"))
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`(?m)^(\s+(?:- )?uses: )(docker://\S+)$`)
	ms := uses.FindAllSubmatch(src, -1)
	if len(ms) == 0 {
		t.Fatal("fleet.yml: no step uses a docker:// image")
	}
	for _, m := range ms {
		if err := release.CheckWorkflowImage(string(m[2])); err != nil {
			t.Fatalf("fleet.yml: %v", err)
		}
	}
	return uses.ReplaceAll(src, []byte("${1}"+release.DevImage))
}

// TestPinRepositoryFleetWorkflow rewrites the fleet workflow as the release
// workflow does: the listing step runs the image by digest, not by a tag
// that moves, and every other byte stays.
func TestPinRepositoryFleetWorkflow(t *testing.T) {
	src := mainFleetWorkflow(t)
	out, n, err := release.PinWorkflow(src, ref)
	if err != nil {
		t.Fatalf("PinWorkflow: %v", err)
	}
	if n != 1 {
		t.Errorf("%d steps pinned, want 1 (the listing)", n)
	}
	if want := strings.Replace(string(src), "uses: "+release.DevImage+"\n", "uses: "+ref+"\n", 1); string(out) != want {
		t.Errorf("the rewrite changed more than the listing step's uses:\n%s", out)
	}
	if err := release.CheckWorkflowImage(ref); err != nil {
		t.Errorf("the pinned form is refused: %v", err)
	}
}

func TestCheckWorkflowImage(t *testing.T) {
	for _, v := range []string{release.DevImage, ref} {
		if err := release.CheckWorkflowImage(v); err != nil {
			t.Errorf("CheckWorkflowImage(%q): %v", v, err)
		}
	}
	for _, v := range []string{release.DevImage + ":1", release.DevImage + ":latest", "docker://ghcr.io/someone/else@" + digest,
		"ghcr.io/stalepr/stalepr@" + digest, release.DevImage + "@sha256:" + strings.Repeat("a", 63)} {
		if err := release.CheckWorkflowImage(v); err == nil {
			t.Errorf("CheckWorkflowImage(%q) accepted a form a commit must not carry", v)
		}
	}
}

func TestPinWorkflow(t *testing.T) {
	const in = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: docker://ghcr.io/stalepr/stalepr:1 # moves\n" +
		"      - id: b\n        uses: 'docker://ghcr.io/stalepr/stalepr'\n      - uses: docker://alpine:3\n  c:\n    uses: o/r/.github/workflows/w.yml@v1\n"
	out, n, err := release.PinWorkflow([]byte(in), ref)
	if err != nil {
		t.Fatal(err)
	}
	want := "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: " + ref + " # moves\n" +
		"      - id: b\n        uses: " + ref + "\n      - uses: docker://alpine:3\n  c:\n    uses: o/r/.github/workflows/w.yml@v1\n"
	if n != 2 || string(out) != want {
		t.Errorf("PinWorkflow = %d steps,\n%s\nwant 2,\n%s", n, out, want)
	}
	if _, _, err := release.PinWorkflow([]byte("on: push\njobs:\n  a:\n    steps:\n      - uses: docker://alpine:3\n"), ref); err == nil {
		t.Error("a workflow without the image: want an error")
	}
}

// TestRunWorkflowToo: one run pins action.yml and a workflow; a file it
// refuses leaves both as they were.
func TestRunWorkflowToo(t *testing.T) {
	dir := t.TempDir()
	action, wf := filepath.Join(dir, "action.yml"), filepath.Join(dir, "fleet.yml")
	const actionIn = "name: x\ndescription: d\nruns:\n  using: docker\n  image: Dockerfile\n"
	const wfIn = "on: push\njobs:\n  a:\n    steps:\n      - uses: docker://ghcr.io/stalepr/stalepr\n"
	for p, in := range map[string]string{action: actionIn, wf: wfIn} {
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("on: push\njobs: {}\n"), 0o644)
	if code := run([]string{"-image", image, action, wf, bad}, &stdout, &stderr); code != 1 {
		t.Errorf("a workflow without the image: exit %d, want 1", code)
	}
	for p, in := range map[string]string{action: actionIn, wf: wfIn} {
		if b, _ := os.ReadFile(p); string(b) != in {
			t.Errorf("a refused run changed %s:\n%s", p, b)
		}
	}
	if code := run([]string{"-image", image, action, wf}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if b, _ := os.ReadFile(wf); !strings.Contains(string(b), "uses: "+ref+"\n") {
		t.Errorf("fleet.yml not pinned:\n%s", b)
	}
	if b, _ := os.ReadFile(action); !strings.Contains(string(b), "image: "+ref+"\n") {
		t.Errorf("action.yml not pinned:\n%s", b)
	}
}
