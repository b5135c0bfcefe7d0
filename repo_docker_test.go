package main

// Checks of the Dockerfile, and of the binary built exactly as the Dockerfile
// builds it (no Docker needed: the go build line is read from the Dockerfile).

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"

	"github.com/stalepr/stalepr/internal/testenv"
)

// dockerInstr is one Dockerfile instruction, continuation lines joined.
type dockerInstr struct {
	line int    // first line
	cmd  string // upper-cased: FROM, RUN, ...
	args string
}

func parseDockerfile(t *testing.T) []dockerInstr {
	t.Helper()
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstr
	var cur *dockerInstr
	for i, line := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (cur == nil && trimmed == "") {
			continue // comments may sit between continuation lines
		}
		cont := strings.HasSuffix(trimmed, `\`)
		trimmed = strings.TrimSpace(strings.TrimSuffix(trimmed, `\`))
		if cur == nil {
			cmd, args, _ := strings.Cut(trimmed, " ")
			cur = &dockerInstr{line: i + 1, cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args)}
		} else if trimmed != "" {
			cur.args += " " + trimmed
		}
		if !cont {
			out = append(out, *cur)
			cur = nil
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	if len(out) == 0 {
		t.Fatal("Dockerfile is empty")
	}
	return out
}

// dockerStage is one FROM of the Dockerfile and its instructions.
type dockerStage struct {
	from   dockerInstr
	image  string // image reference, or the name of an earlier stage
	parent int    // index of the stage it builds on, or -1 for an image
	name   string
	body   []dockerInstr
}

func dockerStages(t *testing.T, instrs []dockerInstr) []dockerStage {
	t.Helper()
	var stages []dockerStage
	for _, in := range instrs {
		if in.cmd != "FROM" {
			if len(stages) == 0 {
				if in.cmd != "ARG" {
					t.Errorf("Dockerfile:%d: %s before the first FROM", in.line, in.cmd)
				}
				continue
			}
			stages[len(stages)-1].body = append(stages[len(stages)-1].body, in)
			continue
		}
		var words []string
		for _, w := range strings.Fields(in.args) {
			if !strings.HasPrefix(w, "--") {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			t.Fatalf("Dockerfile:%d: FROM without an image", in.line)
		}
		s := dockerStage{from: in, image: words[0], parent: -1}
		if len(words) == 3 && strings.EqualFold(words[1], "AS") {
			s.name = words[2]
		}
		for i, prev := range stages {
			if prev.name != "" && strings.EqualFold(prev.name, s.image) {
				s.parent = i
			}
		}
		stages = append(stages, s)
	}
	if len(stages) == 0 {
		t.Fatal("Dockerfile has no FROM")
	}
	return stages
}

var (
	digestRE = regexp.MustCompile(`^[^@\s]+:[^@\s/]+@sha256:[0-9a-f]{64}$`)
	labelRE  = regexp.MustCompile(`([A-Za-z0-9._-]+)=("(?:[^"\\]|\\.)*"|\S+)`)
)

// effectiveUser returns the user a stage's container runs as: its last USER,
// else that of the stage it builds on, else the image's default (distroless
// ":nonroot" images run as nonroot, other images as root).
func effectiveUser(stages []dockerStage, i int) string {
	s := stages[i]
	for j := len(s.body) - 1; j >= 0; j-- {
		if s.body[j].cmd == "USER" {
			return s.body[j].args
		}
	}
	if s.parent >= 0 {
		return effectiveUser(stages, s.parent)
	}
	if strings.Contains(s.image, ":nonroot") {
		return "nonroot"
	}
	return "root"
}

func isRootUser(u string) bool {
	name, _, _ := strings.Cut(u, ":")
	return name == "root" || name == "0"
}

