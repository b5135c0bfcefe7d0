package sweep

import (
	"context"
	"slices"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// linker is the stage that reads the intake clock's links, only for the
// PRs the listing cannot put out of its class (lifecycle.IntakeCandidate),
// before they are decided, and learns whose access the class needs.
type linker struct {
	*settings
	gh linkerGitHub
}

// wants reports whether pr's links are to be read.
func (k *linker) wants(pr lifecycle.PR) bool {
	return k.pol.Intake.On && lifecycle.IntakeCandidate(pr, k.now, k.pol)
}

// read reads the links of the PRs held for them, LinksPerRead a request,
// and passes each on. A repository where no open PR is a candidate sends no
// request. Only a stop ends the listing: links GitHub could not give are
// unknown, which keeps the PR out of the intake clock (its other clocks
// decide it). Before the listing ends (all false) it reads full requests
// only: the rest waits for the next pages' candidates.
func (k *linker) read(ctx context.Context, h *held, pass func(Listed), all bool) error {
	for len(*h) >= LinksPerRead || all && len(*h) > 0 {
		batch := (*h)[:min(len(*h), LinksPerRead)]
		numbers := make([]int, len(batch))
		for i, l := range batch {
			numbers[i] = l.PR.Number
		}
		links, err := k.gh.Links(ctx, numbers)
		if api.IsStop(err) {
			return err
		}
		if err != nil {
			k.log.Printf("Could not read the linked issues of %d pull requests (%v): the intake clock holds none of them this run", len(numbers), err)
		}
		for _, l := range batch {
			l.PR.Links = links[l.PR.Number] // absent: not read, unknown
			pass(l)
		}
		*h = (*h)[len(batch):]
	}
	return nil
}

// access is the account whose push access would put pr in the intake
// class, when the run does not know it yet: the author, or a coding agent's
// human of record. "" when it would not (out of the class on other facts,
// known already).
func (k *linker) access(pr lifecycle.PR, act lifecycle.Activity) string {
	in := act.Intake
	if !k.pol.Intake.On || in.Accountable == "" || in.Access != lifecycle.AccessUnknown {
		return ""
	}
	if d, _ := lifecycle.DecideIntake(pr, &in, k.now, k.pol.For(pr)); d.Reason != lifecycle.ReasonIntakeAccess {
		return ""
	}
	return in.Accountable
}

// held are the listed PRs whose checks a page said are failing: their
// checks are read ChecksPerRead at a time (across pages, so a page with a
// failing PR costs no request of its own), then they are decided.
type held []Listed

// drop forgets the held copy of PR n, if any.
func (h *held) drop(n int) {
	*h = slices.DeleteFunc(*h, func(l Listed) bool { return l.PR.Number == n })
}
