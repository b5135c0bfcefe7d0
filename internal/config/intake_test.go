package config

import (
	"slices"
	"strings"
	"testing"
)

// TestIntakeInputs: days-before-intake-close turns the intake clock on;
// -1, its default, leaves it off whatever the other intake inputs say.
func TestIntakeInputs(t *testing.T) {
	t.Parallel()
	if in := mustParse(t, nil).Policy.Intake; in.On {
		t.Errorf("the intake clock is on by default: %+v", in)
	}
	c := mustParse(t, map[string]string{"days-before-intake-close": "5", "intake-accepted-labels": "accepted, help wanted",
		"intake-message": "Open an issue first.", "intake-close-message": ""})
	if in := c.Policy.Intake; !in.On || in.DaysBeforeClose != 5 || !slices.Equal(in.AcceptedLabels, []string{"accepted", "help wanted"}) {
		t.Errorf("Intake = %+v, want on, 5 days, [accepted help wanted]", in)
	}
	if c.IntakeMessage != "Open an issue first." || c.IntakeCloseMessage != "" {
		t.Errorf("messages = %q, %q", c.IntakeMessage, c.IntakeCloseMessage)
	}
	if in := mustParse(t, map[string]string{"days-before-intake-close": "-1"}).Policy.Intake; in.On {
		t.Errorf("-1 turns the intake clock on: %+v", in)
	}
}

// TestIntakeClosesWithTheStaleClockOff: the intake clock closes though
// days-before-stale and days-before-close are both -1, so no warning says
// the run will close nothing (Policy.Closes asks every rule, not only the
// stale clocks; the budget's reserve for a close and the search for a
// closing comment's copy follow the same answer).
func TestIntakeClosesWithTheStaleClockOff(t *testing.T) {
	t.Parallel()
	c := mustParse(t, map[string]string{"days-before-stale": "-1", "days-before-close": "-1", "days-before-intake-close": "7"})
	if !c.Policy.Closes() {
		t.Error("Policy.Closes: false with the intake clock on")
	}
	for _, w := range c.Warnings {
		if strings.Contains(w, "neither mark nor close") {
			t.Errorf("the intake clock closes, yet a warning says nothing will: %q", w)
		}
	}
}