// TestDockerfile checks the Dockerfile's supply chain and hardening: base
// images pinned by digest, a binary built with -trimpath and without cgo, only
// that binary in the final images, OCI labels, a non-root target, and a
// default target GitHub can run as a Docker action (as root, no USER).
func TestDockerfile(t *testing.T) {
	t.Parallel()
	instrs := parseDockerfile(t)
	stages := dockerStages(t, instrs)

	builder := checkDockerBaseImages(t, stages)
	if builder < 0 {
		t.Fatal("Dockerfile: no stage FROM golang:<tag>@sha256:<digest> builds the binary")
	}
	checkDockerBuilder(t, stages[builder])
	checkDockerBuildLine(t, dockerBuildLine(t, instrs))

	// Final stages: the binary and nothing else (or a copy of another final
	// stage's files), labelled, run by ENTRYPOINT.
	last := len(stages) - 1
	nonRoot := checkDockerRuntimeStages(t, stages, builder)
	if nonRoot < 0 {
		t.Error("Dockerfile: no runtime stage runs as a non-root user (USER nonroot:nonroot)")
	}
	checkDockerDefaultTargetRoot(t, stages)
	for _, i := range []int{last, nonRoot} {
		if i < 0 {
			continue
		}
		checkLabels(t, stages, i)
		if entry := stageEntrypoint(stages, i); entry != `["/stalepr"]` {
			t.Errorf("Dockerfile: stage %q: ENTRYPOINT is %q, want [\"/stalepr\"]", stages[i].name, entry)
		}
	}
}

// checkDockerBaseImages checks that every base image is pinned by digest,
// and returns the builder stage's index (FROM golang:), or -1.
func checkDockerBaseImages(t *testing.T, stages []dockerStage) int {
	t.Helper()
	builder := -1
	for i, s := range stages {
		if s.parent >= 0 || s.image == "scratch" {
			continue // scratch is empty: nothing to pin
		}
		if !digestRE.MatchString(s.image) {
			t.Errorf("Dockerfile:%d: FROM %s: pin the image as name:tag@sha256:<digest> (Dependabot keeps both current)",
				s.from.line, s.image)
		}
		if strings.HasPrefix(s.image, "golang:") {
			builder = i
		}
	}
	return builder
}

// checkDockerBuilder checks the builder stage: its Go, the order of its
// steps, its VERSION argument.
func checkDockerBuilder(t *testing.T, builder dockerStage) {
	t.Helper()
	// The builder's Go is the go.mod's minor release: the golang images set
	// GOTOOLCHAIN=local, so an older Go refuses to build.
	goMinor := goModMinor(t)
	if tag := strings.TrimPrefix(builder.image, "golang:"); !strings.HasPrefix(tag, goMinor) {
		t.Errorf("Dockerfile:%d: builder golang:%s does not match go.mod's go %s", builder.from.line,
			strings.SplitN(tag, "@", 2)[0], goMinor)
	}

	// The sources are in before the build, and the go build line is the one
	// command the builder runs: go build fetches only the modules it compiles
	// (TestDockerBinary measures which), where another RUN (go mod download,
	// go test, go get, ...) would fetch the modules only the tests need.
	var order []string
	for _, in := range builder.body {
		switch {
		case in.cmd == "COPY" && strings.HasPrefix(in.args, ". "):
			order = append(order, "copy .")
		case in.cmd == "RUN" && strings.Contains(in.args, "go build"):
			order = append(order, "build")
		case in.cmd == "RUN":
			t.Errorf("Dockerfile:%d: RUN %s: the builder runs only the go build line, "+
				"which fetches just the modules of the binary", in.line, in.args)
		}
	}
	if want := []string{"copy .", "build"}; !slices.Equal(order, want) {
		t.Errorf("builder stage steps %q, want %q", order, want)
	}
	if !slices.ContainsFunc(builder.body, func(in dockerInstr) bool {
		return in.cmd == "ARG" && in.args == "VERSION=dev"
	}) {
		t.Error("Dockerfile: the builder stage lacks ARG VERSION=dev")
	}
}

// checkDockerBuildLine checks the go build line: one command, no cgo, -trimpath, the
// release tag (no sandbox), the output path, the version stamped, symbols
// and DWARF stripped.
func checkDockerBuildLine(t *testing.T, build dockerInstr) {
	t.Helper()
	// One simple command: no && or ; to chain a go mod download before it.
	if _, err := shellWords(build.args); err != nil {
		t.Errorf("Dockerfile:%d: the go build line is not one simple command (VAR=value ... go build ...): %v", build.line, err)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-tags release", "-o /stalepr", "-X main.version=${VERSION}"} {
		if !strings.Contains(build.args, want) {
			t.Errorf("Dockerfile:%d: the go build line lacks %s", build.line, want)
		}
	}
	if !regexp.MustCompile(`-ldflags="[^"]*-s -w`).MatchString(build.args) {
		t.Errorf("Dockerfile:%d: the go build line does not strip symbols and DWARF (-ldflags=\"-s -w ...\")", build.line)
	}
}

