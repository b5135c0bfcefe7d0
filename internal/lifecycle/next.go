package lifecycle

import "time"

// Step is a step the rules take on a PR, and the first instant they take
// it: a run at or after At takes it, one before does not.
type Step struct {
	Action Action // Mark or Close; Keep when no step is known
	At     time.Time
}

// Next is the step the rules take after decision d of a PR at now, and
// when, if nothing happens but time: nobody acts, no label changes, and d's
// own write (a mark, a notice, an un-stale) is done. It is what every dated
// forecast prints (the job summary's next 14 days, the dashboard issue).
// The date is the decision's own (DueAt, set by the rule that decided), and
// Decide confirms it: a date Decide does not keep, taking the step at At
// and not an instant before (a quiet period, an agent's clock, a turn that
// never comes), is not given (the zero Step).
func Next(pr PR, act *Activity, d Decision, now time.Time, p Policy) Step {
	p = p.For(pr)
	if r, _ := RuleNamed(d.Rule); r.OwnClock() {
		return r.Next(d, now, p)
	}
	switch d.Action {
	case Mark, Notify:
		// The notice announces the close: nothing but a person's activity
		// moves it (a marked PR's next decisions read the history).
		if d.CloseAt.IsZero() {
			return Step{}
		}
		return Step{Action: Close, At: p.Due(d.CloseAt, now)}
	case Close, Skip, NeedDetail:
		return Step{}
	case Unstale:
		// The label comes off now, which moves updated_at: the PR is
		// decided afresh, as the next run will see it.
		pr.Labels = without(pr.Labels, p.StaleLabel)
		pr.UpdatedAt = Later(pr.UpdatedAt, now)
		d = Decide(pr, act, now, p)
		if d.Action != Keep {
			return Step{}
		}
	}
	if d.DueAt.IsZero() {
		return Step{}
	}
	at := p.Due(d.DueAt, now)
	if !at.After(now) {
		return Step{}
	}
	step := Decide(pr, act, at, p).Action
	if step != Mark && step != Close || Decide(pr, act, at.Add(-time.Nanosecond), p).Action != Keep {
		return Step{}
	}
	return Step{Action: step, At: at}
}

func without(labels []string, label string) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if !ContainsFold([]string{label}, l) {
			out = append(out, l)
		}
	}
	return out
}
