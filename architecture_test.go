package main

// TestArchitecture checks docs/architecture.md where a test can: which
// of the project's packages each package imports. Its imports
// block is the drawing; the source's import lines (go/parser, no toolchain
// needed) are the house.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/testenv"
)

const module = "github.com/stalepr/stalepr"

// importLine is one line of the imports block of docs/architecture.md: a package, the
// project's packages it imports, and what the line says of the rest.
type importLine struct {
	imports []string // the project's packages, by their path under internal/ ("main" for the root)
	stdOnly bool     // "(the standard library only)": no module outside it either
	noIO    bool     // "no I/O": none of the standard library's doors to the world
}

// readImportLines parses the imports block of docs/architecture.md: "name  a b c  (notes)".
func readImportLines(t *testing.T) map[string]importLine {
	t.Helper()
	body := fileSection(t, architecturePath, "imports")
	lines := map[string]importLine{}
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "```") {
			continue
		}
		words, notes, _ := strings.Cut(line, "(")
		fields := strings.Fields(words)
		if _, dup := lines[fields[0]]; dup {
			t.Fatalf("docs/architecture.md imports block: %s given twice", fields[0])
		}
		lines[fields[0]] = importLine{
			imports: fields[1:],
			stdOnly: strings.Contains(notes, "standard library only"),
			noIO:    strings.Contains(notes, "no I/O"),
		}
	}
	return lines
}

// sourceImports is, for each package of the tree with production code
// (test files and testdata left out), every path its files import.
func sourceImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		name := "main"
		if dir, _ := filepath.Rel(root, filepath.Dir(path)); dir != "." {
			name = filepath.ToSlash(strings.TrimPrefix(dir, "internal"+string(filepath.Separator)))
		}
		if _, ok := out[name]; !ok {
			out[name] = []string{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(out[name], p) {
				out[name] = append(out[name], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ioPackages are the standard library's doors to the world, which the pure
// core never opens (time is a value there, never a clock).
var ioPackages = []string{"io", "io/fs", "io/ioutil", "os", "os/exec", "os/signal", "net", "net/http", "net/url", "syscall", "bufio", "log", "crypto/rand", "math/rand", "math/rand/v2"}

func TestArchitecture(t *testing.T) {
	t.Parallel()
	lines := readImportLines(t)
	tree := sourceImports(t, ".")
	for name, paths := range tree {
		f, ok := lines[name]
		if !ok {
			t.Errorf("package %s is not in the imports block of docs/architecture.md: add its line", name)
			continue
		}
		var project []string
		for _, p := range paths {
			switch first, _, _ := strings.Cut(p, "/"); {
			case strings.HasPrefix(p, module+"/internal/"):
				project = append(project, strings.TrimPrefix(p, module+"/internal/"))
			case f.stdOnly && strings.Contains(first, "."):
				t.Errorf("%s imports %s: docs/architecture.md says the standard library only", name, p)
			case f.noIO && slices.Contains(ioPackages, p):
				t.Errorf("%s imports %s: docs/architecture.md says no I/O", name, p)
			}
		}
		slices.Sort(project)
		want := slices.Sorted(slices.Values(f.imports))
		if !slices.Equal(project, want) {
			t.Errorf("%s imports %v of the project's packages; docs/architecture.md's imports block says %v", name, project, want)
		}
	}
	for name := range lines {
		if _, ok := tree[name]; !ok {
			t.Errorf("the imports block of docs/architecture.md names %s, which is no package of the tree", name)
		}
	}
}

// TestWhereAWriteGoes checks docs/architecture.md's "a new write kind" where a test
// can: every method of the sweep's Writer role is sent by a step of the
// sweep (s.gh.Method), and every write Outcome has its case in steps
// (steps.go). That ghapi.Client implements the role, the compiler checks
// (main passes it as sweep.GitHub); the words, report's
// TestEveryOutcomeWorded; the fake's route, the end-to-end tests, which the
// fake's 404 fails.
func TestWhereAWriteGoes(t *testing.T) {
	t.Parallel()
	sweepFiles := parseDir(t, "internal/sweep")
	sent := map[string]bool{}
	for _, f := range sweepFiles {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if inner, ok := sel.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "gh" {
					sent[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	writer := roomMethods(t, sweepFiles, "Writer")
	if len(writer) == 0 {
		t.Fatal("no Writer interface in internal/sweep")
	}
	for _, m := range writer {
		if !sent[m] {
			t.Errorf("sweep.Writer's %s is sent by no step of the sweep (s.gh.%s)", m, m)
		}
	}
	outs, cases := writeOutcomes(t, sweepFiles), stepsCases(sweepFiles)
	if len(outs) == 0 {
		t.Fatal("no write outcomes found in internal/sweep/steps.go")
	}
	for _, o := range outs {
		if !cases[o] {
			t.Errorf("the write outcome %s has no case in steps (internal/sweep/steps.go)", o)
		}
	}
}

// parseDir parses the production files of a package directory.
func parseDir(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = f
	}
	return files
}

// TestRoomsNarrow holds each sweep stage to its room of the port
// (port.go): a stage's gh is a room, never the whole GitHub, and every call
// of the room is one the stage (or a part of it, a type embedding it) sends
// through its gh. A call it no longer makes leaves its room with it.
func TestRoomsNarrow(t *testing.T) {
	t.Parallel()
	files := parseDir(t, "internal/sweep")
	rooms := map[string]string{}             // stage: its gh's type
	base := map[string]string{}              // a type: the type it embeds a pointer to
	fields := map[string]map[string]string{} // a type: its fields' pointed-to types, by name
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				fields[ts.Name.Name] = map[string]string{}
				for _, field := range st.Fields.List {
					star, _ := field.Type.(*ast.StarExpr)
					switch {
					case len(field.Names) == 1 && field.Names[0].Name == "gh":
						rooms[ts.Name.Name] = fmt.Sprint(field.Type)
					case len(field.Names) == 0 && star != nil:
						base[ts.Name.Name] = fmt.Sprint(star.X)
					case len(field.Names) == 1 && star != nil:
						fields[ts.Name.Name][field.Names[0].Name] = fmt.Sprint(star.X)
					}
				}
			}
			return false
		})
	}
	if len(rooms) < 8 {
		t.Fatalf("found the gh of %d stages in internal/sweep: the walk is broken", len(rooms))
	}
	stageOf := func(typ string) string {
		if _, own := rooms[typ]; own {
			return typ
		}
		return base[typ] // a part's calls are its stage's
	}
	sent := map[string]map[string]bool{} // stage: the calls its methods send through gh
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Body != nil {
				sentIn(fd, fields, stageOf, sent)
			}
		}
	}
	for stage, room := range rooms {
		if room == "GitHub" {
			t.Errorf("sweep's %s holds the whole port: give it a room of its own in port.go", stage)
			continue
		}
		methods := roomMethods(t, files, room)
		if len(methods) == 0 {
			t.Errorf("sweep's %s holds %s, which is no interface of port.go's", stage, room)
		}
		for _, m := range methods {
			if !sent[stage][m] {
				t.Errorf("sweep's %s never sends %s: take it out of %s", stage, m, room)
			}
		}
	}
}

