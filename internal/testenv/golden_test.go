package testenv

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	t.Parallel()
	if d := lineDiff("a\nb\n", "a\nb\n"); d != "" {
		t.Errorf("equal texts: diff %q", d)
	}
	d := lineDiff("a\nb\nc\nd\n", "a\nb\nX\nd\n")
	for _, want := range []string{"at line 3:", "  b\n", "- c\n", "+ X\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "d\n") {
		t.Errorf("diff shows the equal tail:\n%s", d)
	}
	if d := lineDiff("a\n", "a\nb\n"); !strings.Contains(d, "+ b") {
		t.Errorf("an added line is not shown:\n%s", d)
	}
}
