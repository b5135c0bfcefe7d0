package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The agents' inputs: more agent accounts, and the agent clock, whose unset
// half follows everyone's clock.
func TestParseAgentInputs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		inputs map[string]string
		clock  lifecycle.AgentClock
	}{
		{"unset: everyone's clock", map[string]string{"days-before-stale": "60"}, lifecycle.AgentClock{}},
		{"both set", map[string]string{"days-before-agent-pr-stale": "14", "days-before-agent-pr-close": "-1"},
			lifecycle.AgentClock{On: true, DaysBeforeStale: 14, DaysBeforeClose: -1}},
		{"stale only: close follows everyone's", map[string]string{"days-before-agent-pr-stale": "14", "days-before-pr-close": "9"},
			lifecycle.AgentClock{On: true, DaysBeforeStale: 14, DaysBeforeClose: 9}},
		{"close only: stale follows everyone's", map[string]string{"days-before-stale": "40", "days-before-agent-pr-close": "3"},
			lifecycle.AgentClock{On: true, DaysBeforeStale: 40, DaysBeforeClose: 3}},
		{"blank is unset", map[string]string{"days-before-agent-pr-stale": " ", "days-before-agent-pr-close": ""}, lifecycle.AgentClock{}},
	} {
		c := mustParse(t, tt.inputs)
		if c.Policy.AgentClock != tt.clock {
			t.Errorf("%s: agent clock %+v, want %+v", tt.name, c.Policy.AgentClock, tt.clock)
		}
	}
	c := mustParse(t, map[string]string{"agent-accounts": "acme-agent[bot], Our-Agent"})
	if !c.Policy.IsAgent("Acme-Agent[bot]") || !c.Policy.IsAgent("our-agent") || !c.Policy.IsAgent("Copilot") || c.Policy.IsAgent("alice") {
		t.Errorf("agent-accounts %v: want them agents besides the known ones, ignoring case", c.Policy.AgentAccounts)
	}
}

func TestParseAgentErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{"days-before-agent-pr-stale": "2.5"},
			`input "days-before-agent-pr-stale": want a whole number of days (or -1 for never), got "2.5"`},
		{map[string]string{"days-before-agent-pr-close": "-3"},
			`input "days-before-agent-pr-close": want a whole number of days (or -1 for never), got "-3"`},
	} {
		_, err := Parse(source(tt.inputs, nil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %s", tt.inputs, err, tt.want)
		}
	}
}

func TestAgentClockWarnings(t *testing.T) {
	t.Parallel()
	c := mustParse(t, map[string]string{"close-action": "draft", "exempt-draft-pr": "true", "days-before-agent-pr-stale": "14"})
	if !slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "days-before-agent-pr-stale") }) {
		t.Errorf("close-action draft with the agent clock: no warning that agents' drafts are converted again: %q", c.Warnings)
	}
	c = mustParse(t, map[string]string{"days-before-stale": "-1", "days-before-close": "-1", "days-before-agent-pr-stale": "14"})
	if slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "neither mark nor close") }) {
		t.Errorf("the agent clock marks, yet a warning says nothing will: %q", c.Warnings)
	}
}