// sentIn adds to sent the calls method fd sends through a gh: its
// receiver's (r.gh.M), a field's of it (r.s.gh.M), or a variable's set to
// such a field (s := r.s; s.gh.M), each the stage's its type says.
func sentIn(fd *ast.FuncDecl, fields map[string]map[string]string, stageOf func(string) string, sent map[string]map[string]bool) {
	recvType := receiverName(fd.Recv.List[0].Type)
	recv := ""
	if names := fd.Recv.List[0].Names; len(names) == 1 {
		recv = names[0].Name
	}
	vars := map[string]string{recv: recvType} // a name in fd: the type it points to
	typeOf := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			return vars[e.Name]
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && x.Name == recv {
				return fields[recvType][e.Sel.Name]
			}
		}
		return ""
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && typeOf(n.Rhs[0]) != "" {
					vars[id.Name] = typeOf(n.Rhs[0])
				}
			}
		case *ast.SelectorExpr:
			if inner, ok := n.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "gh" {
				stage := stageOf(typeOf(inner.X))
				if sent[stage] == nil {
					sent[stage] = map[string]bool{}
				}
				sent[stage][n.Sel.Name] = true
			}
		}
		return true
	})
}

// roomMethods are the methods of the interface name, with those of the
// interfaces it embeds.
func roomMethods(t *testing.T, files map[string]*ast.File, name string) []string {
	t.Helper()
	var methods []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != name {
				return true
			}
			for _, m := range ts.Type.(*ast.InterfaceType).Methods.List {
				if len(m.Names) == 0 {
					methods = append(methods, roomMethods(t, files, fmt.Sprint(m.Type))...)
				}
				for _, id := range m.Names {
					methods = append(methods, id.Name)
				}
			}
			return false
		})
	}
	return methods
}

