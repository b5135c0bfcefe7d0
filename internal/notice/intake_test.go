package notice_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// TestIntakeMarkers: the intake notice's marker is a one-line hidden
// comment, read back as its own kind, never as a stale notice or a close
// (which older versions read with Parse), nor from a look-alike. Its
// closing comment carries every close's marker.
func TestIntakeMarkers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		body string
		kind lifecycle.Notice
	}{
		{name: "intake notice round-trips", body: notice.Body(notice.Render(lifecycle.DefaultIntake, vars()), notice.IntakeMarker()), kind: lifecycle.IntakeNotice},
		{name: "the close marker is not the intake notice", body: notice.CloseMarker(lifecycle.RuleIntake), kind: lifecycle.NoNotice},
		{name: "another kind", body: "<!-- stalepr:intake-later -->", kind: lifecycle.NoNotice},
		{name: "no marker", body: "please link an issue", kind: lifecycle.NoNotice},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := notice.ParseIntake(tt.body); got != tt.kind {
				t.Errorf("ParseIntake = %d, want %d", got, tt.kind)
			}
			if kind, _, _, _ := notice.Parse(tt.body); tt.kind != lifecycle.NoNotice && kind != lifecycle.NoNotice {
				t.Errorf("Parse reads %d from an intake marker: an older version would take it for its own", kind)
			}
		})
	}
	if m := notice.IntakeMarker(); !strings.HasPrefix(m, "<!--") || !strings.HasSuffix(m, "-->") || strings.Contains(m, "\n") {
		t.Errorf("marker %q is not a one-line HTML comment", m)
	}
	for name, tmpl := range map[string]string{"DefaultIntake": lifecycle.DefaultIntake, "DefaultIntakeClose": lifecycle.DefaultIntakeClose} {
		if err := notice.Check(tmpl); err != nil {
			t.Errorf("%s: Check: %v", name, err)
		}
		if got := notice.Render(tmpl, vars()); strings.Contains(got, "{{") {
			t.Errorf("%s: placeholder left in %q", name, got)
		}
	}
}
