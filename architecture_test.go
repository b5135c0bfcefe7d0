package main

// TestArchitecture checks the README's Architecture where a test can: which
// of the project's packages each package imports. The README's imports
// block is the drawing; the source's import lines (go/parser, no toolchain
// needed) are the house.

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/stalepr/stalepr"

// floor is one line of the README's imports block: a package, the
// project's packages it imports, and what the line says of the rest.
type floor struct {
	imports []string // the project's packages, by their path under internal/ ("main" for the root)
	stdOnly bool     // "(the standard library only)": no module outside it either
	noIO    bool     // "no I/O": none of the standard library's doors to the world
}

// readFloors parses the README's imports block: "name  a b c  (notes)".
func readFloors(t *testing.T) map[string]floor {
	t.Helper()
	body, _, _ := section(t, readReadme(t), "imports")
	floors := map[string]floor{}
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "```") {
			continue
		}
		words, notes, _ := strings.Cut(line, "(")
		fields := strings.Fields(words)
		if _, dup := floors[fields[0]]; dup {
			t.Fatalf("README imports block: %s given twice", fields[0])
		}
		floors[fields[0]] = floor{
			imports: fields[1:],
			stdOnly: strings.Contains(notes, "standard library only"),
			noIO:    strings.Contains(notes, "no I/O"),
		}
	}
	return floors
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
	floors := readFloors(t)
	tree := sourceImports(t, ".")
	for name, paths := range tree {
		f, ok := floors[name]
		if !ok {
			t.Errorf("package %s is not in the README's imports block (Architecture): add its line", name)
			continue
		}
		var project []string
		for _, p := range paths {
			switch first, _, _ := strings.Cut(p, "/"); {
			case strings.HasPrefix(p, module+"/internal/"):
				project = append(project, strings.TrimPrefix(p, module+"/internal/"))
			case f.stdOnly && strings.Contains(first, "."):
				t.Errorf("%s imports %s: the README says the standard library only", name, p)
			case f.noIO && slices.Contains(ioPackages, p):
				t.Errorf("%s imports %s: the README says no I/O", name, p)
			}
		}
		slices.Sort(project)
		want := slices.Sorted(slices.Values(f.imports))
		if !slices.Equal(project, want) {
			t.Errorf("%s imports %v of the project's packages; the README's imports block says %v", name, project, want)
		}
	}
	for name := range floors {
		if _, ok := tree[name]; !ok {
			t.Errorf("the README's imports block names %s, which is no package of the tree", name)
		}
	}
}
