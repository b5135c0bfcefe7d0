package sweep_test

import (
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The sweep owns its port: neither it, nor the report that words its
// result, nor the dashboard step imports the HTTP adapter (their tests may,
// for the HTTP fake).
func TestPortPackagesDoNotImportGhapi(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{".", "../report", "../dashboard"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			ast, err := parser.ParseFile(gotoken.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range ast.Imports {
				if path, _ := strconv.Unquote(im.Path.Value); strings.HasSuffix(path, "/internal/ghapi") {
					t.Errorf("%s imports %s: speak the port's types and api.Stop instead", f, path)
				}
			}
		}
	}
}