// checkDockerRuntimeStages checks that the runtime stages copy only the
// binary (or another runtime stage's files) and run nothing, and returns
// the index of the last one that runs as a non-root user, or -1.
func checkDockerRuntimeStages(t *testing.T, stages []dockerStage, builder int) int {
	t.Helper()
	nonRoot := -1
	for i, s := range stages {
		if i == builder {
			continue
		}
		for _, in := range s.body {
			checkDockerRuntimeInstr(t, stages, builder, in)
		}
		if !isRootUser(effectiveUser(stages, i)) {
			nonRoot = i
		}
	}
	return nonRoot
}

// checkDockerRuntimeInstr checks one instruction of a runtime stage.
func checkDockerRuntimeInstr(t *testing.T, stages []dockerStage, builder int, in dockerInstr) {
	t.Helper()
	switch in.cmd {
	case "COPY", "ADD":
		if !finalStageCopy(stages, builder, in) {
			t.Errorf("Dockerfile:%d: %s %s: a runtime image holds only the binary (COPY --from=<builder> /stalepr /stalepr) "+
				"or the files of another runtime stage (COPY --from=<stage> / /)", in.line, in.cmd, in.args)
		}
	case "RUN":
		t.Errorf("Dockerfile:%d: RUN in a runtime stage: the distroless image has no shell", in.line)
	}
}

// checkDockerDefaultTargetRoot checks the default (last) target runs as
// root. GitHub builds the last stage for `image: Dockerfile`, and runs
// Docker actions as the image's default user: its contract is root, with
// no USER in the Dockerfile. As another uid the action cannot write
// $GITHUB_OUTPUT on runners whose files belong to a different uid.
func checkDockerDefaultTargetRoot(t *testing.T, stages []dockerStage) {
	t.Helper()
	last := len(stages) - 1
	for i := last; i >= 0; i = stages[i].parent {
		for _, in := range stages[i].body {
			if in.cmd == "USER" {
				t.Errorf("Dockerfile:%d: USER %s in the default (last) target's stages: GitHub runs Docker actions as root, "+
					"do not set USER there (keep it in the non-root target)", in.line, in.args)
			}
		}
	}
	if u := effectiveUser(stages, last); !isRootUser(u) {
		t.Errorf("Dockerfile: the default (last) stage runs as %q, want root (GitHub's contract for Docker actions)", u)
	}
}

// finalStageCopy reports whether a COPY of a runtime stage copies the binary
// from the builder, or all the files of another runtime stage.
func finalStageCopy(stages []dockerStage, builder int, in dockerInstr) bool {
	if in.cmd != "COPY" {
		return false
	}
	from := regexp.MustCompile(`(?:^|\s)--from=(\S+)`).FindStringSubmatch(in.args)
	if from == nil {
		return false
	}
	switch {
	case strings.EqualFold(from[1], stages[builder].name):
		return strings.HasSuffix(in.args, " /stalepr /stalepr")
	case strings.HasSuffix(in.args, " / /"):
		for i, s := range stages {
			if i != builder && s.name != "" && strings.EqualFold(s.name, from[1]) {
				return true // that stage's own COPYs are checked in turn
			}
		}
	}
	return false
}

