package lifecycle_test

import (
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestDecideClosedSince(t *testing.T) {
	runDecide(t, []decideCase{
		{
			// The listing said open; a concurrent run closed it
			// before its history was read.
			name: "history ends with a close: closed since it was listed, left alone",
			pr:   pr(daysAgo(1), staleLabel),
			act:  &lifecycle.Activity{LastPersonAt: daysAgo(1), ClosedNow: true}, policy: policy(),
			want: lifecycle.Skip, reason: lifecycle.ReasonClosedSince,
			rule: lifecycle.RuleClosedSince,
		},
	})
}
