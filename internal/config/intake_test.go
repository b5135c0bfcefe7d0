package config

import (
	"slices"
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