// checkLabels checks the OCI labels a stage's image carries (its own LABELs
// and those of the stages it builds on; a COPY of files carries none).
func checkLabels(t *testing.T, stages []dockerStage, i int) {
	t.Helper()
	labels := map[string]string{}
	for j := i; j >= 0; j = stages[j].parent {
		for _, in := range stages[j].body {
			if in.cmd != "LABEL" {
				continue
			}
			for _, m := range labelRE.FindAllStringSubmatch(in.args, -1) {
				if _, ok := labels[m[1]]; !ok {
					labels[m[1]] = strings.Trim(m[2], `"`)
				}
			}
		}
	}
	for key, want := range map[string]string{
		"org.opencontainers.image.source":      "https://github.com/stalepr/stalepr",
		"org.opencontainers.image.title":       "stalepr",
		"org.opencontainers.image.description": "",
		"org.opencontainers.image.licenses":    "",
		"org.opencontainers.image.version":     "${VERSION}",
	} {
		got, ok := labels[key]
		switch {
		case !ok || got == "":
			t.Errorf("Dockerfile: stage %q has no OCI label %s", stages[i].name, key)
		case want != "" && got != want:
			t.Errorf("Dockerfile: stage %q: label %s=%q, want %q", stages[i].name, key, got, want)
		}
	}
}

// stageEntrypoint returns the ENTRYPOINT a stage's image runs.
func stageEntrypoint(stages []dockerStage, i int) string {
	for ; i >= 0; i = stages[i].parent {
		for j := len(stages[i].body) - 1; j >= 0; j-- {
			if stages[i].body[j].cmd == "ENTRYPOINT" {
				return stages[i].body[j].args
			}
		}
	}
	return ""
}

// goModMinor returns go.mod's go directive as major.minor ("1.26").
func goModMinor(t *testing.T) string {
	t.Helper()
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)(?:\.\d+)?\s*$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go directive of the form go 1.N or go 1.N.P")
	}
	return string(m[1])
}

// dockerBuildLine returns the one RUN instruction holding "go build".
func dockerBuildLine(t *testing.T, instrs []dockerInstr) dockerInstr {
	t.Helper()
	var found []dockerInstr
	for _, in := range instrs {
		if in.cmd == "RUN" && strings.Contains(in.args, "go build") {
			found = append(found, in)
		}
	}
	if len(found) != 1 {
		t.Fatalf("Dockerfile: %d RUN instructions with go build, want 1", len(found))
	}
	return found[0]
}

