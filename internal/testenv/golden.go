package testenv

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files and the generated parts of the repository (action.yml, README.md's inputs table) with what the tests produce; review the diff")

// Update reports whether the tests were asked (with -update) to rewrite the
// files they compare with instead of comparing. It is the one -update flag
// of every test binary that imports this package; a test that writes a file
// other tests read must not call t.Parallel.
func Update() bool { return *update }

// Golden compares got with the golden file at path (under the package's
// testdata/golden), or with -update writes got there. Golden files hold what
// a user reads (the log, the job summary, the outputs), so a change of
// wording or layout shows as a diff to review, as actionlint's expected
// outputs do.
func Golden(tb testing.TB, path, got string) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		tb.Fatalf("%s does not exist: run the test with -update to write it, then review it", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if d := lineDiff(string(want), got); d != "" {
		tb.Errorf("%s differs from what the test produced (- golden, + got); if the change is meant, "+
			"run the test with -update and review the diff:\n%s", path, d)
	}
}

// lineDiff shows where want and got part: the lines around the first
// difference, "" when they are equal. Enough to see what changed; the full
// picture is git diff after -update.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	// The first line from the end where they still differ.
	ew, eg := len(w), len(g)
	for ew > i && eg > i && w[ew-1] == g[eg-1] {
		ew, eg = ew-1, eg-1
	}
	const context, most = 2, 20
	var b strings.Builder
	for j := max(0, i-context); j < i; j++ {
		fmt.Fprintf(&b, "  %s\n", w[j])
	}
	for j := i; j < ew && j < i+most; j++ {
		fmt.Fprintf(&b, "- %s\n", w[j])
	}
	if ew-i > most {
		fmt.Fprintf(&b, "- … %d more lines\n", ew-i-most)
	}
	for j := i; j < eg && j < i+most; j++ {
		fmt.Fprintf(&b, "+ %s\n", g[j])
	}
	if eg-i > most {
		fmt.Fprintf(&b, "+ … %d more lines\n", eg-i-most)
	}
	return fmt.Sprintf("at line %d:\n%s", i+1, b.String())
}
