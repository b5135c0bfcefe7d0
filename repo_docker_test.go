package main

// Checks of the Dockerfile, and of the binary built exactly as the Dockerfile
// builds it (no Docker needed: the go build line is read from the Dockerfile).

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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
// that binary in the final image, OCI labels, a non-root target, and a default
// target GitHub can run as a Docker action.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	instrs := parseDockerfile(t)
	stages := dockerStages(t, instrs)

	builder := -1
	for i, s := range stages {
		if s.parent >= 0 {
			continue
		}
		if !digestRE.MatchString(s.image) {
			t.Errorf("Dockerfile:%d: FROM %s: pin the image as name:tag@sha256:<digest> (Dependabot keeps both current)",
				s.from.line, s.image)
		}
		if strings.HasPrefix(s.image, "golang:") {
			builder = i
		}
	}
	if builder < 0 {
		t.Fatal("Dockerfile: no stage FROM golang:<tag>@sha256:<digest> builds the binary")
	}

	// The builder's Go is the go.mod's minor release: the golang images set
	// GOTOOLCHAIN=local, so an older Go refuses to build.
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goLine == nil {
		t.Fatal("go.mod has no go directive")
	}
	if tag := strings.TrimPrefix(stages[builder].image, "golang:"); !strings.HasPrefix(tag, string(goLine[1])) {
		t.Errorf("Dockerfile:%d: builder golang:%s does not match go.mod's go %s", stages[builder].from.line,
			strings.SplitN(tag, "@", 2)[0], goLine[1])
	}

	// Modules are downloaded in a layer of their own, before the sources come in.
	var order []string
	for _, in := range stages[builder].body {
		switch {
		case in.cmd == "COPY" && strings.Contains(in.args, "go.mod") && strings.Contains(in.args, "go.sum"):
			order = append(order, "copy go.mod")
		case in.cmd == "RUN" && strings.Contains(in.args, "go mod download"):
			order = append(order, "download")
		case in.cmd == "COPY" && strings.HasPrefix(in.args, ". "):
			order = append(order, "copy .")
		case in.cmd == "RUN" && strings.Contains(in.args, "go build"):
			order = append(order, "build")
		}
	}
	if want := []string{"copy go.mod", "download", "copy .", "build"}; !slices.Equal(order, want) {
		t.Errorf("builder stage steps %q, want %q", order, want)
	}

	build := dockerBuildLine(t, instrs)
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-o /stalepr", "-X main.version=${VERSION}"} {
		if !strings.Contains(build.args, want) {
			t.Errorf("Dockerfile:%d: the go build line lacks %s", build.line, want)
		}
	}
	if !regexp.MustCompile(`-ldflags="[^"]*-s -w`).MatchString(build.args) {
		t.Errorf("Dockerfile:%d: the go build line does not strip symbols and DWARF (-ldflags=\"-s -w ...\")", build.line)
	}
	if !slices.ContainsFunc(stages[builder].body, func(in dockerInstr) bool {
		return in.cmd == "ARG" && in.args == "VERSION=dev"
	}) {
		t.Error("Dockerfile: the builder stage lacks ARG VERSION=dev")
	}

	// Final stages: the binary and nothing else, labelled, run by ENTRYPOINT.
	last := len(stages) - 1
	labels := map[string]string{}
	nonRoot := false
	for i, s := range stages {
		if i == builder {
			continue
		}
		for _, in := range s.body {
			switch in.cmd {
			case "COPY", "ADD":
				if in.cmd == "ADD" || !strings.Contains(in.args, "--from=") || !strings.HasSuffix(in.args, " /stalepr /stalepr") {
					t.Errorf("Dockerfile:%d: %s %s: the runtime image holds only the binary (COPY --from=<builder> /stalepr /stalepr)",
						in.line, in.cmd, in.args)
				}
			case "RUN":
				t.Errorf("Dockerfile:%d: RUN in a runtime stage: the distroless image has no shell", in.line)
			case "LABEL":
				for _, m := range labelRE.FindAllStringSubmatch(in.args, -1) {
					labels[m[1]] = strings.Trim(m[2], `"`)
				}
			}
		}
		if !isRootUser(effectiveUser(stages, i)) {
			nonRoot = true
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
			t.Errorf("Dockerfile: no OCI label %s", key)
		case want != "" && got != want:
			t.Errorf("Dockerfile: label %s=%q, want %q", key, got, want)
		}
	}
	if !nonRoot {
		t.Error("Dockerfile: no runtime stage runs as a non-root user (USER nonroot:nonroot)")
	}
	// GitHub builds the last stage for `image: Dockerfile`. The runner creates
	// $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY as its own user (uid 1001 on
	// GitHub-hosted runners) with mode 0644: the action runs as that uid, not
	// as root and not as distroless' 65532, which could not write them.
	if u := effectiveUser(stages, last); u != "1001" && !strings.HasPrefix(u, "1001:") {
		t.Errorf("Dockerfile: the default (last) stage runs as %q, want the runner's uid 1001 (non-root, can write the runner's files)", u)
	}
	entry := ""
	for i := last; entry == ""; i = stages[i].parent {
		for _, in := range stages[i].body {
			if in.cmd == "ENTRYPOINT" {
				entry = in.args
			}
		}
		if stages[i].parent < 0 {
			break
		}
	}
	if entry != `["/stalepr"]` {
		t.Errorf("Dockerfile: the final image's ENTRYPOINT is %q, want [\"/stalepr\"]", entry)
	}
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
	// GOPROXY=off: the modules are in the cache already (this test's own
	// binary needed them), and the test must not touch the network.
	env := []string{"GOOS=linux", "GOARCH=" + runtime.GOARCH, "GOPROXY=off", "GOFLAGS=-mod=readonly"}
	var args []string
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
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, append([]string{"build"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}

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

	if runtime.GOOS != "linux" {
		return // built for linux: cannot run here
	}
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