// shellWords splits a simple shell command line: whitespace separates words,
// double and single quotes group and are removed.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '&' || r == ';' || r == '|' || r == '`' || r == '(' || r == '\\':
			return nil, errors.New("not a simple command: holds " + string(r))
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestDockerBinary builds the binary with the flags of the Dockerfile's go
// build line and checks it is static, stripped and fails cleanly, with a
// message saying what to set, when run with no environment at all (as `docker
// run` of the image without inputs would).
func TestDockerBinary(t *testing.T) {
	t.Parallel()
	// Builds the binary with CGO_ENABLED=0: on a cold build cache that
	// compiles the standard library again, about ten seconds.
	testenv.Slow(t)
	build := dockerBuildLine(t, parseDockerfile(t))
	words, err := shellWords(build.args)
	if err != nil {
		t.Fatalf("Dockerfile:%d: %v", build.line, err)
	}
	const version = "v0.0.0-dockertest"
	bin := filepath.Join(t.TempDir(), "stalepr")
	// As in the image: the build context (.dockerignore applied) and an
	// empty module cache. The modules come from this machine's module cache
	// served as a file proxy (this test's own binary needed them), so the
	// test does not touch the network, and what the build fetched is known.
	mods := dockerModules(t)
	proxy := filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download")
	for modPath, version := range mods.build {
		if _, err := os.Stat(filepath.Join(proxy, modEscape(modPath), "@v", version+".zip")); err != nil {
			t.Skipf("the module cache has no zip of %s@%s to serve as a proxy: %v", modPath, version, err)
		}
	}
	src := dockerContext(t)
	modCache := filepath.Join(t.TempDir(), "mod")
	env := []string{"GOOS=linux", "GOARCH=" + runtime.GOARCH, "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local",
		"GOMODCACHE=" + modCache, "GOPROXY=file://" + filepath.ToSlash(proxy), "GOSUMDB=off", "GOWORK=off"}
	env, args := dockerGoBuildArgs(t, build, words, env, version, bin)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, append([]string{"build"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s in the build context: %v\n%s", strings.Join(args, " "), err, out)
	}
	checkFetchedModules(t, mods, fetchedModules(t, modCache))
	checkStaticStripped(t, bin, version)
	if runtime.GOOS != "linux" {
		return // built for linux: cannot run here
	}
	checkFailsCleanlyWithNoEnvironment(t, bin)
}

// dockerGoBuildArgs reads the Dockerfile's go build line, words: the
// variables it sets are added to env (but those set from build arguments,
// GOOS=$TARGETOS etc.: the build is for this machine's architecture), and
// its arguments are returned with the version stamped and the output at
// bin.
func dockerGoBuildArgs(t *testing.T, build dockerInstr, words, env []string, version, bin string) ([]string, []string) {
	t.Helper()
	i := 0
	for ; i < len(words) && strings.Contains(words[i], "="); i++ {
		name, val, _ := strings.Cut(words[i], "=")
		if strings.Contains(val, "$") {
			continue // GOOS=$TARGETOS etc.: build for this machine's architecture
		}
		env = append(env, name+"="+val)
	}
	if !slices.Contains(env, "CGO_ENABLED=0") {
		t.Fatalf("Dockerfile:%d: go build is not run with CGO_ENABLED=0", build.line)
	}
	if i+1 >= len(words) || words[i] != "go" || words[i+1] != "build" {
		t.Fatalf("Dockerfile:%d: want [VAR=value ...] go build ..., got %q", build.line, build.args)
	}
	var args []string
	rest := words[i+2:]
	for j := 0; j < len(rest); j++ {
		w := strings.NewReplacer("${VERSION}", version, "$VERSION", version).Replace(rest[j])
		if w == "-o" && j+1 < len(rest) {
			w, rest[j+1] = "-o", bin
		}
		if strings.Contains(w, "$") {
			t.Fatalf("Dockerfile:%d: go build argument %q holds a variable this test does not know", build.line, rest[j])
		}
		args = append(args, w)
	}
	if !slices.Contains(args, "-o") {
		t.Fatalf("Dockerfile:%d: go build has no -o", build.line)
	}
	return env, args
}

// checkFetchedModules checks that the build fetched every module of the
// binary's packages and none that only the tests need.
func checkFetchedModules(t *testing.T, mods dockerModuleSets, fetched []string) {
	t.Helper()
	for _, m := range mods.testOnly {
		if slices.Contains(fetched, m) {
			t.Errorf("the Dockerfile's build fetched %s, which only the tests need", m)
		}
	}
	for m := range mods.build {
		if !slices.Contains(fetched, m) {
			t.Errorf("the build did not fetch %s, a module of the binary's packages: is this check broken? fetched %q", m, fetched)
		}
	}
}

// checkStaticStripped checks that the binary at bin is statically linked,
// stripped, and holds the version stamped into it.
func checkStaticStripped(t *testing.T, bin, version string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has a PT_INTERP program header: it is dynamically linked, and distroless/static has no libc")
		}
	}
	for _, name := range []string{".interp", ".dynamic"} {
		if f.Section(name) != nil {
			t.Errorf("the binary has a %s section: it is dynamically linked", name)
		}
	}
	for _, name := range []string{".debug_info", ".zdebug_info", ".symtab"} {
		if f.Section(name) != nil {
			t.Errorf("the binary has a %s section: -ldflags \"-s -w\" should have stripped it", name)
		}
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(version)) {
		t.Errorf("the binary does not hold %q: -X main.version did not set a variable (is `var version` in package main?)", version)
	}
}

// checkFailsCleanlyWithNoEnvironment runs the binary with no environment
// at all (as `docker run` of the image without inputs would): it must exit
// non-zero within 30s, without a panic, saying what to set.
func checkFailsCleanlyWithNoEnvironment(t *testing.T, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, bin)
	run.Env = []string{}
	run.Dir = t.TempDir()
	out, err := run.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("with an empty environment the binary did not exit within 30s; output:\n%s", out)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("with an empty environment the binary exited %v, want a non-zero exit status; output:\n%s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "panic:") || strings.Contains(text, "goroutine ") {
		t.Errorf("the binary panicked with an empty environment:\n%s", text)
	}
	if !strings.Contains(text, "repository") || !(strings.Contains(text, "GITHUB_TOKEN") || strings.Contains(text, "repo-token")) {
		t.Errorf("with an empty environment the binary should say to set the token (GITHUB_TOKEN or repo-token) "+
			"and the repository; it printed:\n%s", text)
	}
}

