package config

import "strings"

// intakeDays parses days-before-intake-close: set to a day count, it turns
// the intake clock on (lifecycle.Intake.On).
func intakeDays(field func(*Config) *int) target {
	d := days(field)
	return target{kind: Days, parse: func(p *parser, in Input, c *Config) bool {
		if !d.parse(p, in, c) {
			return false
		}
		c.Policy.Intake.On = *field(c) >= 0
		return true
	}}
}

// intake refuses what contradicts the intake clock, before any request.
func (p *parser) intake(c *Config) {
	in := c.Policy.Intake
	if !in.On {
		if p.isSet(inputIntakeLabels) && len(in.AcceptedLabels) > 0 {
			p.fail(inputIntakeLabels, "is set, but days-before-intake-close is -1 (off), so nothing reads it; set days-before-intake-close, or remove it")
		}
		return
	}
	switch {
	case in.DaysBeforeClose == 0:
		p.fail(inputIntakeDays, "is 0: a pull request would be closed in the run that tells its author, with no time to link an accepted issue; use 1 or more, or -1 for off")
	case c.IntakeMessage == "":
		// The notice's hidden marker keeps it to one per pull request, and
		// the close counts from it.
		p.fail(inputIntakeMessage, "is empty, but the intake clock closes only pull requests it told first; say how an issue gets accepted, or set days-before-intake-close to -1")
	}
	for _, l := range in.AcceptedLabels {
		if strings.EqualFold(strings.TrimSpace(l), strings.TrimSpace(c.Policy.StaleLabel)) {
			p.fail(inputIntakeLabels, "holds %s, the stale-pr-label: an issue stalepr's stale label is on was not accepted by anyone", quote(l))
		}
	}
}
