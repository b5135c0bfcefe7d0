package sweep

import (
	"context"
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// ReasonReopened is the clean-up of close-pr-label on an open PR.
const ReasonReopened lifecycle.Reason = "open again after a stale close: close-pr-label removed"

// reopenedOps plans taking close-pr-label off the open PRs that carry it: a
// PR closed as stale and reopened would keep it for ever (and carry both it
// and the stale label once marked again), so a search for the label would
// no longer find only the PRs closed as stale. One listing page per 100
// such PRs, only when close-pr-label is set. A locked PR is left alone, and
// so is a draft under close-action: draft (the label marks a PR converted
// as stale, which stays open). PRs this run closed keep the label it put on.
func (s *cleanUp) reopenedOps(ctx context.Context) ([]op, error) {
	label := s.cfg.CloseLabel
	if label == "" || strings.Contains(label, ",") {
		// GitHub's labels= filter splits on commas: a label holding one
		// cannot be listed, so it is never cleaned (nor wrongly touched).
		return nil, nil
	}
	closedNow := map[int]bool{}
	for _, it := range with(s.x.got.items, Closed) {
		closedNow[it.Number] = true
	}
	q := Query{State: "open", Labels: []string{label}, Sort: "updated", Direction: "asc"}
	var ops []op
	err := listUntil(ctx, s.log, s.list, q, map[int]bool{}, func(pr lifecycle.PR) {
		switch {
		case !pr.HasLabel(label), closedNow[pr.Number], pr.Locked,
			pr.Draft && s.pol.CloseAction == lifecycle.CloseToDraft:
			return
		}
		ops = append(ops, op{out: CloseLabelCleaned, pr: pr, d: lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonReopened}})
	}, everyPage)
	return ops, err
}