// dockerModuleSets are the modules of the binary (path → version) and the
// modules go.mod requires that the binary does not need.
type dockerModuleSets struct {
	build    map[string]string
	testOnly []string
}

// imageBuild is what the image's binary is built from (linux, no cgo, as
// the Dockerfile builds it): the modules of its packages (path → version)
// and the files of its own (the main module's) packages, Go and embedded,
// by absolute path. One go list for the tests that need either.
type imageBuild struct {
	modules map[string]string
	files   []string
}

var imageBuildOnce = sync.OnceValues(func() (imageBuild, error) {
	// -tags release: as the Dockerfile's go build line (checkDockerBuildLine).
	cmd := exec.Command("go", "list", "-deps", "-tags", "release", "-f", `{{with .Module}}{{if .Main}}{{range $.GoFiles}}F {{$.Dir}}/{{.}}
{{end}}{{range $.EmbedFiles}}F {{$.Dir}}/{{.}}
{{end}}{{else}}M {{.Path}} {{.Version}}
{{end}}{{end}}`, ".")
	cmd.Env = append(os.Environ(), "GOOS=linux", "CGO_ENABLED=0", "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		return imageBuild{}, fmt.Errorf("go list -deps .: %w\n%s", err, stderrOf(err))
	}
	b := imageBuild{modules: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "M":
			if path, version, ok := strings.Cut(rest, " "); ok {
				b.modules[path] = version
			}
		case "F":
			b.files = append(b.files, rest)
		}
	}
	return b, nil
})

func imageBuildOf(t *testing.T) imageBuild {
	t.Helper()
	testenv.Long(t) // go list loads every package of the build: without -short (CI)
	b, err := imageBuildOnce()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dockerModules lists the modules the image's binary is built from and
// those go.mod requires beyond them.
func dockerModules(t *testing.T) dockerModuleSets {
	t.Helper()
	sets := dockerModuleSets{build: imageBuildOf(t).modules}
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v\n%s", err, stderrOf(err))
	}
	var gomod struct{ Require []struct{ Path string } }
	if err := json.Unmarshal(out, &gomod); err != nil {
		t.Fatal(err)
	}
	for _, r := range gomod.Require {
		if _, ok := sets.build[r.Path]; !ok {
			sets.testOnly = append(sets.testOnly, r.Path)
		}
	}
	if len(sets.build) == 0 {
		t.Fatal("go list found no module dependency of the binary: is the check broken?")
	}
	return sets
}

func stderrOf(err error) []byte {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.Stderr
	}
	return nil
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// modEscape is the module cache's escaping of a module path: an upper-case
// letter becomes '!' and the lower-case letter.
func modEscape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return filepath.FromSlash(b.String())
}

// fetchedModules lists the modules whose zip a module cache holds: the
// modules a build fetched into an empty cache.
func fetchedModules(t *testing.T, modCache string) []string {
	t.Helper()
	root := filepath.Join(modCache, "cache", "download")
	var mods []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".zip") {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(filepath.Dir(p))) // <module>/@v/<version>.zip
		if err != nil {
			return err
		}
		modPath := regexp.MustCompile(`!([a-z])`).ReplaceAllStringFunc(filepath.ToSlash(rel), func(s string) string {
			return strings.ToUpper(s[1:])
		})
		mods = append(mods, modPath)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(mods)
	return mods
}

// dockerignore tells which files docker build leaves out of the context:
// .dockerignore read and matched by Docker's own code (moby/patternmatcher).
type dockerignore struct {
	pm *patternmatcher.PatternMatcher
}

// excluded reports whether the file at p (slash-separated, relative to the
// context root) stays out of the build context.
func (d dockerignore) excluded(t *testing.T, p string) bool {
	t.Helper()
	out, err := d.pm.MatchesOrParentMatches(p)
	if err != nil {
		t.Fatalf(".dockerignore on %s: %v", p, err)
	}
	return out
}