// writeOutcomes are the Outcome constants declared before StillStale, the
// first of the outcomes that write nothing (steps.go's order).
func writeOutcomes(t *testing.T, files map[string]*ast.File) []string {
	t.Helper()
	f := files["steps.go"]
	if f == nil {
		t.Fatal("no internal/sweep/steps.go")
	}
	var outs []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			for _, id := range spec.(*ast.ValueSpec).Names {
				switch {
				case id.Name == "StillStale":
					return outs
				case id.Name != "_" && len(outs) > 0 || id.Name == "Unstaled":
					outs = append(outs, id.Name)
				}
			}
		}
	}
	return outs
}

// stepsCases are the names the case clauses of sweeper.steps' switch
// name.
func stepsCases(files map[string]*ast.File) map[string]bool {
	cases := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "steps" || fn.Recv == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if cc, ok := n.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						if id, ok := e.(*ast.Ident); ok {
							cases[id.Name] = true
						}
					}
				}
				return true
			})
		}
	}
	return cases
}

// TestReleaseBinaryDeps: the release build (-tags release, as the
// Dockerfile and .goreleaser.yaml build it) carries no fake GitHub and no
// GraphQL parser: the transport is told a query by its call site, and the
// sandbox stays in checkouts.
func TestReleaseBinaryDeps(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // two go list runs: CI's, not the quick loop's
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-tags", "release", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.Contains(pkg, "gqlparser") || strings.HasSuffix(pkg, "/internal/fakegithub") {
			t.Errorf("the release binary imports %s", pkg)
		}
	}
	out, err = exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "/internal/fakegithub") {
		t.Errorf("without the tag the sandbox's fake GitHub is gone too (err %v): the test checks nothing", err)
	}
}

// maxMethods is the most methods a production type may have: past it, the
// type holds more than one stage or role, and a change to one reads through
// all of them. The fake GitHub is a test double (left out of release builds)
// and is not held to it.
const maxMethods = 30

// wholePort are the types whose method set is the sweep's whole port
// (sweep.GitHub) by design, built of parts each held to maxMethods: the
// adapter's own methods are counted, not the port's.
var wholePort = map[string]bool{filepath.Join("internal", "ghapi") + ".Client": true}

// TestNoTypeOverMaxMethods counts, for each named type of the production
// code, its method set: the methods declared on it (pointer and value
// receivers alike) and those it gets from the project's types it embeds,
// each name once (a type embedded along two paths gives its methods once).
func TestNoTypeOverMaxMethods(t *testing.T) {
	t.Parallel()
	declared := map[string][]string{} // "dir.Type": the names of the methods declared on it
	embeds := map[string][]string{}   // "dir.Type": the "dir.Type"s its struct embeds
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "fakegithub" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil && len(decl.Recv.List) > 0 {
					typ := dir + "." + receiverName(decl.Recv.List[0].Type)
					declared[typ] = append(declared[typ], decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, field := range st.Fields.List {
						if len(field.Names) == 0 { // embedded
							embeds[dir+"."+ts.Name.Name] = append(embeds[dir+"."+ts.Name.Name], dir+"."+receiverName(field.Type))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) == 0 {
		t.Fatal("no method found: the walk is broken")
	}
	var methods func(typ string, depth int, set map[string]bool) map[string]bool
	methods = func(typ string, depth int, set map[string]bool) map[string]bool {
		for _, m := range declared[typ] {
			set[m] = true
		}
		for _, e := range embeds[typ] {
			if depth < 8 {
				methods(e, depth+1, set)
			}
		}
		return set
	}
	for typ := range declared {
		if wholePort[typ] {
			if n := len(declared[typ]); n > maxMethods {
				t.Errorf("%s declares %d methods, more than %d: split it by stage or role", typ, n, maxMethods)
			}
			continue
		}
		if n := len(methods(typ, 0, map[string]bool{})); n > maxMethods {
			t.Errorf("%s has %d methods, more than %d: split it by stage or role", typ, n, maxMethods)
		}
	}
}

// receiverName is the name of a method's receiver type: T of T, *T, T[K], *T[K].
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
