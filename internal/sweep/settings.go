package sweep

import (
	"time"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// settings are what the run was started with, the same for every stage:
// each stage holds the one value rather than copies of its fields.
type settings struct {
	cfg config.Config
	pol lifecycle.Policy // cfg.Policy
	now time.Time
	log Logger
	id  *identity // who the token acts as (identity.go), learnt once a run
	// needs is what the run reads, asked of the policy once
	// (lifecycle.Policy.Needs).
	needs lifecycle.Needs
}