func readDockerignore(t *testing.T) dockerignore {
	t.Helper()
	f, err := os.Open(".dockerignore")
	if err != nil {
		t.Fatalf("reading .dockerignore: %v", err)
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		t.Fatalf("reading .dockerignore: %v", err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatalf(".dockerignore: %v", err)
	}
	return dockerignore{pm}
}

// dockerContext copies the files docker would send as the build context
// (the repository minus .dockerignore) into a new directory.
func dockerContext(t *testing.T) string {
	t.Helper()
	ignore := readDockerignore(t)
	dir := t.TempDir()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		rel := filepath.ToSlash(p)
		if ignore.excluded(t, rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(dir, p)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDockerignore: the build context holds what the binary is built from
// and leaves out the tests, their data and every build output .gitignore
// names (a binary in the work tree would go into every build otherwise).
func TestDockerignore(t *testing.T) {
	t.Parallel()
	ignore := readDockerignore(t)

	// What the build needs: go.mod, go.sum and the Go files (and embedded
	// files) of the binary's own packages.
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	need := []string{"go.mod", "go.sum"}
	for _, f := range imageBuildOf(t).files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		need = append(need, filepath.ToSlash(rel))
	}
	if len(need) < 5 {
		t.Fatalf("go list found only %q: is the check broken?", need)
	}
	for _, p := range need {
		if ignore.excluded(t, p) {
			t.Errorf(".dockerignore excludes %s, which the build needs", p)
		}
	}

	// What it must leave out.
	leaveOut := []string{"main_test.go", "internal/sweep/sweep_test.go", "testdata/sandbox/repo.json", "README.md", "docs/rules.md", ".git/HEAD"}
	gitignore, err := os.ReadFile(".gitignore")
	if err != nil {
		t.Fatal(err)
	}
	outputs := 0
	for _, line := range strings.Split(string(gitignore), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		// An example path the pattern matches: dist/ → dist/x, *.out → sample.out.
		p := strings.ReplaceAll(strings.TrimPrefix(line, "/"), "*", "sample")
		if strings.HasSuffix(p, "/") {
			p += "file"
		}
		leaveOut = append(leaveOut, p)
		outputs++
	}
	if outputs == 0 {
		t.Fatal(".gitignore names no build output: is the check broken?")
	}
	for _, p := range leaveOut {
		if !ignore.excluded(t, p) {
			t.Errorf(".dockerignore lets %s into the build context", p)
		}
	}
}

// TestCostDocBuildsAsTheDockerfile: the command docs/cost.md measures the
// binary's size with is the Dockerfile's go build line, for linux/amd64
// with a release's version stamped: a size measured with other flags
// (without -tags release, which leaves the sandbox out) is not the image's.
func TestCostDocBuildsAsTheDockerfile(t *testing.T) {
	t.Parallel()
	build := dockerBuildLine(t, parseDockerfile(t))
	want, err := shellWords(build.args)
	if err != nil {
		t.Fatalf("Dockerfile:%d: %v", build.line, err)
	}
	lines := regexp.MustCompile(`(?m)^CGO_ENABLED=.* go build .*$`).FindAllString(readMarkdown(t, "docs/cost.md"), -1)
	if len(lines) != 1 {
		t.Fatalf("docs/cost.md shows %d go build commands, want the one its binary sizes come from", len(lines))
	}
	got, err := shellWords(lines[0])
	if err != nil {
		t.Fatalf("docs/cost.md: the go build command %q: %v", lines[0], err)
	}
	as := strings.NewReplacer("$TARGETOS", "linux", "$TARGETARCH", "amd64", "${VERSION}", "v1.2.3")
	normal := func(words []string, replace bool) []string {
		out := slices.Clone(words)
		for i := range out {
			if replace {
				out[i] = as.Replace(out[i])
			}
			if i > 0 && out[i-1] == "-o" {
				out[i] = "OUTPUT"
			}
		}
		return out
	}
	if w, g := normal(want, true), normal(got, false); !slices.Equal(w, g) {
		t.Errorf("docs/cost.md measures the binary built with\n  %s\nnot as the Dockerfile:%d builds it for linux/amd64 (version v1.2.3):\n  %s",
			strings.Join(g, " "), build.line, strings.Join(w, " "))
	}
}
